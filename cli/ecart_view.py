"""``tarot-advise HAND --chien …``: the écarts ranked, as a table a player reads quickly."""

from __future__ import annotations

from tarot_advisor.analyzer.advice.ecart_advice import (
    DEFAULT_SAMPLES as ECART_SAMPLES,
)
from tarot_advisor.analyzer.advice.ecart_advice import (
    CandidateResult,
    EcartAnalysis,
    EcartInputError,
    analyse_ecart,
)
from tarot_advisor.analyzer.advice.ecart_play import SIGNIFICANT
from tarot_advisor.analyzer.cards import (
    CardError,
    format_card,
    format_cards,
    parse_card,
    parse_cards,
)
from tarot_advisor.cli.errors import INPUT_ERROR, fail
from tarot_advisor.cli.table_options import played_by

__all__ = ["ECART_SAMPLES", "advise_ecart", "render_ecart"]

FEW_SAMPLES = 30
"""Below this many samples a standard error says little, and the verdict says so instead."""


def advise_ecart(
    hand: list[int],
    chien: str,
    players: int,
    contract: str,
    called: str | None,
    **options,
) -> EcartAnalysis:
    """Parse the chien and the call, analyse; bad input: :class:`.errors.InputError`.
    ``options``: :func:`.ecart_advice.analyse_ecart`'s (position, samples, seed, jobs, sides,
    on_done)."""
    try:
        chien_cards = parse_cards(chien)
    except CardError as error:
        fail(f"the chien: {error}", INPUT_ERROR)
    try:
        called_card = None if called is None else parse_card(called.strip())
    except CardError as error:
        fail(f"--called: {error}", INPUT_ERROR)
    try:
        return analyse_ecart(
            hand, chien_cards, players, contract=contract, called=called_card, **options
        )
    except EcartInputError as error:
        fail(str(error), INPUT_ERROR)


Z95 = 1.96


def ecart_cells(result: CandidateResult) -> tuple[str, str, str, str, str, str]:
    """An écart's row of the table: its cards, E[score] ± 95%, P(make) ± 95%, its paired gap
    to the advised écart ± 95% (blank for the advised), the poignée it leaves, and the ideas
    behind it."""
    poignee = "—"
    if result.poignee:
        poignee = f"{result.poignee}, " + ("show" if result.show_poignee else "hide")
    p, e, g = result.p_make, result.expected_score, result.versus_best
    return (
        format_cards(result.cards),
        f"{e.mean:+7.1f} ± {Z95 * e.se:5.1f}",
        f"{100 * p.mean:5.1f}% ± {100 * Z95 * p.se:4.1f}",
        "" if g.se == 0 and g.mean == 0 else f"{g.mean:+6.1f} ± {Z95 * g.se:5.1f}",
        poignee,
        "; ".join(result.ideas),
    )


def render_ecart(analysis: EcartAnalysis) -> str:
    where = (
        f"position {analysis.position}"
        if analysis.position is not None
        else f"averaged over positions 1–{analysis.players}"
    )
    call = f", calling {format_card(analysis.called)}" if analysis.called is not None else ""
    lines = [
        f"Écart for a {analysis.contract.label} ({analysis.players} players, {where}{call})",
        f"Hand: {format_cards(analysis.hand)}   Chien: {format_cards(analysis.chien)}",
        "",
        f"{'Écart':<26} {'E[score]':>15} {'P(make)':>14} {'vs best':>14}  {'Poignée':<14} Ideas",
    ]
    for result in analysis.candidates:
        cards, score, make, gain, poignee, ideas = ecart_cells(result)
        mark = "◀ " if result is analysis.recommended else ""
        lines.append(f"{cards:<26} {score} {make} {gain:>14}  {poignee:<14} {mark}{ideas}")
    best, engine = analysis.recommended, analysis.engine
    if best is engine and analysis.samples < FEW_SAMPLES:
        verdict = f"the engine's — {analysis.samples} samples are too few to tell écarts apart"
    elif best is engine:
        verdict = f"the engine's — no idea beats it by more than {SIGNIFICANT:g} SE"
    else:
        verdict = (
            f"{'; '.join(best.ideas)} — {best.gain.mean:+.1f} ± {Z95 * best.gain.se:.1f} over"
            " the engine's"
        )
    lines.append("")
    if analysis.open:
        still = "; ".join(format_cards(cards) for cards in analysis.open)
        lines.append(f"Not settled at the sample budget against the advice: {still}.")
    fewer = sorted({c.samples for c in analysis.candidates if c.samples < analysis.samples})
    if fewer:
        lines.append(
            "An écart settled against the advice stops early: each gap is on the samples both"
            f" played ({', '.join(map(str, fewer))} for some)."
        )
    lines += [
        f"Advice: discard {format_cards(best.cards)} ({verdict}).",
        f"Played by: {played_by(analysis.sides)}.",
        f"{analysis.samples:,} samples · seed {analysis.seed} · {analysis.seconds:.2f} s · "
        "± = 95% interval · every écart played on the same deals · scores are the taker's total",
    ]
    return "\n".join(lines)
