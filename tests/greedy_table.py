"""The table the tests of the analyses' mechanics play at: the greedy at every seat, a
thousand times faster than the default lookahead, so that those tests stay quick. What the
default play changes is tested in test_default_play.py."""

from tarot_advisor.analyzer.advice.hand_samples import GREEDY_TABLE, Sides

GREEDY = {"taker_policy": "greedy", "defence_policy": "greedy"}
"""``analyse_hand``'s keywords for the greedy at every seat."""
GREEDY_SIDES = GREEDY_TABLE
"""``analyse_ecart``'s ``sides`` for the greedy at every seat."""
GREEDY_OPTIONS = ["--taker", "greedy", "--defence", "greedy"]
"""The same table on a command line."""
STAND_IN_CONTROL = Sides("greedy", "simple")
"""The control table while the greedy stands in for the searching one (the fixture
``greedy_searches``): another table, so that the focus's E[score] is steadied by scores that
are correlated with its own, not equal."""
