"""``tarot-replay``: score sheets, ``--json``, and the exit codes 0 (legal), 1 (illegal), 2
(unreadable input)."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest
from click.testing import CliRunner

from tarot_advisor.cli.replay import main

DEALS = Path(__file__).parent.parent / "data" / "deals"
JSON_KEYS = {
    "valid",
    "taker_points",
    "bouts",
    "needed",
    "made",
    "difference",
    "petit_au_bout",
    "chelem",
    "per_defender",
    "scores",
}


def run(*args: str, stdin: str | None = None):
    return CliRunner().invoke(main, list(args), input=stdin)


def test_a_legal_deal_prints_its_score_sheet() -> None:
    result = run(str(DEALS / "garde-4p.json"))
    assert result.exit_code == 0
    assert "Garde (x2), 4 players" in result.stdout
    assert "53 with 2 bouts, needed 41: made by 12" in result.stdout
    assert "seat 0 simple (20)" in result.stdout
    assert "S = (25 + 12) × 2 + 20 = 94" in result.stdout
    assert "seat 0 +282, seat 1 -94, seat 2 -94, seat 3 -94" in result.stdout


def test_score_sheet_of_a_lost_deal_with_the_petit_au_bout() -> None:
    result = run(str(DEALS / "garde-sans-4p-petit-au-bout.json"))
    assert "lost by 20" in result.stdout
    assert "Petit au bout: taker" in result.stdout
    assert "S = -(25 + 20) × 4 + 10 × 4 = -140" in result.stdout


def test_score_sheet_names_the_partner_and_the_half_point() -> None:
    assert "partner seat 4 (called R♥)" in run(str(DEALS / "garde-5p-called-king.json")).stdout
    sheet = run(str(DEALS / "prise-3p-half-point.json")).stdout
    assert "46.5 with 2 bouts, needed 41: made by 6 (the half point goes to the taker)" in sheet


def test_json_lines_one_object_per_record_in_order() -> None:
    result = run("--json", str(DEALS / "examples.jsonl"))
    assert result.exit_code == 0
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    expected = [
        json.loads(line)["result"]
        for line in (DEALS / "examples.jsonl").read_text("utf-8").splitlines()
    ]
    assert lines == expected
    assert all(set(line) >= JSON_KEYS for line in lines)
    assert [line["per_defender"] for line in lines] == [94, 31, 98, -140]
    assert lines[1]["taker_points"] == 46.5
    assert lines[3]["petit_au_bout"] == "taker"


def test_an_illegal_record_is_reported_and_the_others_still_scored() -> None:
    text = "\n".join(
        (DEALS / name).read_text("utf-8").replace("\n", "")
        for name in ("garde-4p.json", "illegal-revoke-4p.json", "prise-3p-half-point.json")
    )
    result = run("--json", "-", stdin=text)
    assert result.exit_code == 1
    first, bad, third = (json.loads(line) for line in result.stdout.splitlines())
    assert first["valid"] and third["valid"]
    assert bad == {
        "valid": False,
        "well_formed": True,
        "error": "trick 1, seat 1 played R♥: must follow ♣",
        "trick": 1,
        "seat": 1,
        "card": "R♥",
        "rule": "must follow ♣",
    }


def test_an_illegal_record_in_the_score_sheet() -> None:
    result = run(str(DEALS / "illegal-revoke-4p.json"))
    assert result.exit_code == 1
    assert result.stdout == "Deal 1: illegal: trick 1, seat 1 played R♥: must follow ♣\n"


def test_a_malformed_record_is_not_a_deal_record_exit_2_and_names_the_field() -> None:
    # design.md: exit 1 for a well-formed record breaking a rule, 2 for what is not a record.
    record = json.loads((DEALS / "garde-4p.json").read_text("utf-8"))
    record["about"] = "a comment"
    result = run("--json", "-", stdin=json.dumps(record))
    assert result.exit_code == 2
    assert json.loads(result.stdout) == {
        "valid": False,
        "well_formed": False,
        "error": "unknown key: about",
    }
    del record["about"]
    record["tricks"] = record["tricks"][:5]
    result = run("-", stdin=json.dumps(record))
    assert result.exit_code == 2
    assert result.stdout == (
        "Deal 1: not a deal record: tricks: a 4-player deal has 18 tricks, found 5\n"
    )


def test_one_bad_line_does_not_stop_the_good_ones() -> None:
    good = (DEALS / "garde-4p.json").read_text("utf-8").replace("\n", "")
    result = run("--json", "-", stdin=f"{good}\n{{oops\n{good}\n")
    assert result.exit_code == 2
    first, bad, third = (json.loads(line) for line in result.stdout.splitlines())
    assert first["valid"] and third["valid"]
    assert bad["error"].startswith("line 2 is not valid JSON")


def test_a_byte_order_mark_and_utf16_are_read(tmp_path: Path) -> None:
    text = (DEALS / "garde-4p.json").read_text("utf-8")
    for name, data in (
        ("bom.json", ("\ufeff" + text).encode()),
        ("u16.json", text.encode("utf-16")),
    ):
        (tmp_path / name).write_bytes(data)
        result = run(str(tmp_path / name))
        assert result.exit_code == 0, result.output
        assert "Scores:        seat 0 +282" in result.stdout


def test_a_huge_nesting_or_a_float_player_count_is_one_sentence() -> None:
    result = run("-", stdin="[" * 100_000)
    assert (result.exit_code, result.stderr.count("\n")) == (2, 1)
    assert "nested too deeply" in result.stderr
    record = json.loads((DEALS / "garde-4p.json").read_text("utf-8")) | {"players": 4.0}
    result = run("-", stdin=json.dumps(record))
    assert result.exit_code == 2
    assert "players: expected 3, 4 or 5, got 4.0" in result.stdout


@pytest.mark.parametrize(
    ("stdin", "args", "message"),
    [
        (None, ["no-such-file.json"], "Error: no such file: no-such-file.json\n"),
        ('{"players": 4,', ["-"], "Error: stdin: the input is not valid JSON"),
        ("{oops}\n{oops}\n", ["-"], "Error: stdin: the input is not valid JSON"),
        ("", ["-"], "Error: stdin: the input is empty"),
        ("[]", ["-"], "Error: stdin: the input is an empty list"),
    ],
)
def test_unreadable_input_exits_2_with_one_sentence(
    stdin: str | None, args: list[str], message: str
) -> None:
    result = run(*args, stdin=stdin)
    assert result.exit_code == 2
    assert result.stderr.startswith(message)
    assert len(result.stderr.splitlines()) == 1
    assert result.stdout == ""


def test_a_directory_is_not_a_record_file(tmp_path: Path) -> None:
    result = run(str(tmp_path))
    assert result.exit_code == 2
    assert "is a directory" in result.stderr


@pytest.mark.skipif(shutil.which("tarot-replay") is None, reason="console script not installed")
def test_the_console_script_never_shows_a_traceback(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b"\xff\xfe not text")
    done = subprocess.run(["tarot-replay", str(bad)], capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert "Traceback" not in done.stderr
    assert done.stderr.startswith(f"Error: {bad} is not UTF-8 text")
    done = subprocess.run(
        ["tarot-replay", "--json", str(DEALS / "garde-4p.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0
    assert json.loads(done.stdout)["scores"] == [282, -94, -94, -94]
