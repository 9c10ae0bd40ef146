"""The card-play policies by name: one registry for the advisor, the duel and the command lines."""

from __future__ import annotations

from collections.abc import Callable

from .players.greedy import GreedyPolicy
from .players.policy import RandomPolicy, SimplePolicy
from .playout.table import Policy
from .search.lookahead import LookaheadPolicy

POLICIES: dict[str, Callable[[], Policy]] = {
    "greedy": GreedyPolicy,
    "simple": SimplePolicy,
    "random": RandomPolicy,
    "lookahead": LookaheadPolicy,
}
"""Every policy a user can name: the engine's greedy, the common open-source AI ("simple"), a
random legal card, and the lookahead player."""


class UnknownPolicy(ValueError):
    """A policy name that is not in :data:`POLICIES`."""


def policy_named(name: str) -> Policy:
    """A new policy from its name (a key of :data:`POLICIES`)."""
    try:
        return POLICIES[name]()
    except KeyError:
        raise UnknownPolicy(f"'{name}' is not a policy (one of {', '.join(POLICIES)})") from None
