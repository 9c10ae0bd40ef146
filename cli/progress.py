"""A progress bar on stderr, for commands that take more than a couple of seconds.

It stays silent with ``--quiet``, and by default when stderr is not a terminal (a pipe, a log
file, a test), so that redirected output never fills with carriage returns; ``--progress``
shows it anyway.
"""

from __future__ import annotations

import sys
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager, nullcontext
from types import TracebackType
from typing import TextIO

from tarot_advisor.analyzer.playout.words import kept_for

_WIDTH = 28
_MIN_INTERVAL = 0.1
"""Seconds between two redraws: enough for the eye, negligible in cost."""
_TICK = 0.5
"""Seconds between two redraws of the clock while nothing is finished."""


class Progress:
    """A bar counting ``total`` items. Call it (or :meth:`update`) with the items done so far;
    ``note``, a line written above it when it first shows (none when empty).

    Use it as a context manager: the line is then redrawn every :data:`_TICK` seconds, so that
    its clock moves while a long unit of work runs, and finished even when the work fails.
    """

    def __init__(
        self,
        total: int,
        label: str,
        *,
        enabled: bool = True,
        stream: TextIO | None = None,
        unit: str = "",
        note: str = "",
    ) -> None:
        self.total = total
        self.label = label
        self.unit = f" {unit}" if unit else ""
        self.note = note
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self._start = time.perf_counter()
        self._last_draw = -_MIN_INTERVAL
        self._done = 0
        self._drawn = False
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._ticker: threading.Thread | None = None

    def __call__(self, done: int, total: int | None = None) -> None:
        self.update(done, total)

    def update(self, done: int, total: int | None = None) -> None:
        """``done`` items so far; ``total``, when given, is how many there now are in all (a
        run that learns its size as it goes)."""
        if total is not None:
            self.total = total
        self._done = done
        now = time.perf_counter()
        if done < self.total and now - self._last_draw < _MIN_INTERVAL:
            return
        self._draw()

    def _draw(self) -> None:
        if not self.enabled:
            return
        with self._lock:
            now = time.perf_counter()
            self._last_draw = now
            done = self._done
            share = done / self.total if self.total else 0.0  # a size not known yet
            filled = round(share * _WIDTH)
            bar = "#" * filled + "-" * (_WIDTH - filled)
            elapsed = now - self._start
            self.stream.write(
                f"\r{self.label} [{bar}] {100 * share:3.0f}%  {done:,}/{self.total:,}{self.unit}"
                f"  {elapsed:.1f} s"
            )
            self.stream.flush()
            self._drawn = True

    def _tick(self) -> None:
        while not self._stop.wait(_TICK):
            self._draw()

    def __enter__(self) -> Progress:
        if self.enabled:
            if self.note:
                self.stream.write(self.note + "\n")
            self._draw()
            self._ticker = threading.Thread(target=self._tick, daemon=True)
            self._ticker.start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self._stop.set()
        if self._ticker is not None:
            self._ticker.join()
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()


def progress(
    total: int,
    label: str,
    *,
    show: bool | None = None,
    unit: str = "",
    players: int | tuple[int, ...] | None = None,
) -> Progress:
    """A :class:`Progress` on stderr counting ``total`` ``unit``: shown when ``show`` is True,
    hidden when False, and when None only if stderr is a terminal. Given the ``players`` of the
    deals the run plays (one number or several), it says first, above the bar, when the run
    compiles the engine (:func:`compile_note`)."""
    enabled = _shown(show)
    counts = () if players is None else (players,) if isinstance(players, int) else players
    return Progress(total, label, enabled=enabled, unit=unit, note=compile_note(*counts))


def compile_note(*players: int) -> str:
    """The line a command shows before its first run that plays deals of these numbers of
    ``players`` with this install's engine, which compiles it then (:func:`words.kept_for`): up
    to a minute of silence otherwise. Empty once runs have played such deals."""
    new = [str(count) for count in sorted(set(players)) if not kept_for(count)]
    if not new:
        return ""
    counts = " and ".join([", ".join(new[:-1]), new[-1]]) if len(new) > 1 else new[0]
    each = " each" if len(new) > 1 else ""
    return f"The first run for {counts} players compiles the engine: up to a minute{each}, once."


def say_compiling(players: int, *, show: bool | None = None) -> None:
    """:func:`compile_note` on stderr, for a command with no bar, where a bar would show."""
    note = compile_note(players)
    if note and _shown(show):
        sys.stderr.write(note + "\n")
        sys.stderr.flush()


def _shown(show: bool | None) -> bool:
    return sys.stderr.isatty() if show is None else show


Bar = Callable[[int, str], AbstractContextManager[Callable[..., None]]]
"""Makes the progress of a run: ``bar(total, unit)`` counts ``total`` items of ``unit`` (the
command's bar on stderr, or a web job's); what it yields takes the items done so far, and the
new total when the run has learnt it."""


def no_bar(_total: int, _unit: str) -> AbstractContextManager[Callable[..., None]]:
    """A :data:`Bar` that shows nothing."""
    return nullcontext(lambda _done, _total=None: None)
