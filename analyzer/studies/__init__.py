"""Batch studies over many random hands: where the bid thresholds lie."""
