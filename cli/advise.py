"""``tarot-advise``: what to bid with a hand, and why — the simulation beside the point count."""

from __future__ import annotations

from pathlib import Path

import click

from tarot_advisor.analyzer.advice.advisor import DEFAULT_SAMPLES, analyse_hand
from tarot_advisor.analyzer.advice.analysis import Analysis
from tarot_advisor.analyzer.advice.auction import DEFAULT_MODEL, MODELS
from tarot_advisor.analyzer.advice.display import estimated_share, proportion
from tarot_advisor.analyzer.advice.ecart_advice import EcartAnalysis, ecart_samples
from tarot_advisor.analyzer.advice.ecart_play import ROUNDS as ECART_ROUNDS
from tarot_advisor.analyzer.advice.ecart_play import SEARCH_SAMPLES as ECART_SEARCH_SAMPLES
from tarot_advisor.analyzer.advice.hand import HandError
from tarot_advisor.analyzer.advice.hand_samples import CHUNK, SEARCH_CHUNK, Sides
from tarot_advisor.analyzer.advice.plan import STAGED_CHUNK, SURVEY_ROUND, SURVEY_SAMPLES
from tarot_advisor.analyzer.cards import CardError, format_card, format_cards, parse_hand
from tarot_advisor.analyzer.game import BIDS, Contract, bid_label
from tarot_advisor.analyzer.stats import Estimate
from tarot_advisor.cli.advise_outputs import (
    check_options,
    check_plot,
    check_sizes,
    write_plot,
    write_records,
)
from tarot_advisor.cli.advise_reading import chelem_line, poignee_line, reading_lines
from tarot_advisor.cli.auction_view import auction_lines
from tarot_advisor.cli.ecart_view import ECART_SAMPLES, advise_ecart, render_ecart
from tarot_advisor.cli.errors import INPUT_ERROR, console_script, fail
from tarot_advisor.cli.options import (
    command,
    jobs_option,
    json_document,
    json_option,
    players_option,
    quiet_option,
    seed_option,
    timings_option,
)
from tarot_advisor.cli.progress import Bar, no_bar, progress
from tarot_advisor.cli.replay import read_source
from tarot_advisor.cli.table_options import defence_option, taker_option

Z95 = 1.96
"""± in the table is a 95% interval: 1.96 standard errors."""

BREAKDOWN_LABELS = {
    "21": "21",
    "excuse": "Excuse",
    "petit": "Petit",
    "trump_length": "trumps",
    "major_trumps": "major trumps",
    "major_runs": "runs",
    "honours": "honours",
    "suit_length": "long suits",
    "distribution": "voids/singletons",
}


def _bid_label(bid: str | None) -> str:
    return "—" if bid is None else bid_label(bid)


def points_text(estimate: Estimate) -> str:
    return f"{estimate.mean:+7.1f} ± {Z95 * estimate.se:5.1f}"


def render(analysis: Analysis) -> str:
    """The table a player reads in five seconds."""
    where = (
        f"position {analysis.position}"
        if analysis.position is not None
        else f"averaged over positions 1–{analysis.players}"
    )
    lines = [
        f"Hand ({analysis.players} players, {where}): {format_cards(analysis.hand)}",
        count_line(analysis),
    ]
    if analysis.called is not None:
        lines.append(f"Call: {format_card(analysis.called)}" + _call_note(analysis))
    lines += [
        "",
        f"{'Contract':<13} {'P(make) [95%]':>19} {'E[score] ± 95%':>17} "
        f"{'Petit au bout':>17} {'Chelem':>17}",
    ]
    for contract in analysis.contracts:
        result, n = analysis.contracts[contract], analysis.contracts[contract].samples
        mark = "◀" if contract.value == analysis.recommendation else " "
        lines.append(
            f"{contract.label:<13} {estimated_share(result.p_make, 19)} "
            f"{points_text(result.expected_score):>17} "
            f"{proportion(result.p_petit_au_bout, n, 17)} "
            f"{proportion(result.p_chelem, n, 17)} {mark}".rstrip()
        )
    lines += auction_lines(analysis)
    lines += ["", poignee_line(analysis), chelem_line(analysis), "", advice_line(analysis)]
    lines += sensitivity_lines(analysis)
    lines += reading_lines(analysis)
    lines.append(
        f"{analysis.samples_text} · seed {analysis.seed} · {analysis.seconds:.2f} s · "
        "[ ] and ± = 95% intervals · scores are the taker's total"
    )
    return "\n".join(lines)


def count_line(analysis: Analysis) -> str:
    """The point count, the calibrated count, their bids and the barème's parts."""
    count, calibrated = analysis.point_count, analysis.calibrated
    parts = [
        f"{BREAKDOWN_LABELS.get(name, name)} {value}"
        for name, value in count.breakdown.items()
        if value
    ]
    with_distribution = (
        f" ({count.points_with_distribution} with distribution)"
        if count.points_with_distribution != count.points
        else ""
    )
    return (
        f"Point count {count.points}{with_distribution} → {_bid_label(count.bid)} · calibrated"
        f" count {calibrated.points} → {_bid_label(calibrated.bid)}   [barème: {', '.join(parts)}]"
    )


def contract_cells(analysis: Analysis, contract: Contract) -> tuple[str, str, str, str, str]:
    """A contract's row of the table: its name, P(make) with its 95% Wilson interval,
    E[score] ± 95%, P(petit au bout) and P(chelem) with theirs (the page's table)."""
    result = analysis.contracts[contract]
    n = result.samples
    return (
        contract.label,
        estimated_share(result.p_make).strip(),
        points_text(result.expected_score).strip(),
        proportion(result.p_petit_au_bout, n).strip(),
        proportion(result.p_chelem, n).strip(),
    )


_DEFENCES = {"simple": "a weak defence (simple)", "random": "a random defence"}


def sensitivity_lines(analysis: Analysis) -> list[str]:
    """How much the answer depends on the play: the best contract replayed by other tables."""
    lines = []
    for table, result in analysis.sensitivity.items():
        if table.taker == table.defence:
            by = f"At a table of {table.taker} players"
        else:
            by = "Against " + _DEFENCES.get(table.defence, f"the {table.defence} defence")
        lines.append(
            f"{by}, {result.contract.label}: P(make) {result.p_make.mean:.0%},"
            f" E {result.expected_score.mean:+.0f} ({_table_words(analysis)} above)."
        )
    return lines


def _table_words(analysis: Analysis) -> str:
    sides = analysis.sides
    if sides.taker == sides.defence:
        return f"{sides.taker} at every seat"
    return f"{sides.taker} taker's side, {sides.defence} defence"


def _call_note(analysis: Analysis) -> str:
    own = analysis.called in analysis.hand
    note = " (its own: plays alone)" if own else ""
    versus = analysis.call_versus

    def versus_best(card: int) -> str:
        gap = versus.get(card)
        if card == analysis.called or gap is None:
            return ""
        return f" ({gap.mean:+.1f} ± {1.96 * gap.se:.1f} vs best)"

    others = ", ".join(
        f"{format_card(card)} {score:+.1f}{versus_best(card)}"
        for card, score in analysis.call_scores.items()
    )
    screened = ", ".join(
        f"{format_card(card)} -{gap:.0f}" for card, gap in analysis.screened_calls.items()
    )
    close = [card for card in analysis.close_calls if card not in analysis.open_calls]
    if close:  # as good, within a few points: settled
        others += f"; {', '.join(map(format_card, close))} not clearly worse"
    if analysis.open_calls:
        others += f"; {', '.join(map(format_card, analysis.open_calls))} still open at the budget"
    if screened:
        others += f"; left out, far behind for the greedy table: {screened}"
    return f"{note}   [best E[score] by call: {others}]"


def advice_line(analysis: Analysis) -> str:
    advice = _bid_label(analysis.recommendation)
    heuristic = _bid_label(analysis.point_count.bid)
    if analysis.judged is None:
        highest = _bid_label(max(analysis.auction.bids, key=BIDS.index))
        return f"Advice: {advice.upper()} — {highest} was heard: nothing is left to bid."
    said = _bid_label(analysis.heuristic_action)
    if said != heuristic:  # its bid was heard already: the point count passes
        said = f"{said} (its {heuristic} can no longer be bid)"
    if analysis.heuristic_agrees:
        line = f"Advice: {advice.upper()} — the point count agrees"
        line += "." if said == heuristic else f": {said}."
    else:
        line = f"Advice: {advice.upper()} — the point count says {said}: they disagree."
    if analysis.safest is not None:
        line += f" Safest bid made more often than not: {_bid_label(analysis.safest)}."
    return line


@command()
@click.argument("hand", nargs=-1, required=True)
@players_option("Number of players (the hand has 24, 18 or 15 cards).")
@click.option(
    "--position",
    type=click.IntRange(min=1, max=5),
    default=None,
    help="1 = speaks first and leads the first trick, n = the dealer. "
    "Default: averaged over all positions.",
)
@click.option(
    "--samples",
    type=click.IntRange(min=2),
    default=None,
    help="Deals of the unseen cards to play out, every contract on the same ones. Default: with "
    f"the lookahead, rounds of {SURVEY_ROUND} (up to {SURVEY_SAMPLES}) of every contract, each "
    "round of the choices the ones before left open, then as many more of the advised one "
    "as its 95% intervals need to come within ± 3.5 points of P(make) and ± 6 × its "
    f"multiplier of E[score]; with other play, {DEFAULT_SAMPLES:,}. With --chien, "
    f"rounds of {ECART_SEARCH_SAMPLES} (up to {ECART_SEARCH_SAMPLES * ECART_ROUNDS}) of the "
    f"écarts still open with the lookahead, else {ECART_SAMPLES:,} of every écart; a number "
    "given plays that many of every écart, in one round.",
)
@click.option(
    "--bids",
    default=None,
    help='The bids made before you, from position 1, e.g. "pass prise" or "passe, garde sans" '
    '(pass, prise, garde, garde_sans, garde_contre), or "" when you speak first; they fix your '
    "position. The advice is then a legal action.",
)
@click.option(
    "--others",
    type=click.Choice(MODELS),
    default=DEFAULT_MODEL,
    show_default=True,
    help="How the other players bid: the point count calibrated for the player count, or the "
    "seed's barème.",
)
@click.option(
    "--chien",
    default=None,
    help="The chien you took (Prise or Garde): advise the écart instead of the bid.",
)
@click.option(
    "--contract",
    type=click.Choice(["prise", "garde"]),
    default="garde",
    show_default=True,
    help="With --chien: the contract taken.",
)
@click.option("--called", default=None, help="With --chien and 5 players: the card called.")
@taker_option(
    "Who plays the taker's side in the simulation: yours when you take, the other taker's in "
    "E[pass] (the deal you defend), in the écart advice too."
)
@defence_option("Who plays the defenders' cards, yours among them in E[pass]")
@seed_option()
@jobs_option(
    "Worker processes (0 = every core), forked from this one: they start in milliseconds. The "
    "numbers never change with it: the samples go in batches of their own random streams, "
    f"{CHUNK:,} a batch ({STAGED_CHUNK} when a side plays by lookahead, {SEARCH_CHUNK} with "
    "--samples).",
    default=0,
)
@json_option()
@timings_option()
@click.option(
    "--dump-deals",
    type=click.Path(path_type=Path),
    default=None,
    help="Write every sampled playout as a deal record (JSON Lines), to replay with tarot-replay "
    "(with --samples, 4 records a sample with 4 players, 16 with 5, and 2 more per call where the "
    "taker may show a poignée; by default, the survey's and then the focus's, 2 a sample, of the "
    "advised pair: about 1.2 kB each on disk and 15 kB in memory until written).",
)
@click.option(
    "--plot",
    type=click.Path(path_type=Path),
    default=None,
    help="Also draw the analysis into FILE.png (P(make) and E[score] per contract with their "
    "intervals, the pass line, the point count's bid), or FILE.html (the picture and the table).",
)
@quiet_option()
def main(
    hand: tuple[str, ...],
    players: str,
    position: int | None,
    samples: int,
    bids: str | None,
    others: str,
    chien: str | None,
    contract: str,
    called: str | None,
    taker_policy: str,
    defence_policy: str,
    seed: int,
    jobs: int,
    as_json: bool,
    timings: bool,
    dump_deals: Path | None,
    plot: Path | None,
    show_progress: bool | None,
) -> None:
    """Analyse HAND (your cards, e.g. "21 19 12 6 1 Excuse R♥ C♥ 10♥ …") and advise a bid.

    Cards: ranks R D C V 10…1 with ♠ ♥ ♦ ♣ (or S H D C); trumps 1–21 or I–XXI; the Excuse as
    E, Excuse, ★ or *. Separate them with spaces or commas; one quoted argument or many, or -
    to read the hand from stdin.
    """
    check_options(chien, int(players), as_json, timings, dump_deals)
    if plot is not None:
        check_plot(plot, chien, dump_deals)
    if hand == ("-",):
        hand = (read_source("-"),)
    result = run_advice(
        hand,
        players,
        position=position,
        samples=samples,
        bids=bids,
        others=others,
        chien=chien,
        contract=contract,
        called=called,
        taker_policy=taker_policy,
        defence_policy=defence_policy,
        seed=seed,
        jobs=jobs,
        dump_deals=dump_deals,
        bar=lambda total, unit: progress(
            total, "simulating", show=show_progress, unit=unit, players=int(players)
        ),
    )
    if isinstance(result, EcartAnalysis):
        click.echo(
            json_document(result.to_dict(), timings, result.seconds)
            if as_json
            else render_ecart(result)
        )
        return
    text = render(result)
    click.echo(json_document(result.to_dict(), timings, result.seconds) if as_json else text)
    if plot is not None:
        write_plot(plot, result, text)
    if dump_deals is not None:
        write_records(dump_deals, result.records or [], show_progress)


def run_advice(
    hand: tuple[str, ...],
    players: str,
    *,
    position: int | None,
    samples: int | None,
    bids: str | None,
    others: str,
    chien: str | None,
    contract: str,
    called: str | None,
    taker_policy: str,
    defence_policy: str,
    seed: int,
    jobs: int,
    dump_deals: Path | None = None,
    bar: Bar = no_bar,
) -> Analysis | EcartAnalysis:
    """What ``tarot-advise`` computes from its options (as the command's parser gives them):
    the bid's analysis, or the écart's with ``chien``; its ``to_dict()`` is the ``--json``
    document. Bad input raises :class:`.errors.InputError` with the command's sentence."""
    n_players = int(players)
    sides = Sides(taker_policy, defence_policy)
    check_sizes(n_players, samples, dump_deals, sides, chien is not None)
    try:
        cards = parse_hand(" ".join(hand), n_players)
        if position is not None and position > n_players:
            raise HandError(f"the position goes from 1 to {n_players}, not {position}")
        if chien is not None:
            # The staged écart advice plays as many rounds as its close calls need: no total.
            raced = samples is None and sides.searches
            with bar(0 if raced else ecart_samples(samples, sides), "samples") as done:
                options = dict(
                    position=position, samples=samples, seed=seed, jobs=jobs, sides=sides
                )
                result = advise_ecart(
                    cards, chien, n_players, contract, called, on_done=done, **options
                )
        else:
            with bar(0, "batches of samples") as done:
                result = analyse_hand(
                    cards,
                    n_players,
                    position=position,
                    samples=samples,
                    seed=seed,
                    jobs=jobs,
                    keep_records=dump_deals is not None,
                    on_done=done,
                    bids=bids,
                    others=others,
                    taker_policy=taker_policy,
                    defence_policy=defence_policy,
                )
    except (CardError, HandError) as error:
        fail(str(error), INPUT_ERROR)
    return result


run = console_script(main)
"""The console script: :func:`main`, then the process ends at once (:func:`console_script`)."""

if __name__ == "__main__":  # pragma: no cover
    run()
