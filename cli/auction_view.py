"""The auction's part of ``tarot-advise``'s table: the bids heard and every action's value."""

from __future__ import annotations

from tarot_advisor.analyzer.advice.analysis import Analysis
from tarot_advisor.analyzer.game import BIDS, Contract

Z95 = 1.96


def action_label(action: str) -> str:
    return "Pass" if action == "pass" else Contract(action).label


def auction_lines(analysis: Analysis) -> list[str]:
    """The auction heard (if any) and one row per legal action, E[pass] first: what each is
    worth to the user, overcalls and the defence counted."""
    auction = analysis.auction
    if auction is None:
        return []
    lines = [
        "",
        f"Auction: {auction_heard(analysis)}.",
        f"{'Action':<13} {'E[score]':>17} {'vs best':>16}   (overcalls counted)",
    ]
    best = auction.recommendation
    for action, value in action_rows(analysis):
        mark = " ◀" if action == analysis.recommendation else ""
        lines.append(
            f"{action_label(action):<13} {value} {versus_cell(analysis, action):>16}{mark}".rstrip()
        )
    if auction.open:
        still = ", ".join(action_label(a) for a in auction.open)
        lines.append(
            f"Not settled at the sample budget: {still} against {action_label(best)} (the paired"
            " gap neither 2 SE from 0 nor known within ± 10 × the stakes)."
        )
    return lines


def auction_heard(analysis: Analysis) -> str:
    """The bids heard, how the others bid, and how many sampled deals fit the bids heard."""
    auction = analysis.auction
    assert auction is not None
    if auction.bids is None:
        heard = (
            f"bids not given: everybody else bids by the {auction.others} count, and a"
            " contract that cannot be bid counts as a pass"
        )
    else:
        said = ", ".join(action_label(b) for b in auction.bids) or "nothing yet"
        rate = auction.acceptance_rate or 0.0
        heard = (
            f"heard {said}; the others bid by the {auction.others} count"
            f" ({100 * rate:.3g}% of deals fit the bids heard)"
        )
    return heard


def versus_cell(analysis: Analysis, action: str) -> str:
    """An action's paired gap to the advised one ± 95% (blank for the advice itself)."""
    assert analysis.auction is not None
    gap = analysis.auction.versus_best.get(action)
    if gap is None or action == analysis.recommendation:
        return ""
    return f"{gap.mean:+8.1f} ± {Z95 * gap.se:5.1f}"


def action_rows(analysis: Analysis) -> list[tuple[str, str]]:
    """Every legal action, in the order of the bids, with its E[score] ± 95% for the user."""
    auction = analysis.auction
    if auction is None:
        return []
    return [
        (action, f"{auction.values[action].mean:+9.1f} ± {Z95 * auction.values[action].se:5.1f}")
        for action in BIDS
        if action in auction.legal_actions
    ]
