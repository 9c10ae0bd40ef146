"""What ``tarot-advise`` writes besides its table, and the checks made before the run: the
samples' memory, the deal records (``--dump-deals``) and the picture (``--plot``)."""

from __future__ import annotations

from pathlib import Path

import click

from tarot_advisor.analyzer.advice.advisor import most_samples
from tarot_advisor.analyzer.advice.analysis import Analysis
from tarot_advisor.analyzer.advice.ecart_advice import ecart_samples
from tarot_advisor.analyzer.advice.hand_samples import Sides
from tarot_advisor.analyzer.rulebook.record import dumps_records
from tarot_advisor.cli.errors import fail
from tarot_advisor.cli.limits import (
    check_disk,
    check_memory,
    check_output_file,
)
from tarot_advisor.cli.options import check_timings, given
from tarot_advisor.cli.progress import progress
from tarot_advisor.reports.files import write_bytes, write_text
from tarot_advisor.reports.formatting import counted

MEMORY_PER_SAMPLE = {3: 500, 4: 500, 5: 1000}
"""Bytes of memory a sample takes at the run's peak (measured, the growth of the peak from
100,000 to 1,100,000 greedy samples: 420 with 4 players; about 960 with 5): its outcomes, and
the chunks' arrays on their way back from the workers."""
DUMP_MEMORY_PER_SAMPLE = {3: 90_000, 4: 90_000, 5: 330_000}
"""Bytes of memory a sample's deal records take until written, at most (measured: 84 kB with
4 players, six records; 325 kB with 5 players, 24 records: every deal played again with the
taker's poignée shown)."""
DUMP_DISK_PER_SAMPLE = {3: 7_500, 4: 7_500, 5: 30_000}
"""Bytes of disk a sample's deal records take (about 1.2 kB a record)."""


def check_sizes(
    players: int,
    samples: int | None,
    dump_deals: Path | None,
    sides: Sides,
    ecart: bool = False,
) -> None:
    """Refuses, before any work, a run that cannot fit in memory or on disk (``samples``
    ``None``: the most the default plays)."""
    if samples is None:
        samples = ecart_samples(None, sides) if ecart else most_samples(sides)
    per_sample = MEMORY_PER_SAMPLE[players]
    if dump_deals is not None:
        check_output_file("--dump-deals", dump_deals)
        per_sample += DUMP_MEMORY_PER_SAMPLE[players]
        check_disk("--dump-deals", dump_deals, samples * DUMP_DISK_PER_SAMPLE[players])
    what = "sample with its deal records" if dump_deals is not None else "sample"
    # No time limit: a week of samples, even of the lookahead's (6·10⁷), needs more memory than
    # the machine has (30 GB), which check_memory refuses first.
    check_memory("--samples", samples, per_sample, what)


def check_options(
    chien: str | None, players: int, as_json: bool, timings: bool, dump_deals: Path | None
) -> None:
    """Refuses, in one sentence, an option that cannot act with the others given."""
    check_timings(as_json, timings)
    if chien is None:
        for option, name, what in (
            ("--contract", "contract", "the contract taken"),
            ("--called", "called", "the card called"),
        ):
            if given(name):
                fail(f"{option} describes {what}, for the écart: give it with --chien")
        return
    if dump_deals is not None:
        fail("--dump-deals writes the bid's playouts, not the écart's: leave out --chien or it")
    for option, name in (("--bids", "bids"), ("--others", "others")):
        if given(name):
            fail(
                f"{option} describes the auction before your bid; with --chien (you took) give "
                "your --position instead"
            )
    if given("called") and players != 5:
        fail(f"--called: a card is called only with 5 players, not {players}")


PLOT_KINDS = (".png", ".html")


def check_plot(path: Path, chien: str | None, dump_deals: Path | None = None) -> None:
    """Refuses, before any work, a ``--plot`` file that is neither PNG nor HTML, cannot be
    written, or is the ``--dump-deals`` file too (one would overwrite the other)."""
    if chien is not None:
        fail("--plot draws the bid's analysis, not the écart's: leave out --chien or --plot")
    if path.suffix.lower() not in PLOT_KINDS:
        fail(f"--plot {path}: give a file ending in .png or .html")
    if dump_deals is not None and path.resolve() == dump_deals.resolve():
        fail(f"--plot and --dump-deals both name {path}: give each a file of its own")
    check_output_file("--plot", path)


def write_plot(path: Path, analysis: Analysis, text: str) -> None:
    """Draw ``analysis`` into ``path`` (PNG, or HTML with ``text``), whole or not at all."""
    # matplotlib costs ~0.5 s to import: only a run that plots pays it.
    from tarot_advisor.reports.advice_chart import advice_figure, advice_html
    from tarot_advisor.reports.html import png_bytes

    try:
        if path.suffix.lower() == ".png":
            write_bytes(path, png_bytes(advice_figure(analysis)))
        else:
            write_text(path, advice_html(analysis, text))
    except OSError as error:
        fail(f"could not write the plot to {path}: {error.strerror}", 1)
    click.echo(f"Plot written to {path}", err=True)


def write_records(path: Path, records: list[dict], show_progress: bool | None) -> None:
    """The deal records as JSON Lines, whole or not at all, with a bar counting records (a
    large dump takes longer to write than to compute)."""
    # The analysis is on screen already: a failed write loses nothing computed.
    with progress(len(records), "writing", show=show_progress, unit="deal records") as bar:

        def lines():
            for number, record in enumerate(records, 1):
                yield dumps_records([record])
                if number % 1000 == 0 or number == len(records):
                    bar(number)

        try:
            write_text(path, lines())
        except OSError as error:
            fail(f"could not write the deal records to {path}: {error.strerror}", 1)
    click.echo(f"{counted(len(records), 'deal record')} written to {path}", err=True)
