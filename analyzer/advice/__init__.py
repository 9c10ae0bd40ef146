"""What the user is told: the bid, the auction, the point counts, the écart and the card to play."""
