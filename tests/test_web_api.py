"""tarot-web's API answers exactly what the command line answers: the same JSON for the same
options, the same sentence for the same mistake, and every one of many users at once."""

from __future__ import annotations

import json
import re
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from click.testing import CliRunner
from greedy_table import GREEDY_OPTIONS
from web_helpers import post, run_job, serve  # noqa: F401  (serve: the fixture url)

from tarot_advisor.cli.advise import main as advise
from tarot_advisor.cli.play import main as play
from tarot_advisor.cli.review import main as review
from tarot_advisor.cli.web.server import main as web
from tarot_advisor.cli.web.table import next_cards
from tarot_advisor.cli.web.words import plain

GREEDY = {"taker": "greedy", "defence": "greedy"}
"""The greedy table in a request's body."""

HAND_4 = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
HAND_3 = "21 20 18 15 13 11 9 7 5 3 1 Excuse R♠ D♠ 9♠ R♥ 8♥ 4♥ C♦ 6♦ 2♦ V♣ 10♣ 3♣"
HAND_5 = "21 17 14 10 8 4 2 Excuse R♠ C♠ 5♠ D♥ 7♥ R♦ 9♣"
POSITION = Path(__file__).parent.parent / "data" / "positions" / "garde-4p-trick-10.json"


def cli(command, args: list[str]):
    return CliRunner().invoke(command, args)


@pytest.mark.parametrize(
    ("body", "args"),
    [
        ({"hand": HAND_4, "samples": 60}, [HAND_4, "--samples", "60"]),
        (
            {"hand": HAND_4, "bids": ["pass", "prise"], "samples": 60, "seed": 5, **GREEDY},
            [HAND_4, "--bids", "pass prise", "--samples", "60", "--seed", "5", *GREEDY_OPTIONS],
        ),
        (
            {"hand": HAND_3, "players": 3, "position": 2, "samples": 60, **GREEDY},
            [HAND_3, "--players", "3", "--position", "2", "--samples", "60", *GREEDY_OPTIONS],
        ),
        (
            {"hand": HAND_5, "players": "5", "samples": 40, "taker": "greedy", "defence": "simple"},
            [
                HAND_5,
                "--players",
                "5",
                "--samples",
                "40",
                "--taker",
                "greedy",
                "--defence",
                "simple",
            ],
        ),
        (
            {"hand": HAND_4, "chien": "3♠ 5♥ 2♦ 9♣ 14 1♦", "contract": "prise", "samples": 30},
            [HAND_4, "--chien", "3♠ 5♥ 2♦ 9♣ 14 1♦", "--contract", "prise", "--samples", "30"],
        ),
    ],
    ids=["4 players", "with bids", "3 players", "5 players", "chien"],
)
def test_api_advise_answers_the_commands_json_byte_for_byte(url, body, args) -> None:
    status, text = post(url, "/api/advise", body)
    expected = cli(advise, [*args, "--json"])
    assert expected.exit_code == 0, expected.output
    assert status == 200
    assert text == expected.stdout.strip()
    assert json.loads(text) == json.loads(expected.stdout)


def test_api_play_answers_the_commands_json_byte_for_byte(url) -> None:
    record = json.loads(POSITION.read_text(encoding="utf-8"))
    status, text = post(url, "/api/play", {"record": record, "samples": 40, "seed": 3})
    expected = cli(play, [str(POSITION), "--samples", "40", "--seed", "3", "--json"])
    assert status == 200
    assert text == expected.stdout.strip()


@pytest.mark.parametrize(
    ("body", "args"),
    [
        ({"hand": "21 19 12"}, ["21 19 12"]),
        ({"hand": HAND_4.replace("4♠", "4♠ 4♠")}, [HAND_4.replace("4♠", "4♠ 4♠")]),
        ({"hand": HAND_4, "players": 6}, [HAND_4, "--players", "6"]),
        ({"hand": HAND_4, "samples": 1}, [HAND_4, "--samples", "1"]),
        ({"hand": HAND_4, "samples": 10**30}, [HAND_4, "--samples", str(10**30)]),
        ({"hand": HAND_4, "bids": "pass maybe"}, [HAND_4, "--bids", "pass maybe"]),
        ({"hand": HAND_4, "chien": "3♠ 5♥"}, [HAND_4, "--chien", "3♠ 5♥"]),
        ({"hand": "-5 R♥"}, ["--", "-5 R♥"]),
    ],
    ids=["short", "twice", "players", "samples", "memory", "bids", "chien", "dash"],
)
def test_bad_input_is_a_400_with_the_commands_sentence(url, body, args) -> None:
    status, text = post(url, "/api/advise", body)
    expected = cli(advise, args)
    assert expected.exit_code == 2
    assert status == 400
    sentence = expected.stderr.strip().removeprefix("Error: ")
    answered = json.loads(text)["error"]
    if "memory" in sentence:  # it quotes the free memory, read afresh by each run
        answered, sentence = _words(answered), _words(sentence)
    assert answered == sentence


def _words(sentence: str) -> str:
    return re.sub(r"\d[\d,.]*", "#", sentence)


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/advise", b"{not json", "not JSON"),
        ("/api/advise", [HAND_4], "JSON object"),
        ("/api/advise", {"hand": HAND_4, "jobs": 4}, "unknown key jobs"),
        ("/api/advise", {"hand": HAND_4, "samples": 2.5}, "whole number"),
        ("/api/advise", {"players": 4}, "your hand"),
        ("/api/play", {"record": {"players": 4}}, "needs seat and hand"),
        ("/api/play", {"record": "[1, 2]"}, "not several"),
        ("/api/legal", {"record": {"players": 4}, "x": 1}, "the one key record"),
    ],
)
def test_malformed_requests_get_one_sentence(url, path, body, words) -> None:
    status, text = post(url, path, body)
    assert status == 400
    error = json.loads(text)["error"]
    assert words in error and "\n" not in error


@pytest.mark.slow
def test_sixteen_concurrent_requests_each_get_their_own_answer(url) -> None:
    bodies = [{"hand": HAND_4, "samples": 20, "seed": seed} for seed in range(16)]
    with ThreadPoolExecutor(16) as pool:
        answers = list(pool.map(lambda body: post(url, "/api/advise", body), bodies))
    assert [status for status, _ in answers] == [200] * 16
    assert [json.loads(text)["seed"] for _, text in answers] == list(range(16))
    alone = post(url, "/api/advise", bodies[7])[1]
    assert answers[7][1] == alone


def test_a_job_reports_progress_then_the_commands_json(url) -> None:
    greedy = {"taker": "greedy", "defence": "greedy"}
    job = run_job(url, "advise", {"hand": HAND_4, "samples": 60, **greedy})
    assert job["state"] == "done"
    assert job["result"] == json.loads(
        cli(advise, [HAND_4, "--samples", "60", *GREEDY_OPTIONS, "--json"]).stdout
    )
    assert job["view"]["advice"].startswith("Advice: ")
    # The page's words: no seed, no policy's name (the bars are drawn from the result).
    assert job["view"]["footer"].startswith("60 deals · ")
    assert "quick" in job["view"]["notes"][-1] and "greedy" not in json.dumps(job["view"]["notes"])


@pytest.mark.parametrize(
    ("said", "plain_words"),
    [
        (
            "32 samples of every contract, 520 more of Prise and Garde (steadied by 8,320 greedy"
            " deals) · seed 78 · 1.93 s",
            "32 deals of every contract, 520 more of Prise and Garde · 1.93 s",
        ),
        (
            "At a table of greedy players, Garde: P(make) 93%, E +198 (lookahead at every seat"
            " above).",
            "At a quick table, Garde: P(make) 93%, E +198 (a competent table above).",
        ),
        (
            "Against a weak defence (simple), Garde: P(make) 95%, E +226 (greedy at every seat"
            " above).",
            "Against a weak defence, Garde: P(make) 95%, E +226 (a quick table above).",
        ),
        (
            "Played by: lookahead for the taker's side, greedy for the defence.",
            "Played by a competent taker's side and a quick defence.",
        ),
        (
            "Advice: discard D♠ 9♠ (the engine's — no idea beats it by more than 2 SE).",
            "Advice: discard D♠ 9♠ (the usual écart — no idea beats it clearly).",
        ),
        ("engine, keeping 9♠ for 3♦", "usual écart, keeping 9♠ for 3♦"),
    ],
)
def test_the_page_says_the_command_lines_sentences_in_a_players_words(said, plain_words) -> None:
    assert plain(said) == plain_words


# --- the card-play table: the referee says which cards may be played ---------------------------

OPENING = {
    "players": 4,
    "taker": 0,
    "contract": "garde_sans",
    "first_leader": 0,
    "seat": 0,
    "hand": [
        "21",
        "19",
        "12",
        "6",
        "1",
        "Excuse",
        "C♥",
        "10♥",
        "8♥",
        "1♥",
        "V♦",
        "8♦",
        "D♣",
        "C♣",
        "7♣",
        "6♠",
        "4♠",
    ],
    "tricks": [["R♥", "2♠", "3♥", "4♥"]],
}


def test_the_users_turn_offers_the_legal_cards_only() -> None:
    # The user won the first trick with R♥ and leads: every card is legal.
    answer = next_cards(OPENING)
    assert answer["yours"] and answer["to_play"] == 0 and len(answer["cards"]) == 17
    # The user leads 10♥: seat 1 follows.
    following = OPENING | {"tricks": [*OPENING["tricks"], ["10♥"]], "hand": OPENING["hand"]}
    following["hand"] = [card for card in OPENING["hand"] if card != "10♥"]
    answer = next_cards(following)
    assert not answer["yours"] and answer["to_play"] == 1


def test_a_seat_that_showed_a_void_may_not_play_that_suit_or_trumps() -> None:
    # Seat 1 discarded 2♠ on a heart lead: no heart and no trump left, so after 10♥ it may
    # play neither; seat 2 followed with 3♥ and may.
    record = OPENING | {"tricks": [*OPENING["tricks"], ["10♥"]]}
    record["hand"] = [card for card in OPENING["hand"] if card != "10♥"]
    cards = next_cards(record)["cards"]
    assert "R♠" in cards and "Excuse" not in cards
    assert not any(card.endswith("♥") for card in cards)
    assert not any(card.isdigit() for card in cards)


def test_a_finished_deal_is_over() -> None:
    record = json.loads((POSITION.parent.parent / "deals" / "garde-4p.json").read_text("utf-8"))
    hands = {"seat": 0, "hand": []}
    assert next_cards(record | hands) == {"over": True}


def test_a_port_in_use_is_one_sentence(url) -> None:
    port = url.rsplit(":", 1)[1]
    result = CliRunner().invoke(web, ["--port", port])
    assert result.exit_code == 2
    assert result.stderr.startswith(f"Error: cannot listen on 127.0.0.1:{port}")
    assert result.stderr.count("\n") == 1


# --- the review of a finished deal: tarot-review's JSON, computed as a job ----------------------

BLUNDER = POSITION.parent.parent / "deals" / "blunder-garde-4p.json"


def test_api_review_answers_the_commands_json_byte_for_byte(url) -> None:
    record = json.loads(BLUNDER.read_text(encoding="utf-8"))
    # The table as the command's options name it (the greedy, quick), the calls judged at it.
    body = {"record": record, "samples": 100, "seed": 3, "taker": "greedy", "defence": "greedy"}
    status, text = post(url, "/api/review", body)
    options = ["--samples", "100", "--seed", "3", "--taker", "greedy", "--defence", "greedy"]
    expected = cli(review, [str(BLUNDER), *options, "--json"])
    assert expected.exit_code == 0, expected.output
    assert status == 200
    assert text == expected.stdout.strip()
    assert json.loads(text)["policies"] == {"taker": "greedy", "defence": "greedy"}
    # The costliest decision: the Petit thrown away at trick 12.
    assert json.loads(text)["summary"][0].startswith("trick 12: the 1 instead of")


def test_a_review_job_gives_the_commands_json_and_the_pages_view(url) -> None:
    record = json.loads(BLUNDER.read_text(encoding="utf-8"))
    body = {"record": record, "seat": 1, "samples": 20, "seed": 4}
    job = run_job(url, "review", body)
    assert job["state"] == "done"
    options = ["--seat", "1", "--samples", "20", "--seed", "4", "--json"]
    expected = cli(review, [str(BLUNDER), *options])
    assert job["result"] == json.loads(expected.stdout)
    (seat,) = job["view"]["seats"]
    # The page names the seat from the player's chair: the view gives its number and role.
    assert (seat["seat"], seat["role"], len(seat["rows"])) == (1, "defence", 18)
    assert len(job["view"]["tricks"]) == 18


def test_a_record_that_breaks_a_rule_is_a_400_with_the_commands_sentence(url, tmp_path) -> None:
    record = json.loads(BLUNDER.read_text(encoding="utf-8"))
    # Seat 1 discards the 5♠ on the R♥ lead, holding the 6♥ it plays on the next trick.
    tricks = record["tricks"]
    tricks[0][1], tricks[1][1] = tricks[1][1], tricks[0][1]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    expected = cli(review, [str(path), "--samples", "20"])
    assert expected.exit_code == 1
    status, text = post(url, "/api/review", {"record": record, "samples": 20})
    assert status == 400
    sentence = expected.stderr.strip().removeprefix("Error: deal 1: ")
    assert json.loads(text) == {"error": sentence}
    assert sentence == "illegal: trick 1, seat 1 played 5♠: must follow ♥"
    # The same sentence when the review is submitted as a job: refused then, never queued.
    status, text = post(url, "/api/jobs/review", {"record": record, "samples": 20})
    assert (status, json.loads(text)) == (400, {"error": sentence})


@pytest.mark.parametrize(
    ("body", "words"),
    [
        ({"record": {"players": 4}}, "not a deal record"),
        ({"record": [{"players": 4}, {"players": 4}]}, "not several"),
        ({"samples": 20}, "under the key record"),
        ({"record": {}, "seats": 1}, "unknown key seats"),
        ({"record": {}, "taker": "best"}, "'best' is not one of"),
        ({"record": "{not json"}, "not valid JSON"),
    ],
)
def test_bad_review_requests_get_one_sentence(url, body, words) -> None:
    status, text = post(url, "/api/review", body)
    assert status == 400
    error = json.loads(text)["error"]
    assert words in error and "\n" not in error


def test_a_job_that_compiles_the_engine_says_so_beside_its_progress(monkeypatch) -> None:
    from tarot_advisor.cli import progress
    from tarot_advisor.cli.web import api
    from tarot_advisor.cli.web.jobs import Jobs

    record = json.loads(POSITION.read_text(encoding="utf-8"))
    assert api.players_of({"hand": HAND_5, "players": 5}) == 5
    assert api.players_of({"hand": HAND_4}) == 4  # the command's default
    assert api.players_of({"record": record}) == api.players_of({"record": json.dumps(record)})
    assert api.players_of({"record": "{not json"}) is None
    monkeypatch.setattr(progress, "kept_for", lambda players: players != 3)
    jobs = Jobs()
    try:
        three = {"hand": HAND_3, "players": 3, "samples": 20, **GREEDY}
        first = json.loads(jobs.get(jobs.start("advise", three)).status())
        quick = {"hand": HAND_4, "samples": 20, **GREEDY}
        again = json.loads(jobs.get(jobs.start("advise", quick)).status())
    finally:
        jobs.close()
    assert first["note"] == "The first run for 3 players compiles the engine: up to a minute, once."
    assert "note" not in again


def test_open_without_a_browser_says_to_open_the_page_yourself(monkeypatch) -> None:
    from tarot_advisor.cli.web import server

    def stop_at_once(self) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(server, "start_workers", lambda: 0)
    monkeypatch.setattr(server.webbrowser, "open", lambda url: False)  # none on this machine
    monkeypatch.setattr(server.Server, "serve_forever", stop_at_once)
    result = CliRunner().invoke(web, ["--port", "0", "--open"])
    assert result.exit_code == 0
    url = result.stdout.split("open ", 1)[1].split(" ", 1)[0]
    assert f"no web browser found here to open: open {url} yourself" in result.stderr
