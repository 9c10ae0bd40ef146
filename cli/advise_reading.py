"""What ``tarot-advise``'s numbers mean to a player: the score-sheet figure, why Garde beats
Prise, what "safest" means and what the engine assumes; the poignée's and the chelem's lines."""

from __future__ import annotations

from tarot_advisor.analyzer.advice.analysis import Analysis
from tarot_advisor.analyzer.advice.display import proportion
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.stats import Z95, Estimate


def score_sheet_line(analysis: Analysis) -> str:
    """E[score] as the figures written on the score sheet, for the contract the advice judged
    (:attr:`Analysis.judged`)."""
    contract = analysis.judged
    taker = analysis.contracts[contract].expected_score.mean
    players = analysis.players
    if players < 5:
        return (
            f"Score sheet: E[score] is the taker's entry; each of the {players - 1} defenders "
            f"writes minus a {('third', 'half')[players == 3]} of it "
            f"({contract.label}: taker {taker:+.1f}, each defender {-taker / (players - 1):+.1f})."
        )
    return (
        "Score sheet: E[score] is the taker's entry, twice the partner's; each of the three "
        f"defenders writes minus the partner's ({contract.label}: taker {taker:+.1f}, partner "
        f"{taker / 2:+.1f}, each defender {-taker / 2:+.1f}; a taker playing alone writes four "
        "times what each defender loses)."
    )


def reading_lines(analysis: Analysis) -> list[str]:
    """The lines under the table that say what its numbers mean."""
    lines = [
        *([] if analysis.judged is None else [score_sheet_line(analysis)]),
        "Petit au bout and Chelem: how often the taker's side makes them (the defence's are in "
        "E[score]).",
    ]
    prise = analysis.contracts.get(Contract.PRISE)
    auction = analysis.auction
    # Garde against Prise is a choice only while both may still be bid.
    pair = {Contract.PRISE.value, Contract.GARDE.value}
    both_biddable = auction is None or pair <= set(auction.legal_actions)
    if prise is not None and prise.expected_score.mean > 0 and both_biddable:
        if analysis.recommendation == Contract.PRISE.value and auction is not None:
            lines.append(_why_prise(analysis))
        else:
            lines.append(
                "Why Garde beats Prise: the same play on the same deals (the chien is taken "
                "either way) at double stakes, so whenever the deal is worth taking Garde is "
                "worth twice as much."
            )
    if analysis.safest is not None:
        lines.append(
            f"Safest: {Contract(analysis.safest).label} is made more often than the advice, but "
            "the advice maximises the expected score, which counts how much is won or lost."
        )
    sides = analysis.sides
    who = (
        f"every player plays the same {sides.taker} card play"
        if sides.taker == sides.defence
        else f"your side plays the {sides.taker} card play and the defence the {sides.defence} one"
    )
    lines.append(
        f"Assumed: the unseen cards are dealt at random, and {who}, each player seeing only its "
        "own cards and those played (no signals, no reading of habits)."
    )
    return lines


def _why_prise(analysis: Analysis) -> str:
    """Why the advice is Prise though the table doubles Garde's E[score]: the auction's values
    (:class:`.action_values.AuctionResult`) chose it."""
    values = analysis.auction.values
    ahead = values[Contract.PRISE.value].minus(values[Contract.GARDE.value])
    gap = ahead.mean
    close = abs(gap) < Z95 * ahead.se
    return (
        "Why Prise rather than Garde, though the table doubles Garde's E[score]: the advice "
        f"comes from the auction's values (overcalls counted), where Prise is ahead by {gap:.1f}"
        + (" — too close to call: Garde is as sound a bid." if close else ".")
    )


def difference(estimate: Estimate) -> str:
    """A mean difference with its 95% interval, or "… on every deal" when it never varies."""
    if estimate.se == 0:
        if estimate.mean == 0:
            return "nothing"
        return f"{estimate.mean:+.1f} on every sampled deal"
    return f"{estimate.mean:+.1f} ± {Z95 * estimate.se:.1f}"


def poignee_line(analysis: Analysis) -> str:
    poignee = analysis.poignee
    if poignee is None:
        return "Poignée: none to show, nothing is left to bid."
    if not poignee.eligible:
        return "Poignée: none to show."
    gain = poignee.expected_gain
    where = (
        f"a {poignee.size} poignée in hand"
        if poignee.size
        else "one only when the chien brings trumps "
        f"({proportion(poignee.p_eligible, analysis.judged_samples).strip()} of deals)"
    )
    verdict = "show it" if poignee.recommended else "keep it hidden"
    information = poignee.information
    return (
        f"Poignée: {where} — {verdict}: {poignee.bonus.mean:+.1f} bonus, "
        f"{difference(information)} for what it tells the defence (in all {difference(gain)})."
    )


def chelem_line(analysis: Analysis) -> str:
    chelem = analysis.chelem
    if chelem is None:
        return "Chelem: none to announce, nothing is left to bid."
    gain = chelem.expected_gain
    verdict = "announce it" if chelem.recommended else "do not announce it"
    lead = chelem.lead
    settled = ""
    if chelem.samples < analysis.judged_samples:
        settled = f"; settled on the first {chelem.samples:,} samples"
    return (
        f"Chelem: {verdict}: {chelem.bonus.mean:+.1f} bonus, {difference(lead)} from leading the "
        f"first trick (in all {difference(gain)}; made "
        f"{proportion(chelem.p_chelem, chelem.samples).strip()} of the time when announced"
        f"{settled})."
    )
