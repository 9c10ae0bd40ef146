"""The card-play policies the engine asks at every turn: the greedy (and its compiled
kernel), the simple and the random players."""
