"""Bad input is answered up front in one sentence with exit 2, never with a traceback.

One test per category (sizes, types, encodings, paths, interrupted runs), and seeded random
garbage fed to the card parser and the record reader: whatever comes in, the only exceptions
are the documented ones.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from click.testing import CliRunner
from greedy_table import GREEDY_OPTIONS

from tarot_advisor.analyzer.cards import CardError, parse_card, parse_cards
from tarot_advisor.analyzer.rulebook.record import (
    RecordError,
    RecordSyntaxError,
    load_records,
    replay,
)
from tarot_advisor.analyzer.rulebook.rules import RuleError
from tarot_advisor.cli.advise import main as advise
from tarot_advisor.cli.replay import main as replay_command

DEALS = Path(__file__).parent.parent / "data" / "deals"
HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
ALPHABET = "RDCV0123456789IXSHCE♠♥♦♣♤♡❤*★ ,;\t\n\ufe0f\ufeff\u200d²١éß\x00\\\"'[]{}:-."


def one_sentence(result, code: int = 2) -> str:
    """The error of a CLI run that must end with ``code`` and one line on stderr."""
    assert result.exit_code == code, result.output
    assert not isinstance(result.exception, Exception) or isinstance(
        result.exception, SystemExit
    ), result.exception
    assert result.stderr.count("\n") == 1, result.stderr
    return result.stderr


# --- sizes ------------------------------------------------------------------------------------


@pytest.mark.parametrize("samples", ["1000000000000000", str(10**30)])
def test_samples_beyond_memory_are_refused_with_the_estimate(samples: str) -> None:
    error = one_sentence(CliRunner().invoke(advise, [HAND, "--samples", samples]))
    assert "needs about" in error and "of memory" in error and "use at most" in error


def test_a_dump_beyond_the_disk_is_refused_before_the_work(tmp_path: Path) -> None:
    result = CliRunner().invoke(
        advise,
        [HAND, "--samples", "90000000", *GREEDY_OPTIONS, "--dump-deals", str(tmp_path / "d.jsonl")],
    )
    assert "needs about" in one_sentence(result)
    assert not (tmp_path / "d.jsonl").exists()


# --- paths and permissions --------------------------------------------------------------------


def test_dump_deals_into_a_missing_folder_is_refused_before_the_work(tmp_path: Path) -> None:
    target = tmp_path / "missing" / "deals.jsonl"
    error = one_sentence(CliRunner().invoke(advise, [HAND, "--dump-deals", str(target)]))
    assert error == f"Error: --dump-deals {target}: the folder {target.parent} does not exist\n"


def test_dump_deals_onto_a_folder_is_refused(tmp_path: Path) -> None:
    error = one_sentence(CliRunner().invoke(advise, [HAND, "--dump-deals", str(tmp_path)]))
    assert "is a folder: give a file name" in error


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_dump_deals_into_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    tmp_path.chmod(0o500)
    try:
        result = CliRunner().invoke(advise, [HAND, "--dump-deals", str(tmp_path / "d.jsonl")])
    finally:
        tmp_path.chmod(0o700)
    assert "permission denied" in one_sentence(result)


def test_the_dump_is_written_whole_or_not_at_all(tmp_path: Path) -> None:
    target = tmp_path / "d.jsonl"
    result = CliRunner().invoke(
        advise, [HAND, "--samples", "20", *GREEDY_OPTIONS, "--dump-deals", str(target)]
    )
    assert result.exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["d.jsonl"]  # no temporary file left
    # A record per contract; none of these 20 deals gives the taker a poignée to show (each
    # would add Prise and Garde played with it shown).
    assert len(load_records(target.read_text("utf-8"))) == 20 * 4


# --- types and encodings ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["21 19 V"], "'V' is ambiguous"),
        ([HAND, "--players", "4.0"], "'4.0' is not one of"),
        ([HAND, "--samples", "1e6"], "'1e6' is not a valid integer"),
        ([HAND, "--seed", "-1"], "--seed"),
        ([HAND, "--jobs", "many"], "--jobs"),
    ],
)
def test_wrong_types_are_named(arguments: list[str], message: str) -> None:
    assert message in one_sentence(CliRunner().invoke(advise, arguments))


def test_a_hand_typed_on_a_phone_is_read() -> None:
    phone = HAND.replace("♥", "♥\ufe0f").replace("♦", "♦️")
    result = CliRunner().invoke(
        advise, ["\ufeff" + phone, "--samples", "20", *GREEDY_OPTIONS, "--json"]
    )
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["hand"][:6] == ["21", "19", "12", "6", "1", "Excuse"]


# --- random garbage ---------------------------------------------------------------------------


def garbage(rng: random.Random, size: int) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randrange(size)))


def test_random_text_is_a_card_or_a_card_error() -> None:
    rng = random.Random(13)
    for _ in range(5000):
        text = garbage(rng, 12)
        try:
            parse_cards(text)
            parse_card(text)
        except CardError as error:
            assert "\n" not in str(error) and len(str(error)) < 200


JSON_VALUES = [None, True, 0, -1, 4.0, 1e308, "", "R♥", "x" * 500, [], {}, [[]], ["21"], {"a": 1}]


def mutated(rng: random.Random, record: dict) -> object:
    """A record with one random change: a key dropped, a value replaced, a card renamed."""
    record = json.loads(json.dumps(record))
    key = rng.choice(sorted(record))
    match rng.randrange(4):
        case 0:
            del record[key]
        case 1:
            record[key] = rng.choice(JSON_VALUES)
        case 2:
            trick = rng.choice(record["tricks"])
            trick[rng.randrange(len(trick))] = rng.choice([*JSON_VALUES, "21", "Excuse"])
        case _:
            record["tricks"] = rng.sample(record["tricks"], len(record["tricks"]))
    return record


def test_random_records_replay_or_raise_a_documented_error() -> None:
    rng = random.Random(13)
    originals = load_records((DEALS / "examples.jsonl").read_text("utf-8"))
    for _ in range(400):
        try:
            replay(mutated(rng, rng.choice(originals)))
        except (RecordError, RuleError) as error:
            assert "\n" not in str(error) and len(str(error)) < 300


def test_random_text_is_records_or_a_syntax_error() -> None:
    rng = random.Random(13)
    text = (DEALS / "garde-4p.json").read_text("utf-8")
    for _ in range(300):
        cut = rng.randrange(len(text))
        noisy = text[:cut] + garbage(rng, 6) + text[cut + rng.randrange(4) :]
        try:
            for item in load_records(noisy):
                if not isinstance(item, RecordSyntaxError):
                    replay(item)
        except (RecordSyntaxError, RecordError, RuleError):
            pass


def test_random_bytes_to_tarot_replay_exit_0_1_or_2_never_a_traceback() -> None:
    rng = random.Random(13)
    good = (DEALS / "examples.jsonl").read_bytes()
    for _ in range(60):
        data = bytearray(good)
        for _ in range(rng.randrange(1, 5)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        result = CliRunner().invoke(replay_command, ["-"], input=bytes(data))
        assert result.exit_code in (0, 1, 2)
        assert result.exception is None or isinstance(result.exception, SystemExit)


def test_a_number_of_thousands_of_digits_is_one_sentence() -> None:
    record = '{"players": 4, "taker": ' + "9" * 5000 + "}"
    for text in (record, record + "\n" + record + "\n"):  # a document, then JSON Lines
        result = CliRunner().invoke(replay_command, ["-"], input=text)
        assert result.exit_code == 2
        assert "a number" in result.output and "thousands of digits" in result.output


# --- honest intervals and words ---------------------------------------------------------------


def test_wilson_intervals_stay_honest_at_0_and_100_percent() -> None:
    from tarot_advisor.analyzer.stats import wilson_interval

    assert wilson_interval(0.0, 2000) == (0.0, pytest.approx(0.00192, abs=1e-5))  # ~ 3.8 / n
    assert wilson_interval(1.0, 2000) == (pytest.approx(0.99808, abs=1e-5), 1.0)
    low, high = wilson_interval(0.5, 100)
    assert (low, high) == (pytest.approx(0.4038, abs=1e-4), pytest.approx(0.5962, abs=1e-4))


def test_advise_never_prints_a_zero_width_interval() -> None:
    monster = "21 20 19 18 17 16 15 14 13 12 1 Excuse R♥ D♥ R♠ R♦ R♣ D♣"
    result = CliRunner().invoke(advise, [monster, "--samples", "300", *GREEDY_OPTIONS])
    assert result.exit_code == 0, result.output
    assert "± 0.0" not in result.stdout and "± nan" not in result.stdout
    assert "100.0% [98.7–100]" in result.stdout or "[0–1.3]" in result.stdout
    assert "Score sheet: E[score] is the taker's entry" in result.stdout


def test_thresholds_out_that_cannot_be_made_is_refused_before_the_work(tmp_path: Path) -> None:
    from tarot_advisor.cli.report import main as report

    blocker = tmp_path / "file"
    blocker.write_text("x")
    result = CliRunner().invoke(
        report, ["thresholds", "--hands", "2", "--samples", "4", "--out", str(blocker / "sub")]
    )
    assert (
        one_sentence(result)
        == f"Error: --out {blocker / 'sub'}: {blocker} is a file, not a folder\n"
    )


def test_a_study_too_small_to_fit_says_so_in_words(tmp_path: Path) -> None:
    from tarot_advisor.cli.report import main as report

    result = CliRunner().invoke(
        report,
        [
            "thresholds",
            "--hands",
            "2",
            "--samples",
            "4",
            "--jobs",
            "1",
            "--out",
            str(tmp_path / "t"),
        ],
    )
    assert result.exit_code == 0, result.output
    assert "Too few hands on either side of the line to fit" in result.stdout


def test_the_plot_and_the_dump_in_one_file_are_refused_before_the_work(tmp_path: Path) -> None:
    same = str(tmp_path / "out.html")
    result = CliRunner().invoke(advise, [HAND, "--plot", same, "--dump-deals", same])
    assert "--plot and --dump-deals both name" in one_sentence(result)
    assert not (tmp_path / "out.html").exists()
