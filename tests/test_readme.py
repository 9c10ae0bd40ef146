"""The README says what the program does today: each example's output is the command's own.

Convention: a ```console block of the README starts with ``$ COMMAND`` and shows its standard
output; a line ``…`` stands for any lines left out. The command runs in-process (click's test
runner, the entry points of pyproject.toml) in a scratch folder that sees ``data/``. Timings
(``0.34 s``, ``290,235 deals/s``) are masked on both sides. The ```pycon block of the Python
API runs as a doctest.
"""

from __future__ import annotations

import doctest
import os
import re
import shlex
import tomllib
from importlib import import_module
from pathlib import Path

import pytest
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
MAX_BYTES = 25_000
ELLIPSIS = "…"
TIMING = re.compile(r"\d[\d,]*(?:\.\d+)? (s|deals/s|hand-samples/s)\b")


def blocks(kind: str) -> list[str]:
    """The bodies of the README's fenced blocks of ``kind`` (``console``, ``pycon``)."""
    return re.findall(rf"^```{kind}\n(.*?)^```$", README.read_text(encoding="utf-8"), re.M | re.S)


def examples() -> list[tuple[str, list[str]]]:
    """(command, the output lines shown) of every ```console block."""
    found = []
    for body in blocks("console"):
        first, *output = body.rstrip("\n").split("\n")
        assert first.startswith("$ "), f"a console block starts with '$ command': {first!r}"
        found.append((first[2:], output))
    return found


def entry_points() -> dict[str, str]:
    """Command name → ``module:function``, as pyproject.toml installs them."""
    with (ROOT / "pyproject.toml").open("rb") as file:
        return tomllib.load(file)["project"]["scripts"]


def run(command: str, folder: Path) -> str:
    """The standard output of ``command`` run in ``folder``; fails on a non-zero exit."""
    name, *args = shlex.split(command)
    module, function = entry_points()[name].split(":")
    script = getattr(import_module(module), function)
    main = getattr(script, "__wrapped__", script)  # the click command, not its process's exit
    cwd = Path.cwd()
    os.chdir(folder)
    try:
        result = CliRunner().invoke(main, args, prog_name=name)
    finally:
        os.chdir(cwd)
    assert result.exit_code == 0, f"{command} exited {result.exit_code}: {result.stderr}"
    return result.stdout


def mask(text: str) -> str:
    return TIMING.sub(r"<t> \1", text)


def matches(shown: list[str], printed: list[str]) -> bool:
    """Whether ``printed`` is ``shown`` with each ``…`` line standing for any lines."""
    pattern = "".join(
        r"(?:.*\n)*?" if line == ELLIPSIS else re.escape(mask(line)) + r"\n" for line in shown
    )
    return re.fullmatch(pattern, "".join(mask(line) + "\n" for line in printed)) is not None


@pytest.fixture(scope="module")
def scratch(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder for the reports' --out, where data/ is the repository's."""
    folder = tmp_path_factory.mktemp("readme")
    (folder / "data").symlink_to(ROOT / "data")
    return folder


@pytest.mark.slow  # snapshots of whole commands
@pytest.mark.parametrize(("command", "shown"), examples(), ids=[c for c, _ in examples()])
def test_each_example_prints_what_the_readme_shows(command, shown, scratch):
    printed = run(command, scratch).rstrip("\n").split("\n")
    assert matches(shown, printed), (
        f"README.md's output of `{command}` is stale; the program prints:\n" + "\n".join(printed)
    )


@pytest.mark.slow
def test_the_python_api_shown_runs_as_shown(monkeypatch):
    (body,) = blocks("pycon")
    code = [line for line in body.splitlines() if line.startswith(">>> ")]
    assert len(code) == 5, "the README shows the API in five lines"
    monkeypatch.chdir(ROOT)
    test = doctest.DocTestParser().get_doctest(body, {}, "README.md", str(README), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, "README.md's Python API block is stale (doctest output above)"


def test_the_readme_is_short_and_points_only_inside_the_repository():
    text = README.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) <= MAX_BYTES
    assert "../" not in text
    for target in re.findall(r"\]\(([^)]+)\)", text):
        assert "://" not in target and (ROOT / target).exists(), f"the link {target} leads nowhere"


def test_a_stale_output_or_a_missing_line_does_not_match():
    printed = ["Contract A", "line 1", "line 2", "2,000 samples · 0.34 s"]
    assert matches(["Contract A", ELLIPSIS, "2,000 samples · 1.07 s"], printed)
    assert not matches(["Contract A", ELLIPSIS, "2,001 samples · 1.07 s"], printed)
    assert not matches(["Contract A", "line 2", ELLIPSIS], printed)
