"""The table the simulated deals are played at, on the command line: ``--taker`` and
``--defence`` (``tarot-advise``, ``tarot-review``), written once, and the table in a player's
words (:func:`played_by`).

Apart from :mod:`.options` so that the commands that play no deal do not import the policies.
"""

from __future__ import annotations

import click

from tarot_advisor.analyzer.advice.hand_samples import DEFAULT_POLICY, Sides
from tarot_advisor.analyzer.policies import POLICIES
from tarot_advisor.analyzer.search.lookahead import DEFAULT_WORLDS, first_half
from tarot_advisor.cli.options import Decorator

POLICY_WORDS = (
    f"lookahead: each card tried in {first_half(DEFAULT_WORLDS)} deals of the cards it cannot "
    f"see, those still in contention in {DEFAULT_WORLDS - first_half(DEFAULT_WORLDS)} more; "
    "greedy: habits without search, 50 times faster and weaker."
)
"""What the choices of ``--taker`` do, ending its help."""
SIMPLE_WORDS = "simple: the common open-source AI, weaker"
"""What ``--defence simple`` is, ending its help in brackets."""


def taker_option(help: str) -> Decorator:
    """``--taker`` (parameter ``taker_policy``): ``help`` says whom it plays in the command,
    :data:`POLICY_WORDS` follow."""
    return _policy_option("--taker", "taker_policy", f"{help} {POLICY_WORDS}")


def defence_option(help: str) -> Decorator:
    """``--defence`` (parameter ``defence_policy``): ``help`` (without its full stop) says whom
    it plays in the command, :data:`SIMPLE_WORDS` follow."""
    return _policy_option("--defence", "defence_policy", f"{help} ({SIMPLE_WORDS}).")


def _policy_option(flag: str, name: str, help: str) -> Decorator:
    return click.option(
        flag,
        name,
        type=click.Choice(list(POLICIES)),
        default=DEFAULT_POLICY,
        show_default=True,
        help=help,
    )


def played_by(sides: Sides) -> str:
    """Who played the deals, in a player's words: "lookahead for the taker's side, lookahead
    for the defence"."""
    return f"{sides.taker} for the taker's side, {sides.defence} for the defence"
