"""What the commands write: never over what is not theirs, every write error in one sentence,
sizes refused before the work, small studies said in words, and Ctrl-C that stops.

The stdout and Ctrl-C cases run the installed commands in a subprocess, as a user's shell
would; the others use click's runner.
"""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from greedy_table import GREEDY_OPTIONS

from tarot_advisor.cli.advise import main as advise
from tarot_advisor.cli.play import main as play
from tarot_advisor.cli.report import main as report
from tarot_advisor.cli.review import main as review

ROOT = Path(__file__).parent.parent
HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
POSITION = ROOT / "data" / "positions" / "garde-4p-trick-10.json"
RECORD = ROOT / "data" / "deals" / "blunder-garde-4p.json"
DEALS = ROOT / "data" / "deals" / "examples.jsonl"
BIN = Path(sys.executable).parent


def one_sentence(result, code: int = 2) -> str:
    assert result.exit_code == code, (result.output, result.exception)
    assert result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output
    return result.stderr


def run(command: str, *arguments: str, stdout) -> subprocess.CompletedProcess:
    """Runs an installed command with ``stdout`` (a file or a descriptor), stderr captured."""
    return subprocess.run(
        [str(BIN / command), *arguments],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
    )


# --- 1. outputs never destroy what is not theirs ----------------------------------------------


def test_a_dump_onto_a_fifo_is_refused_before_the_run_and_the_fifo_stays(tmp_path: Path) -> None:
    fifo = tmp_path / "deals.jsonl"
    os.mkfifo(fifo)
    error = one_sentence(CliRunner().invoke(advise, [HAND, "--dump-deals", str(fifo)]))
    assert error == f"Error: --dump-deals {fifo} is a fifo, not a file: it is left as it is\n"
    assert fifo.is_fifo()


def test_a_plot_through_a_link_to_a_device_is_refused(tmp_path: Path) -> None:
    link = tmp_path / "plot.png"
    link.symlink_to("/dev/full")
    error = one_sentence(CliRunner().invoke(advise, [HAND, "--plot", str(link)]))
    assert "(a link to /dev/full) is a character device, not a file" in error
    assert link.is_symlink() and Path("/dev/full").is_char_device()


def test_a_duel_dump_onto_a_device_is_refused_before_the_duel() -> None:
    result = CliRunner().invoke(
        report, ["duel", "--policy", "greedy", "--against", "random", "--dump-deals", "/dev/null"]
    )
    assert "/dev/null is a character device" in one_sentence(result)


def test_a_report_folder_holding_a_fifo_where_a_file_goes_is_refused(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "report.html")
    result = CliRunner().invoke(report, ["deals", "--deals", "10", "--out", str(tmp_path)])
    assert "holds report.html, a fifo that a report file would replace" in one_sentence(result)


def test_a_link_is_followed_its_target_written_and_the_link_kept(tmp_path: Path) -> None:
    target, link = tmp_path / "kept" / "deals.jsonl", tmp_path / "link.jsonl"
    target.parent.mkdir()
    target.write_text("old")
    link.symlink_to(target)
    result = CliRunner().invoke(
        advise, [HAND, "--samples", "4", *GREEDY_OPTIONS, "--dump-deals", str(link)]
    )
    assert result.exit_code == 0, result.output
    assert link.is_symlink() and os.readlink(link) == str(target)
    lines = target.read_text().splitlines()
    assert len(lines) >= 16 and all(json.loads(line)["players"] == 4 for line in lines)
    assert sorted(p.name for p in target.parent.iterdir()) == ["deals.jsonl"]


def test_a_dangling_link_writes_its_target_when_its_folder_exists(tmp_path: Path) -> None:
    link = tmp_path / "plot.html"
    link.symlink_to(tmp_path / "drawn.html")
    result = CliRunner().invoke(
        advise, [HAND, "--samples", "4", *GREEDY_OPTIONS, "--plot", str(link)]
    )
    assert result.exit_code == 0, result.output
    assert (tmp_path / "drawn.html").read_text().startswith("<!DOCTYPE html>")
    missing = tmp_path / "gone.jsonl"
    missing.symlink_to(tmp_path / "no" / "deals.jsonl")
    error = one_sentence(CliRunner().invoke(advise, [HAND, "--dump-deals", str(missing)]))
    assert f"the folder {tmp_path / 'no'} does not exist" in error


@pytest.mark.parametrize("path", ["/proc/x.png", "/sys/kernel/x.html"])
def test_a_plot_in_the_kernels_files_is_refused_before_the_run(path: str) -> None:
    error = one_sentence(CliRunner().invoke(advise, [HAND, "--plot", path]))
    assert "the kernel's own files" in error


def test_a_report_out_in_proc_is_refused() -> None:
    result = CliRunner().invoke(report, ["deals", "--deals", "10", "--out", "/proc/report"])
    assert "is in /proc" in one_sentence(result)


# --- 2. every write error is one sentence ---------------------------------------------------


FULL_DISK = "Error: cannot write the output on stdout: No space left on device\n"


@pytest.mark.parametrize(
    "command",
    [
        ["tarot-advise", HAND, "--samples", "4", *GREEDY_OPTIONS],
        ["tarot-advise", HAND, "--samples", "4", *GREEDY_OPTIONS, "--json"],
        ["tarot-advise", "-h"],
        ["tarot-advise", "--version"],
        ["tarot-replay", str(DEALS)],
        ["tarot-play", str(POSITION), "--samples", "4"],
        pytest.param(
            ["tarot-report", "duel", "--policy", "greedy", "--against", "random", "--deals", "4"],
            marks=pytest.mark.slow,  # the same writer as the others, behind a pool's start
        ),
    ],
    ids=["advise", "advise-json", "help", "version", "replay", "play", "duel"],
)
def test_a_full_disk_on_stdout_is_one_sentence(command: list[str]) -> None:
    with open("/dev/full", "w") as full:
        result = run(*command, stdout=full)
    assert (result.returncode, result.stderr) == (1, FULL_DISK)


@pytest.mark.parametrize(
    "command",
    [
        ["tarot-advise", "-h"],
        ["tarot-replay", str(DEALS)],
        ["tarot-advise", HAND, "--samples", "4", *GREEDY_OPTIONS],
    ],
    ids=["help", "replay", "advise"],
)
def test_a_closed_pipe_ends_quietly_with_exit_0(command: list[str]) -> None:
    reader, writer = os.pipe()
    os.close(reader)  # the reader has left before the first line: every write is EPIPE
    try:
        result = run(*command, stdout=writer)
    finally:
        os.close(writer)
    assert (result.returncode, result.stderr) == (0, "")


def test_a_dump_that_cannot_be_written_is_one_sentence_after_the_table(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A read-only or full disk cannot be made here as root: the write itself fails instead.
    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr("tarot_advisor.reports.files._write", full)
    target = tmp_path / "d.jsonl"
    result = CliRunner().invoke(
        advise, [HAND, "--samples", "4", *GREEDY_OPTIONS, "--dump-deals", str(target)]
    )
    assert result.stderr == (
        f"Error: could not write the deal records to {target}: No space left on device\n"
    )
    assert result.exit_code == 1 and "Advice:" in result.stdout


ENDS_AT_ONCE = """
import os, sys, time, click
from pathlib import Path
from tarot_advisor.analyzer.parallel import iter_chunks
from tarot_advisor.cli.errors import Command, console_script, fail

def mark(rng, n, folder):
    Path(folder, str(os.getpid())).touch()
    while n == 1 and len(os.listdir(folder)) < 2:  # the short chunk waits for the long one
        time.sleep(0.01)
    time.sleep(n / 10)
    return n

@click.command(cls=Command)
@click.argument("verdict")
@click.argument("folder")
def main(verdict, folder):
    chunks = iter_chunks(mark, 61, seed=1, chunk_size=[1, 60], jobs=2, backend="fork",
                         ordered=False, folder=folder)
    click.echo(next(chunks)[1])  # the other worker is still at its 6-second chunk
    if verdict == "bad":
        fail("the hand has 17 cards")

console_script(main)()
"""


def _running(pid: int) -> bool:
    """The process ``pid`` exists and is not a zombie (ended, its parent gone)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    return "\nState:\tZ" not in status


@pytest.mark.parametrize(("verdict", "code"), [("good", 0), ("bad", 2)])
def test_a_command_ends_at_once_with_its_output_and_code_and_stops_its_busy_workers(
    verdict: str, code: int, tmp_path: Path
) -> None:
    start = time.monotonic()
    result = subprocess.run(
        [sys.executable, "-c", ENDS_AT_ONCE, verdict, str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert time.monotonic() - start < 5
    assert (result.returncode, result.stdout) == (code, "1\n")
    assert result.stderr == ("" if code == 0 else "Error: the hand has 17 cards\n")
    workers = [int(path.name) for path in tmp_path.iterdir()]
    assert len(workers) == 2
    time.sleep(0.2)
    assert not any(_running(pid) for pid in workers)


# --- 3. sizes are checked before any work, on every command ----------------------------------


@pytest.mark.parametrize(
    ("command", "words"),
    [
        ([play, str(POSITION), "--samples", "100000000000"], "of memory"),
        ([report, "deals", "--deals", "1000000000000000"], "would take"),
        ([report, "thresholds", "--hands", "1000000000000"], "needs about"),
        ([report, "thresholds", "--hands", "1000", "--samples", "10000000000"], "would take"),
        ([report, "pointcount", "--hands", "100000", "--samples", "10000000"], "would take"),
        ([report, "ecart-ideas", "--hands", "100000", "--samples", "10000000"], "would take"),
        (
            [report, "duel", "--policy", "greedy", "--against", "random", "--deals", "10**13"],
            "take",
        ),
        ([report, "check-engine", "--deals", "1000000000000"], "would take"),
        ([report, "bench", "--playouts", "1000000000000"], "would take"),
        ([report, "bench", "--deals", "1000000000000000"], "would take"),
        (
            [
                report,
                "bench",
                "--searched-deals",
                "1000000000",
                "--only",
                "lookahead_decisions_per_cpu_second",
            ],
            "would take",
        ),
        (
            [
                report,
                "duel",
                "--policy",
                "greedy",
                "--against",
                "random",
                "--deals",
                "10000000",
                "--dump-deals",
                "DUMP",
            ],
            "deal with its records",
        ),
        ([review, str(RECORD), "--samples", "100000000000"], "of memory"),
        ([advise, HAND, "--samples", "1000000000000", *GREEDY_OPTIONS], "needs about"),
    ],
)
def test_counts_far_too_large_are_refused_at_once_with_the_estimate(
    command: list, words: str, tmp_path: Path
) -> None:
    main, *arguments = command
    arguments = [a.replace("10**13", str(10**13)) for a in arguments]
    arguments = [str(tmp_path / "out") if a == "DUMP" else a for a in arguments]
    if main is report and arguments[0] in ("deals", "thresholds", "pointcount"):
        arguments += ["--out", str(tmp_path / "out")]
    start = time.process_time()
    error = one_sentence(CliRunner().invoke(main, arguments))
    assert time.process_time() - start < 2
    assert words in error and "use at most" in error
    assert not (tmp_path / "out").exists()


def test_a_study_is_sized_at_the_cost_of_its_play(tmp_path: Path) -> None:
    # 10⁹ hand-samples: about 28 hours of the greedy, 116 days of the lookahead on one core.
    from tarot_advisor.analyzer.advice.hand_samples import Sides
    from tarot_advisor.cli.errors import InputError
    from tarot_advisor.cli.study_run import check_study_size

    check_study_size(100_000, 10_000, 1, None, Sides("greedy", "greedy"))  # accepted
    with pytest.raises(InputError) as refused:
        check_study_size(100_000, 10_000, 1, None, Sides("greedy", "lookahead"))
    assert "searched hand-samples at 10,000 µs" in refused.value.message
    arguments = ["pointcount", "--hands", "100000", "--samples", "10000"]
    error = one_sentence(CliRunner().invoke(report, [*arguments, "--out", str(tmp_path / "o")]))
    assert "would take at least 115.7 days" in error and "use at most 6,048" in error
    assert not (tmp_path / "o").exists()


# --- 4. small studies --------------------------------------------------------------------------


def test_a_point_count_study_too_small_says_so_and_writes_no_card(tmp_path: Path) -> None:
    for hands in ("1", "25"):
        out = tmp_path / hands
        result = CliRunner().invoke(
            report, ["pointcount", "--hands", hands, "--samples", "2", "--out", str(out)]
        )
        assert result.exit_code == 0, result.output
        assert result.stdout.startswith(f"Too few hands to fit a point count: {hands} hands")
        assert sorted(p.name for p in out.iterdir()) == ["study"]


def test_ecart_ideas_too_few_hands_to_judge_any_idea_says_so() -> None:
    result = CliRunner().invoke(report, ["ecart-ideas", "--hands", "2", "--samples", "4"])
    assert result.exit_code == 0, result.output
    assert "Too few hands to judge any idea" in result.stdout and "±" not in result.stdout
    document = json.loads(
        CliRunner()
        .invoke(report, ["ecart-ideas", "--hands", "2", "--samples", "4", "--json"])
        .stdout
    )
    assert document["ideas"] == [] and document["too_few_hands"]


# --- 5. Ctrl-C always stops ------------------------------------------------------------------


def _interrupt(arguments: list[str], started) -> subprocess.CompletedProcess:
    """Runs ``tarot-report arguments``, sends SIGINT once ``started()`` is true, and returns
    the finished process."""
    process = subprocess.Popen(
        [str(BIN / "tarot-report"), *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A test runner started in the background may ignore SIGINT: its child must not.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    deadline = time.monotonic() + 60
    while not started() and process.poll() is None and time.monotonic() < deadline:
        time.sleep(0.1)
    process.send_signal(signal.SIGINT)
    stopped = time.monotonic()
    stdout, stderr = process.communicate(timeout=60)
    assert time.monotonic() - stopped < 10
    return subprocess.CompletedProcess(process.args, process.returncode, stdout, stderr)


@pytest.mark.slow
def test_ctrl_c_stops_a_duel_on_two_workers() -> None:
    result = _interrupt(
        ["duel", "--policy", "greedy", "--against", "random", "--deals", "300000", "--jobs", "2"],
        started=lambda: time.sleep(4) or True,  # the workers are started and busy by then
    )
    assert (result.returncode, result.stdout, result.stderr) == (130, "", "Error: interrupted\n")


@pytest.mark.slow
def test_ctrl_c_keeps_the_finished_chunks_of_a_study(tmp_path: Path) -> None:
    out = tmp_path / "t"
    result = _interrupt(
        ["thresholds", "--hands", "4000", "--samples", "20", "--chunk-hands", "8",
         "--taker", "greedy", "--defence", "greedy", "--out", str(out)],
        started=lambda: any((out / "chunks").glob("*.csv")),
    )  # fmt: skip
    assert result.returncode == 130, result.stderr
    assert result.stderr.count("\n") == 1 and "run the same command with --resume" in result.stderr
    assert any((out / "chunks").glob("*.csv"))
