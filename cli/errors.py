"""How every command ends on bad input: one clear sentence on stderr and a non-zero exit."""

from __future__ import annotations

import sys
from typing import Any, NoReturn

import click

INPUT_ERROR = 2
"""Exit code for input that cannot be read or understood."""
INTERRUPTED = 130
"""Exit code after Ctrl-C (128 + SIGINT), as shells report it."""

# click ≥ 8.2 signals a bare group as a usage error whose message is the help text.
_NO_ARGS_IS_HELP = getattr(click.exceptions, "NoArgsIsHelpError", ())


class InputError(SystemExit):
    """Input that cannot be used, with the one sentence that says why. A :class:`SystemExit`
    so that a command ends with ``code``; the web page answers it with HTTP 400 instead."""

    def __init__(self, message: str, code: int = INPUT_ERROR) -> None:
        super().__init__(code)
        self.message = message


def fail(message: str, code: int = INPUT_ERROR) -> NoReturn:
    """Ends the command: ``Error: <message>`` on stderr and exit ``code`` (no traceback), once
    the command's :class:`OneSentence` catches the :class:`InputError` raised here."""
    raise InputError(message, code)


class OneSentence:
    """Mixin for click commands and groups: a usage error is one sentence on stderr and exit 2
    (no usage dump), Ctrl-C is "interrupted" and exit 130 (no traceback)."""

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        try:
            result = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]
        except _NO_ARGS_IS_HELP as error:
            click.echo(error.format_message(), err=True)
            sys.exit(INPUT_ERROR)
        except click.UsageError as error:
            _exit(error.format_message(), INPUT_ERROR)
        except click.Abort:
            _exit("interrupted", INTERRUPTED)
        except InputError as error:
            _exit(error.message, error.code)
        except BrokenPipeError:
            # `tarot-replay big.jsonl | head`: the reader left; that is not an error.
            sys.stderr.close()
            sys.exit(0)
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


def _exit(message: str, code: int) -> NoReturn:
    click.echo(f"Error: {message}", err=True)
    sys.exit(code)


class Command(OneSentence, click.Command):
    """A command answering bad usage in one sentence."""


class Group(OneSentence, click.Group):
    """A group answering bad usage in one sentence."""
