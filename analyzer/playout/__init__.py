"""The vectorised engine: N deals dealt and played in lockstep, as array operations."""
