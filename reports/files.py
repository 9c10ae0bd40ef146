"""Every file the package writes goes through here: written whole or not at all, and never over
what is not a file.

A path is written by writing a temporary file beside its target and renaming it onto the
target, so that a failed or interrupted write leaves the old file (or none), never half a file.
The target is the path with its symbolic links followed: the link stays, its target is replaced.
An existing path that is not a regular file (a folder, a device such as ``/dev/full``, a fifo, a
socket) is refused, as is a path in a virtual file system (``/proc``, ``/sys``), since renaming
over it would destroy something that is not the program's.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

VIRTUAL = (Path("/proc"), Path("/sys"))
"""File systems of the kernel's own: nothing a report writes belongs there."""

REPORT_SUFFIXES = (".html", ".png", ".csv", ".json", ".jsonl")
"""What a report folder's files end with: an entry of the folder with one of these names that
is not a regular file would be replaced by one."""


class OutputError(OSError):
    """A path that must not be written: ``strerror`` is the reason, a phrase that follows the
    path (``" is a character device, not a file"``, ``": the folder … does not exist"``)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.strerror = reason


_KINDS = (
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISFIFO, "a fifo"),
    (stat.S_ISSOCK, "a socket"),
)


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _in_virtual(path: Path) -> Path | None:
    return next((root for root in VIRTUAL if path == root or root in path.parents), None)


def output_target(path: Path) -> Path:
    """The file that writing ``path`` replaces: ``path`` with its links followed. Raises
    :class:`OutputError` when that is not a regular file that may be created or replaced."""
    target = Path(os.path.realpath(path))
    linked = f" (a link to {target})" if target != Path(os.path.abspath(path)) else ""
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as error:
        raise OutputError(f"{linked}: cannot be read ({error.strerror})") from None
    if mode is not None and stat.S_ISDIR(mode):
        raise OutputError(f"{linked} is a folder: give a file name")
    if mode is not None and not stat.S_ISREG(mode):
        raise OutputError(f"{linked} is {_kind(mode)}, not a file: it is left as it is")
    root = _in_virtual(target)
    if root is not None:
        raise OutputError(f"{linked} is in {root}, the kernel's own files, not a place for files")
    if not target.parent.is_dir():
        raise OutputError(f"{linked}: the folder {target.parent} does not exist")
    return target


def folder_problem(folder: Path) -> str | None:
    """Why the report files of ``folder`` (existing or to be made) could not be written there: a
    folder in ``/proc`` or ``/sys``, or an entry with a report's name that is not a regular
    file."""
    real = Path(os.path.realpath(folder))
    root = _in_virtual(real)
    if root is not None:
        return f" is in {root}, the kernel's own files, not a place for a report"
    if not real.is_dir():
        return None
    try:
        entries = list(os.scandir(real))
    except OSError:
        return None
    for entry in entries:
        if not entry.name.endswith(REPORT_SUFFIXES) or entry.is_dir(follow_symlinks=True):
            continue
        try:
            mode = entry.stat(follow_symlinks=True).st_mode
        except OSError:
            continue
        if not stat.S_ISREG(mode):
            return f" holds {entry.name}, {_kind(mode)} that a report file would replace"
    return None


def write_text(path: Path, chunks: Iterable[str] | str) -> None:
    """Writes ``chunks`` (one string, or an iterable of strings, as UTF-8) to ``path``, whole or
    not at all. Raises :class:`OSError` (:class:`OutputError` for a path that must not be
    written)."""
    pieces = [chunks] if isinstance(chunks, str) else chunks
    _write(path, (piece.encode("utf-8") for piece in pieces))


def write_bytes(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` as :func:`write_text` does."""
    _write(path, [data])


def _write(path: Path, chunks: Iterable[bytes]) -> None:
    target = output_target(path)
    # The pid keeps two processes writing the same file (resumed studies) apart.
    temporary = target.with_name(f".{target.name}.{os.getpid()}.partial")
    try:
        with open(temporary, "wb") as file:
            for chunk in chunks:
                file.write(chunk)
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
