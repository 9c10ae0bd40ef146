"""How every command ends on bad input: one clear sentence on stderr and a non-zero exit."""

from __future__ import annotations

from typing import NoReturn

import click

INPUT_ERROR = 2
"""Exit code for input that cannot be read or understood."""


def fail(message: str, code: int = INPUT_ERROR) -> NoReturn:
    """Prints ``Error: <message>`` on stderr and exits with ``code`` (no traceback)."""
    click.echo(f"Error: {message}", err=True)
    raise SystemExit(code)
