"""The bids heard, as a player gives them: read, checked (each higher than all before it, each
player speaking once), and what the user may still say."""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..game import BIDS, Contract


class AuctionError(ValueError):
    """Bids that cannot have been heard: out of order, too many, unknown, or (nearly) impossible
    under the bidding model."""


_SPOKEN = re.compile(r"\bgarde[\s_-]+(sans|contre)(?:[\s_-]+(?:le[\s_-]+)?chien)?\b", re.I)


def parse_bids(bids: str | Sequence[str], players: int, whole: bool = False) -> tuple[int, ...]:
    """Bid indices into :data:`~.game.BIDS` of the bids heard, checked: a legal auction so far
    (every bid above all before it) that leaves the user a turn to speak; ``whole``: a deal
    record's whole auction, every player's bid (each speaks once)."""
    if isinstance(bids, str):
        # "garde sans (le chien)" and "garde contre (le chien)" as a player says them are one
        # bid each; bids may be separated by commas as well as spaces.
        bids = _SPOKEN.sub(r"garde_\1", bids)
    words = [w for w in re.split(r"[\s,;]+", bids) if w] if isinstance(bids, str) else list(bids)
    if isinstance(bids, str) and bids.strip() and not words:  # "," alone: a typo, not silence
        raise AuctionError(
            f"{bids.strip()!r} names no bid: write the bids heard before you, e.g. 'pass prise',"
            " or '' when you speak first"
        )
    indices: list[int] = []
    highest = 0
    for word in words:
        if not isinstance(word, str):
            raise AuctionError(f"{word!r} is not a bid (one of {', '.join(BIDS)})")
        key = word.strip().lower().replace("-", "_")
        if key == "p":  # a player's "p" may be a pass or a Prise
            raise AuctionError("'p' may be a pass or a Prise: write pass or prise")
        try:
            index = 0 if key in ("pass", "passe") else BIDS.index(Contract.parse(key).value)
        except ValueError:
            raise AuctionError(f"{word!r} is not a bid (one of {', '.join(BIDS)})") from None
        if index and index <= highest:
            raise AuctionError(
                f"{_label(index)} cannot follow {_label(highest)}: each bid must be higher than"
                " every bid before it"
            )
        highest = max(highest, index)
        indices.append(index)
    if whole and len(indices) > players:
        raise AuctionError(f"{len(indices)} bids, but each of the {players} players speaks once")
    if not whole and len(indices) >= players:
        raise AuctionError(
            f"{len(indices)} bids were heard but with {players} players at most {players - 1}"
            " speak before you"
        )
    return tuple(indices)


def _label(index: int) -> str:
    return "a pass" if index == 0 else f"a {Contract(BIDS[index]).label}"


def legal_actions(heard: Sequence[int]) -> tuple[str, ...]:
    """What the user may say after ``heard``: pass, or a contract above every bid so far."""
    highest = max(heard, default=0)
    return ("pass", *BIDS[highest + 1 :])
