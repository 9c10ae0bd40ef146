"""The card-play policies the engine asks at every turn: the greedy (its habits, one per-deal
kernel each), the simple and the random players."""
