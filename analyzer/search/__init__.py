"""The lookahead: a position as one player sees it, the worlds that fit it, and play
searched from it."""
