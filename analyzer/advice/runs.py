"""What the sampling tasks of one hand's analysis share: its run of chunks, and its progress."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ..parallel import map_chunks
from .plan import Stages


@dataclass(frozen=True)
class Run:
    """What every sampling task of one analysis shares: the hand's arguments and the chunks."""

    common: dict
    kwargs: dict
    samples: int
    first_chunk: int = 0
    """The survey's chunks are numbered from 0, the focus's from
    :data:`~.advisor.FOCUS_FIRST_CHUNK`."""

    def map(self, task: Callable, **arguments) -> list:
        return map_chunks(
            task,
            self.samples,
            **self.kwargs,
            first_chunk=self.first_chunk,
            **arguments,
            **self.common,
        )


class Progress:
    """The analysis's progress in playout batches (chunks), for ``on_done(done, total)``: the
    survey's first round's chunks, then its second round's, the focus's and the chelem's as
    each is decided."""

    def __init__(self, on_done: Callable[[int, int], None] | None, stages: Stages) -> None:
        self.on_done = on_done
        self.done = 0
        self.total = -(-stages.survey // stages.chunk)
        if not stages.staged:
            self.total *= 2  # the chelem, on the same chunks

    def step(self, _samples: int) -> None:
        self.done += 1
        if self.on_done is not None:
            self.on_done(self.done, self.total)

    def grow(self, chunks: int) -> None:
        """``chunks`` more are next: the focus's, or the chelem's on as many."""
        self.total += chunks

    def finish(self) -> None:
        """The chunks a settled chelem spared."""
        self.done = self.total
        if self.on_done is not None:
            self.on_done(self.done, self.total)
