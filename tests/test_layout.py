"""The layout shows the architecture: every import points down, and nothing is too long to read.

cli → reports → analyzer; inside the analyser, the layers of ``analyzer/__init__.py``, each
importing only those below it. The library never prints and never imports click or matplotlib.
"""

from __future__ import annotations

import ast
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = [
    ("cli",),
    ("reports",),
    ("analyzer.api",),
    ("analyzer.studies",),
    ("analyzer.advice",),
    ("analyzer.policies",),
    ("analyzer.search",),
    ("analyzer.players",),
    ("analyzer.playout",),
    ("analyzer.rulebook",),
    ("analyzer.cards", "analyzer.game", "analyzer.stats", "analyzer.parallel", "analyzer.exact"),
]
"""Top to bottom: a module may import its own layer and the layers below it."""

MAX_MODULE_LINES = 450
MAX_FUNCTION_LINES = 100
MAX_TOP_MODULES = 12


def sources() -> list[Path]:
    return sorted(
        path for folder in ("analyzer", "cli", "reports") for path in (ROOT / folder).rglob("*.py")
    )


def dotted(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(name: str) -> int:
    for index, prefixes in enumerate(LAYERS):
        if any(name == p or name.startswith(p + ".") for p in prefixes):
            return index
    if name == "analyzer":
        return len(LAYERS) - 1
    raise AssertionError(f"{name} is in no layer of {LAYERS}")


def imported(path: Path) -> set[str]:
    """The project's modules and the outside packages ``path`` imports, as dotted names
    (``analyzer.playout.table``, ``click``), relative imports resolved."""
    own = dotted(path)
    package = own if path.name == "__init__.py" else own.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = importlib.util.resolve_name("." * node.level + (node.module or ""), package)
            else:
                base = node.module or ""
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return {n.removeprefix("tarot_advisor.") for n in names}


def project_module(name: str) -> str | None:
    """The project module (or package) ``name`` names, or None for an outside package or a
    name imported from a module."""
    path = ROOT.joinpath(*name.split("."))
    if path.with_suffix(".py").is_file() or (path / "__init__.py").is_file():
        return name
    return None


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_import_points_down(path):
    here = layer_of(dotted(path))
    for name in sorted(imported(path)):
        module = project_module(name)
        if module is None:
            continue
        assert layer_of(module) >= here, f"{dotted(path)} imports {module}, a layer above it"


@pytest.mark.parametrize("path", sorted((ROOT / "analyzer").rglob("*.py")), ids=str)
def test_the_library_never_draws_nor_talks_to_the_terminal(path):
    names = imported(path)
    assert not {n for n in names if n.split(".")[0] in {"click", "matplotlib", "cli", "reports"}}
    assert "print(" not in path.read_text(encoding="utf-8")


def test_few_modules_sit_directly_in_the_analyser():
    top = [p.name for p in (ROOT / "analyzer").glob("*.py") if p.name != "__init__.py"]
    assert len(top) <= MAX_TOP_MODULES, sorted(top)


@pytest.mark.parametrize("path", sources(), ids=lambda p: str(p.relative_to(ROOT)))
def test_modules_and_functions_are_short_enough_to_read(path):
    text = path.read_text(encoding="utf-8")
    assert len(text.splitlines()) <= MAX_MODULE_LINES
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            length = node.end_lineno - node.lineno + 1
            assert length <= MAX_FUNCTION_LINES, f"{node.name} is {length} lines long"
