"""How every command ends on bad input: one clear sentence on stderr and a non-zero exit."""

from __future__ import annotations

import contextlib
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, NoReturn

import click

from tarot_advisor.analyzer.parallel import stop_workers

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


STOPPED_WRITING = 1
"""Exit code when the output cannot be written (a full disk, a read-only folder)."""

HARD_STOP_SECONDS = 5.0
"""After Ctrl-C, the seconds the run has to unwind (workers stopped, finished work kept) before
the process ends anyway: an interrupt that lands in a finaliser is otherwise only printed as
"Exception ignored" and the run goes on."""


class _Stop(Exception):
    """Ctrl-C or a closed pipe, carried past click's own handlers (which would print a blank
    line, or exit 1) to :meth:`OneSentence.main`."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


@contextlib.contextmanager
def _carried() -> Iterator[None]:
    try:
        yield
    except (KeyboardInterrupt, BrokenPipeError) as error:
        raise _Stop(error) from None


def _say(message: str) -> None:
    """``message`` on stderr, unless stderr cannot be written either."""
    with contextlib.suppress(OSError, ValueError):
        click.echo(message, err=True)


def _silence_stdout() -> None:
    """Points the process's stdout at /dev/null, so that the interpreter's last flush of what is
    still buffered fails no more ("Exception ignored … BrokenPipeError")."""
    with contextlib.suppress(OSError, ValueError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def _hard_stop() -> NoReturn:
    _say("Error: interrupted")
    os._exit(INTERRUPTED)


def _on_interrupt(_signal: int, _frame: object) -> None:
    """Ctrl-C: unwind as usual (``KeyboardInterrupt``), but a second Ctrl-C, or a run still
    going :data:`HARD_STOP_SECONDS` later, ends the process at once."""
    if getattr(_on_interrupt, "armed", False):
        _hard_stop()
    _on_interrupt.armed = True  # type: ignore[attr-defined]
    timer = threading.Timer(HARD_STOP_SECONDS, _hard_stop)
    timer.daemon = True
    timer.start()
    raise KeyboardInterrupt


@contextlib.contextmanager
def _watching_interrupts() -> Iterator[None]:
    """:func:`_on_interrupt` answers Ctrl-C while the command runs. Left alone when Ctrl-C is
    ignored on purpose (nohup, a background job) or off the main thread."""
    if (
        threading.current_thread() is not threading.main_thread()
        or signal.getsignal(signal.SIGINT) is not signal.default_int_handler
    ):
        yield
        return
    signal.signal(signal.SIGINT, _on_interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def _write_error(error: OSError) -> str:
    where = f"{error.filename}" if error.filename else "the output on stdout"
    return f"cannot write {where}: {error.strerror or error}"


class OneSentence:
    """Mixin for click commands and groups: a usage error is one sentence on stderr and exit 2
    (no usage dump); Ctrl-C is "interrupted" and exit 130; an output that cannot be written
    (a full disk) is one sentence and exit 1; a reader that leaves (``| head``) ends the run
    quietly with exit 0, as a pipe's writer has nothing more to say. Never a traceback."""

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with _carried():
            return super().make_context(*args, **kwargs)  # type: ignore[misc]

    def invoke(self, ctx: click.Context) -> Any:
        with _carried():
            return super().invoke(ctx)  # type: ignore[misc]

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        try:
            with _watching_interrupts():
                result = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]
                sys.stdout.flush()
        except _NO_ARGS_IS_HELP as error:
            _say(error.format_message())
            sys.exit(INPUT_ERROR)
        except click.UsageError as error:
            _exit(error.format_message(), INPUT_ERROR)
        except click.Abort:
            _exit("interrupted", INTERRUPTED)
        except InputError as error:
            _exit(error.message, error.code)
        except (_Stop, BrokenPipeError) as stop:
            cause = stop.cause if isinstance(stop, _Stop) else stop
            _silence_stdout()
            if isinstance(cause, KeyboardInterrupt):
                _exit("interrupted", INTERRUPTED)
            # `tarot-replay big.jsonl | head`: the reader left; that is not an error.
            sys.exit(0)
        except OSError as error:
            _silence_stdout()
            _exit(_write_error(error), STOPPED_WRITING)
        if not standalone_mode:
            return result
        sys.exit(result if isinstance(result, int) else 0)


def console_script(command: click.Command) -> Callable[[], NoReturn]:
    """``command`` as its console script runs it: as click runs it (:class:`OneSentence`), then
    the process ends at once, its forked workers stopped and the interpreter's teardown skipped.

    That teardown (numba's compiler unloaded, module by module) is 0.13–0.20 s, 5% of a default
    advice; by then the command has written and closed all it writes and flushed stdout.
    The tests run ``command`` itself, in their own process."""

    def run() -> NoReturn:
        try:
            command()
            code: object = 0
        except SystemExit as done:
            code = done.code
        if not isinstance(code, int):  # as the interpreter ends on sys.exit(message)
            if code is not None:
                _say(str(code))
            code = 0 if code is None else 1
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        stop_workers()
        os._exit(code)

    run.__wrapped__ = command  # type: ignore[attr-defined]  # what a test runs in its process
    return run


def _exit(message: str, code: int) -> NoReturn:
    _say(f"Error: {message}")
    sys.exit(code)


class Command(OneSentence, click.Command):
    """A command answering bad usage in one sentence."""


class Group(OneSentence, click.Group):
    """A group answering bad usage in one sentence."""
