"""The analyser: French Tarot under the FFT rules, dealt and played as arrays.

The layers, each importing only those below it:

- ``cards``, ``game``: the 78 cards and the facts that depend on the player count or contract;
  ``stats`` (an estimate and its error), ``parallel`` (chunks on one core or many) and
  ``exact`` (exact probabilities of a shuffled pack) beside them.
- ``rulebook``: the rules stated once (``rules``), the scalar referee that plays a deal by
  them, the deal record and the outcome of a deal.
- ``playout``: the vectorised engine: card sets as bitboards, the dealer, the table of N deals,
  the rules' array twins, what each player knows (``knowledge``), the lockstep playout, the
  scores, and the engine's own écart and poignée.
- ``players``: the card-play policies that the engine asks at each turn (the greedy, and the
  simple and random players).
- ``search``: the lookahead: a position as one player sees it, what it knows as the sampler's
  input (``known``), the worlds that fit it, play continued from it, and the lookahead player
  that searches them.
- ``policies``: every player by name, for the advice and the commands.
- ``advice``: what the user is told: the bid (the hand's samples, the auction, the point
  counts), the écart, the card to play.
- ``studies``: batch studies over many hands (the bid thresholds).
"""
