"""Checks made before any work starts: room in memory and on disk, and paths that can be written.

Each returns quietly or ends the command with one sentence and exit 2 (:func:`.errors.fail`),
so that a long run never fails at its end for a reason known at its start.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterable
from pathlib import Path

from tarot_advisor.cli.errors import fail


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


def check_disk(option: str, path: Path, needed: int) -> None:
    """Refuses to write about ``needed`` bytes to ``path`` when its disk has less room."""
    try:
        free = shutil.disk_usage(path.parent).free
    except OSError:
        return
    if needed > free:
        fail(f"{option} {path} needs about {size_text(needed)} of disk, {size_text(free)} free")


def check_output_file(option: str, path: Path) -> None:
    """A file that can be created or replaced: its folder exists and is writable."""
    folder = path.parent
    if path.is_dir():
        fail(f"{option} {path} is a folder: give a file name")
    if not folder.is_dir():
        fail(f"{option} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        fail(f"{option} {path}: permission denied (cannot write there)")


def check_output_folder(option: str, path: Path) -> None:
    """A folder that exists and is writable, or can be created."""
    if path.exists() and not path.is_dir():
        fail(f"{option} {path} is a file, not a folder")
    existing = path
    while not existing.exists():
        existing = existing.parent
    if not existing.is_dir():
        fail(f"{option} {path}: {existing} is a file, not a folder")
    if not os.access(existing, os.W_OK):
        fail(f"{option} {path}: permission denied (cannot write in {existing})")


def prepare_output_folder(option: str, path: Path) -> None:
    """Checks ``path`` as :func:`check_output_folder`, then creates it, so that a folder that
    cannot be made (read-only or virtual file system, a full disk) is named before any work."""
    check_output_folder(option, path)
    try:
        path.mkdir(parents=True, exist_ok=True)
        probe = path / ".write-test"
        probe.touch()
        probe.unlink()
    except OSError as error:
        fail(f"{option} {path}: cannot write there ({error.strerror or error})")


def write_text_atomically(path: Path, chunks: Iterable[str]) -> None:
    """Writes the strings of ``chunks`` (an iterable) to ``path`` through a temporary file, so
    that an interrupted or failed write leaves no half-written file. Raises :class:`OSError`."""
    _write_atomically(path, (chunk.encode("utf-8") for chunk in chunks))


def write_bytes_atomically(path: Path, data: bytes) -> None:
    """Writes ``data`` to ``path`` as :func:`write_text_atomically` does."""
    _write_atomically(path, [data])


def _write_atomically(path: Path, chunks: Iterable[bytes]) -> None:
    temporary = path.with_name(f".{path.name}.partial")
    try:
        with open(temporary, "wb") as file:
            for chunk in chunks:
                file.write(chunk)
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
