"""The project's Python bytecode kept where the interpreter is told not to write it.

Where ``PYTHONDONTWRITEBYTECODE`` is set (as on this project's machines), Python compiles every
module from its source at each import and keeps nothing. A package installed by pip comes with
its bytecode (pip compiles it at install); an editable install, or a checkout, does not: a
``tarot-advise`` then compiled its own 71 modules at every run, 0.2 s of its 1.1 s of imports
(this machine, 4 December). So a command ends by writing the bytecode of those of its modules
whose cache is missing or out of date, as pip would have, and the next run reads it.
Elsewhere the interpreter keeps it itself.
"""

from __future__ import annotations

import importlib.util
import os
import py_compile
import sys

NAMESPACE = "tarot_advisor"


def keep_bytecode(namespace: str = NAMESPACE) -> int:
    """Write the bytecode of every module of ``namespace`` loaded in this process from a
    source whose cached bytecode is missing or does not match it (the check the import makes:
    the magic number, the source's modification time and size), where the interpreter does not
    write bytecode itself; the number written. A folder that cannot be written ends it
    quietly: nothing else is tried."""
    if not sys.dont_write_bytecode:
        return 0
    written = 0
    for name, module in list(sys.modules.items()):
        if name != namespace and not name.startswith(namespace + "."):
            continue
        source, cached = getattr(module, "__file__", None), getattr(module, "__cached__", None)
        if not source or not cached or not source.endswith(".py") or _fresh(source, cached):
            continue
        try:
            # Stamped by time, as the import writes it (SOURCE_DATE_EPOCH would make it a hash,
            # which _fresh never takes for fresh: it would be written again at every run).
            stamp = py_compile.PycInvalidationMode.TIMESTAMP
            py_compile.compile(source, cfile=cached, doraise=True, invalidation_mode=stamp)
        except (OSError, py_compile.PyCompileError):
            break
        written += 1
    return written


def _fresh(source: str, cached: str) -> bool:
    """Whether ``cached`` holds bytecode the import would take for ``source``: the magic
    number of this interpreter, and the source's modification time and size as recorded."""
    try:
        with open(cached, "rb") as file:
            header = file.read(16)
        stat = os.stat(source)
    except OSError:
        return False
    return (
        len(header) == 16
        and header[:4] == importlib.util.MAGIC_NUMBER
        and int.from_bytes(header[4:8], "little") == 0  # stamped by time, not by a hash
        and int.from_bytes(header[8:12], "little") == int(stat.st_mtime) & 0xFFFFFFFF
        and int.from_bytes(header[12:16], "little") == stat.st_size & 0xFFFFFFFF
    )
