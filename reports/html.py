"""A small writer of self-contained HTML reports: headings, text, tables and embedded charts.

Charts are embedded as base64 PNG so that one ``report.html`` file carries everything; the same
PNG bytes can also be written beside it (:func:`png_bytes`).
"""

from __future__ import annotations

import base64
import html
import io
import math
from pathlib import Path

import pandas as pd
from matplotlib.figure import Figure

from tarot_advisor.reports.files import write_text

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem;
       color: #222; line-height: 1.45; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.2rem; }
figure { margin: 1rem 0; } figure img { max-width: 100%; }
figcaption, .note { color: #555; font-size: 0.95rem; }
table { border-collapse: collapse; margin: 0.8rem 0; font-size: 0.9rem; }
th, td { padding: 0.2rem 0.6rem; border-bottom: 1px solid #ddd; text-align: right; }
th:first-child, td:first-child { text-align: left; }
"""


def png_bytes(figure: Figure, dpi: int = 110) -> bytes:
    """The figure rendered as PNG."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight")
    return buffer.getvalue()


class HtmlReport:
    """Accumulates the parts of a report, then writes one self-contained HTML file."""

    def __init__(self, title: str) -> None:
        self.title = title
        self._parts: list[str] = [f"<h1>{html.escape(title)}</h1>"]

    def heading(self, text: str) -> None:
        self._parts.append(f"<h2>{html.escape(text)}</h2>")

    def paragraph(self, text: str, css_class: str | None = None) -> None:
        attribute = f' class="{html.escape(css_class)}"' if css_class else ""
        self._parts.append(f"<p{attribute}>{html.escape(text)}</p>")

    def figure(self, png: bytes, caption: str, alt: str | None = None) -> None:
        """A chart (PNG bytes) with the sentence that says what it shows."""
        data = base64.b64encode(png).decode("ascii")
        self._parts.append(
            f'<figure><img src="data:image/png;base64,{data}" alt="{html.escape(alt or caption)}">'
            f"<figcaption>{html.escape(caption)}</figcaption></figure>"
        )

    def preformatted(self, text: str) -> None:
        """Text kept as it is laid out (a command's table)."""
        self._parts.append(f"<pre>{html.escape(text)}</pre>")

    def table(self, frame: pd.DataFrame, caption: str | None = None) -> None:
        """A DataFrame as an HTML table (its index is left out)."""
        if caption:
            self._parts.append(f'<p class="note">{html.escape(caption)}</p>')
        self._parts.append(frame.to_html(index=False, border=0, na_rep="–", escape=True))

    def render(self) -> str:
        body = "\n".join(self._parts)
        return (
            '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f"<title>{html.escape(self.title)}</title><style>{_STYLE}</style></head>"
            f"<body>\n{body}\n</body></html>\n"
        )

    def write(self, path: Path) -> None:
        write_text(path, self.render())


def json_safe(value: object) -> object:
    """A summary ready for ``json.dumps``: NaN and infinity become null (JSON has neither)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, dict):
        return {k: json_safe(v) for k, v in value.items()}
    if isinstance(value, list):
        return [json_safe(v) for v in value]
    return value
