"""A progress bar on stderr, for commands that take more than a couple of seconds.

It stays silent with ``--quiet`` or when stderr is not a terminal (a pipe, a log file, a test),
so that redirected output never fills with carriage returns.
"""

from __future__ import annotations

import sys
import time
from types import TracebackType
from typing import TextIO

_WIDTH = 28
_MIN_INTERVAL = 0.1
"""Seconds between two redraws: enough for the eye, negligible in cost."""


class Progress:
    """A bar counting ``total`` items. Call it (or :meth:`update`) with the items done so far.

    Use it as a context manager so that the line is finished even when the work fails.
    """

    def __init__(
        self, total: int, label: str, *, enabled: bool = True, stream: TextIO | None = None
    ) -> None:
        self.total = total
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self._start = time.perf_counter()
        self._last_draw = -_MIN_INTERVAL
        self._drawn = False

    def __call__(self, done: int) -> None:
        self.update(done)

    def update(self, done: int) -> None:
        if not self.enabled:
            return
        now = time.perf_counter()
        if done < self.total and now - self._last_draw < _MIN_INTERVAL:
            return
        self._last_draw = now
        share = done / self.total if self.total else 1.0
        filled = round(share * _WIDTH)
        bar = "#" * filled + "-" * (_WIDTH - filled)
        elapsed = now - self._start
        self.stream.write(
            f"\r{self.label} [{bar}] {100 * share:3.0f}%  {done:,}/{self.total:,}  {elapsed:.1f} s"
        )
        self.stream.flush()
        self._drawn = True

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()


def progress(total: int, label: str, *, quiet: bool = False) -> Progress:
    """A :class:`Progress` on stderr, enabled unless ``quiet`` or stderr is not a terminal."""
    return Progress(total, label, enabled=not quiet and sys.stderr.isatty())
