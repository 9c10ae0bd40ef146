"""How an advice shows itself in a notebook or a Python shell: a title, a small table, the advice.

:class:`Summary` is the one shape every advice (:class:`~.analysis.Analysis`,
:class:`~.ecart_advice.EcartAnalysis`, :class:`~.cardplay.CardAdvice`) fills in; it renders as
aligned text (``repr``) and as an HTML table (``_repr_html_``, which Jupyter shows). The
proportions read as the commands print them, with their 95% Wilson interval.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

from ..stats import Z95, Estimate, wilson_interval

MARK = "◀"


def proportion(p: float, n: int, width: int = 0) -> str:
    """``88.8% [87.3–90.1]``: a proportion over ``n`` samples with its 95% Wilson interval,
    which stays honest at 0% and 100% (``0.0% [0–0.2]``, never "0.0% ± 0.0")."""
    return _share(p, wilson_interval(p, n), width)


def estimated_share(estimate: Estimate, width: int = 0) -> str:
    """:func:`proportion` of an estimated proportion: its Wilson interval at its samples, or at
    the plain samples as precise when it was steadied (:attr:`Estimate.effective`)."""
    return _share(estimate.mean, estimate.wilson(), width)


def _share(p: float, interval: tuple[float, float], width: int) -> str:
    low, high = interval
    return f"{100 * p:5.1f}% [{_bound(low)}–{_bound(high)}]".rjust(width)


def _bound(value: float) -> str:
    # 0 and 100 exactly as whole numbers: "[0–0.2]" reads at a glance.
    return f"{100 * value:.0f}" if value in (0.0, 1.0) else f"{100 * value:.1f}"


def signed(estimate: Estimate) -> str:
    """``+191.4 ± 5.3``: a mean with the half-width of its 95% interval."""
    return f"{estimate.mean:+.1f} ± {Z95 * estimate.se:.1f}"


@dataclass(frozen=True)
class Summary:
    """A title, a table whose first column names the rows, the row the advice marks, and notes
    (the advice first)."""

    title: str
    header: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    marked: int | None
    notes: tuple[str, ...]
    align: str = ""
    """Per column, ``l`` or ``r``; by default the first to the left, the figures to the right."""

    def _aligns(self) -> str:
        return self.align or "l" + "r" * (len(self.header) - 1)

    def text(self) -> str:
        """Aligned columns: the first to the left, the figures to the right, ◀ on the advice."""
        table = [self.header, *self.rows]
        widths = [max(len(row[i]) for row in table) for i in range(len(self.header))]
        lines = [self.title, ""]
        for index, row in enumerate(table):
            cells = [
                cell.ljust(width) if how == "l" else cell.rjust(width)
                for cell, width, how in zip(row, widths, self._aligns(), strict=True)
            ]
            mark = f" {MARK}" if index - 1 == self.marked else ""
            lines.append("  ".join(cells).rstrip() + mark)
        return "\n".join([*lines, "", *self.notes])

    def html(self) -> str:
        """One ``<table>``: the title as its caption, the advice's row in bold, the notes
        below."""
        escape = html.escape
        head = "".join(f"<th>{escape(cell)}</th>" for cell in self.header)
        body = []
        for index, row in enumerate(self.rows):
            style = ' style="font-weight:bold"' if index == self.marked else ""
            cells = [
                f'<td style="text-align:{"left" if how == "l" else "right"}">{escape(cell)}</td>'
                for cell, how in zip(row, self._aligns(), strict=True)
            ]
            mark = f" {MARK}" if index == self.marked else ""
            body.append(f"<tr{style}>{''.join(cells)}<td>{mark}</td></tr>")
        notes = "".join(f"<p>{escape(note)}</p>" for note in self.notes)
        return (
            f"<table><caption>{escape(self.title)}</caption>"
            f"<thead><tr>{head}<th></th></tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>{notes}"
        )
