"""Checks made before any work starts: room in memory and on disk, and paths that can be written.

Each returns quietly or ends the command with one sentence and exit 2 (:func:`.errors.fail`),
so that a long run never fails at its end for a reason known at its start.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from tarot_advisor.cli.errors import fail
from tarot_advisor.reports.files import OutputError, folder_problem, output_target


def available_memory() -> int:
    """Bytes of memory this process may still use: ``MemAvailable`` on Linux, else the
    physical memory."""
    try:
        with open("/proc/meminfo", encoding="ascii") as meminfo:
            for line in meminfo:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 1 << 40  # unknown: do not refuse on a guess


def size_text(n_bytes: float) -> str:
    """``3.2 GB``, ``250 TB``: bytes in the unit a reader expects."""
    for unit in ("bytes", "kB", "MB", "GB", "TB", "PB"):
        if n_bytes < 1000 or unit == "PB":
            return f"{n_bytes:,.0f} {unit}" if unit == "bytes" else f"{n_bytes:,.1f} {unit}"
        n_bytes /= 1000
    raise AssertionError("unreachable")


def check_memory(option: str, count: int, bytes_each: int, what: str = "sample") -> None:
    """Refuses ``option count`` when ``count × bytes_each`` exceeds the memory available."""
    needed = count * bytes_each
    free = available_memory()
    if needed > free:
        fail(
            f"{option} {count:,} needs about {size_text(needed)} of memory ({size_text(bytes_each)}"
            f" a {what}), more than the {size_text(free)} available: use at most "
            f"{free // bytes_each:,}"
        )


MAX_SECONDS = 7 * 24 * 3600
"""The longest run accepted: a week. Beyond it a count is a typing slip, not a study."""

SECONDS_EACH = {
    "sample": 100e-6,
    "searched sample": 10e-3,
    "deal": 1e-6,
    "duel deal": 100e-6,
    "checked deal": 500e-6,
    "hand-sample": 100e-6,
    "searched hand-sample": 10e-3,
    "écart hand-sample": 300e-6,
    "playout": 30e-6,
    "searched deal": 1e-3,
    "timed advice": 1.0,
}
"""CPU seconds one unit of work takes at least, on one core (measured on a loaded 2-core
machine, rounded down by 2 to 4 times): an estimate that never refuses a run that fits. A
searched hand-sample is a study's hand-sample played by the lookahead at every seat: about 11
ms of CPU a deal per playout, two or three playouts a hand-sample (22 ms measured with 4
players, 27 with 3, 32 with 5). A searched deal is a 4-player deal whose defence the
lookahead plays (about 3 ms measured); a timed advice, one ``tarot-advise`` run, which is
waited for whole."""


def duration_text(seconds: float) -> str:
    """``40 minutes``, ``3.2 days``, ``31,700 years``: a duration in the unit a reader expects."""
    for unit, size in (("years", 365.25 * 86400), ("days", 86400), ("hours", 3600)):
        if seconds >= size:
            return f"{seconds / size:,.1f} {unit}"
    return f"{seconds / 60:,.0f} minutes" if seconds >= 60 else f"{seconds:.0f} seconds"


def check_time(option: str, count: int, what: str, jobs: int = 1, units_each: int = 1) -> None:
    """Refuses ``option count`` when ``count × units_each`` units of ``what``
    (:data:`SECONDS_EACH`) would take more than :data:`MAX_SECONDS` on ``jobs`` cores."""
    each = SECONDS_EACH[what]
    cores = max(1, jobs)
    units = count * units_each
    seconds = units * each / cores
    if seconds > MAX_SECONDS:
        most = int(MAX_SECONDS * cores / (each * units_each))
        fail(
            f"{option} {count:,} would take at least {duration_text(seconds)} on {cores} "
            f"core{'s' * (cores > 1)} ({units:,} {what}s at {each * 1e6:,.0f} µs of CPU each), "
            f"more than a week: use at most {most:,}"
        )


def check_disk(option: str, path: Path, needed: int) -> None:
    """Refuses to write about ``needed`` bytes to ``path`` when its disk has less room."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return
    if needed > free:
        fail(f"{option} {path} needs about {size_text(needed)} of disk, {size_text(free)} free")


def check_output_file(option: str, path: Path) -> None:
    """A file that can be created or replaced (:func:`.files.output_target`: not a folder, a
    device, a fifo or a socket; a link is followed), in a folder where a file can be made."""
    try:
        target = output_target(path)
    except OutputError as error:
        fail(f"{option} {path}{error.strerror}")
    writable = os.access(target.parent, os.W_OK)
    if not writable or (target.exists() and not os.access(target, os.W_OK)):
        fail(f"{option} {path}: permission denied (cannot write there)")
    _probe(option, path, target.parent)


def _probe(option: str, path: Path, folder: Path) -> None:
    """Makes and removes a file in ``folder``: a read-only or full file system is named now,
    not after the run (``os.access`` says yes to root on a read-only mount's folders)."""
    probe = folder / f".tarot-write-test.{os.getpid()}"
    try:
        probe.touch()
        probe.unlink()
    except OSError as error:
        fail(f"{option} {path}: cannot write there ({error.strerror or error})")


def check_output_folder(option: str, path: Path) -> None:
    """A folder that exists and is writable, or can be created, and holds no device, fifo or
    socket where a report file would go."""
    if path.exists() and not path.is_dir():
        fail(f"{option} {path} is a file, not a folder")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        fail(f"{option} {path}: {existing} is a file, not a folder")
    problem = folder_problem(path)
    if problem is not None:
        fail(f"{option} {path}{problem}")
    if not os.access(existing, os.W_OK):
        fail(f"{option} {path}: permission denied (cannot write in {existing})")


def prepare_output_folder(option: str, path: Path) -> None:
    """Checks ``path`` as :func:`check_output_folder`, then creates it, so that a folder that
    cannot be made (read-only or virtual file system, a full disk) is named before any work."""
    check_output_folder(option, path)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        fail(f"{option} {path}: cannot write there ({error.strerror or error})")
    _probe(option, path, path)
