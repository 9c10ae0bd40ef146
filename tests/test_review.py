"""tarot-review (issue 26): a played deal's decisions, what was best, and what the choice cost.

The planted records (tests/data/review/make_records.py says how they were made) are deals the
greedy played, in which the taker then throws the Petit into a trick the defence wins with a
trump, where he had played a higher trump and saved the Petit later.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace

import pytest
from cli_helpers import one_error_line
from click.testing import CliRunner
from greedy_table import GREEDY_OPTIONS, GREEDY_SIDES

from tarot_advisor.analyzer.advice import review_calls
from tarot_advisor.analyzer.advice.hand_samples import Sides
from tarot_advisor.analyzer.advice.review import review_deal
from tarot_advisor.analyzer.cards import PETIT, parse_cards
from tarot_advisor.analyzer.game import hand_size
from tarot_advisor.analyzer.rulebook.record import replay_game
from tarot_advisor.analyzer.stats import Estimate
from tarot_advisor.cli.review import main

DATA = Path(__file__).parent / "data"
SAMPLES = 200


def planted(players: int) -> dict:
    return json.loads((DATA / "review" / f"planted-{players}.json").read_text(encoding="utf-8"))


def petit_trick(data: dict) -> int:
    """The trick (1-based) in which the taker threw the Petit away."""
    game = replay_game(data)
    return next(t.number for t in game.tricks if PETIT in t.cards)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_petit_thrown_under_the_defences_trump_is_the_costliest_decision(players: int) -> None:
    data = planted(players)
    review = review_deal(data, samples=SAMPLES, call_samples=SAMPLES, seed=5, sides=GREEDY_SIDES)
    (seat,) = review.seats
    assert (seat.seat, seat.role) == (data["taker"], "taker")
    worst = seat.costliest(1)[0]
    assert (worst.kind, worst.trick, worst.played) == ("card", petit_trick(data), "1")
    assert worst.best not in (None, "1") and worst.significant
    assert worst.cost is not None and worst.cost.mean > 0
    # The best card saves the Petit: a card the seat could play, ranked first.
    assert worst.ranking[0]["card"] == worst.best
    cards = [d for d in seat.decisions if d.kind == "card"]
    assert [d.trick for d in cards] == list(range(1, hand_size(players) + 1))
    for decision in seat.decisions:
        if decision.cost is not None and decision.cost.se > 0:
            assert decision.cost.mean >= -3 * decision.cost.se


def test_a_forced_card_costs_nothing_and_is_not_searched() -> None:
    review = review_deal(
        planted(4), samples=SAMPLES, call_samples=SAMPLES, seed=5, sides=GREEDY_SIDES
    )
    last = [d for d in review.seats[0].decisions if d.kind == "card"][-1]
    assert (last.note, last.cost.mean, last.ranking) == ("forced", 0.0, ())
    assert last.played == last.best


def test_the_position_seen_hides_the_others_hands_and_later_poignees() -> None:
    review = review_deal(
        planted(3), samples=SAMPLES, call_samples=SAMPLES, seed=5, sides=GREEDY_SIDES
    )
    first = next(d for d in review.seats[0].decisions if d.kind == "card")
    assert first.position["seat"] == 0 and first.position["tricks"] == []
    assert len(first.position["hand"]) == hand_size(3)
    assert "result" not in first.position


def test_same_seed_same_review_whatever_jobs() -> None:
    data = planted(4)
    one = review_deal(data, samples=40, call_samples=40, seed=9, jobs=1, sides=GREEDY_SIDES)
    two = review_deal(data, samples=40, call_samples=40, seed=9, jobs=2, sides=GREEDY_SIDES)
    assert one.to_dict() == two.to_dict()


def test_a_tarotclub_deal_is_reviewed_and_says_what_it_cannot_measure(tmp_path: Path) -> None:
    source = DATA / "tarotclub" / "tarotmag_18.json"
    page = tmp_path / "review.html"
    result = CliRunner().invoke(
        main, [str(source), "--json", "--samples", "60", "--html", str(page)]
    )
    assert result.exit_code == 0, result.output
    review = json.loads(result.stdout)
    assert {"seat", "role", "decisions", "total_cost", "total_cost_se"} <= set(review)
    assert (review["seat"], review["role"]) == (0, "taker")
    cards = [d for d in review["decisions"] if d["kind"] == "card"]
    assert [d["trick"] for d in cards] == list(range(1, 19))
    # No chien in this record: the taker's hand as dealt is unknown, so no bid is judged.
    bid = next(d for d in review["decisions"] if d["kind"] == "bid")
    assert bid["cost"] is None and "chien" in bid["note"]
    text = page.read_text(encoding="utf-8")
    assert "Deal 1" in text and "http" not in text and "src=" not in text


def test_every_seat_reviewed_with_seat_all() -> None:
    source = str(DATA / "review" / "planted-3.json")
    options = ["--json", "--seat", "all", "--samples", "20", *GREEDY_OPTIONS]
    result = CliRunner().invoke(main, [source, *options])
    assert result.exit_code == 0, result.output
    seats = json.loads(result.stdout)["seats"]
    assert [s["seat"] for s in seats] == [0, 1, 2]
    assert [s["role"] for s in seats] == ["taker", "defence", "defence"]
    for seat in seats:
        assert sum(d["kind"] == "card" for d in seat["decisions"]) == hand_size(3)


def test_an_illegal_record_exits_1_with_the_replays_sentence(tmp_path: Path) -> None:
    data = planted(4)
    data["tricks"][0][1], data["tricks"][1][1] = data["tricks"][1][1], data["tricks"][0][1]
    path = tmp_path / "illegal.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    page = tmp_path / "review.html"
    result = CliRunner().invoke(main, [str(path), "--samples", "20", "--html", str(page)])
    assert result.exit_code == 1
    assert "illegal" in result.stderr and "Traceback" not in result.output
    assert f"No page written to {page}: no deal could be reviewed" in result.stderr
    assert not page.exists()


def test_unreadable_input_exits_2_in_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json", encoding="utf-8")
    result = CliRunner().invoke(main, [str(path)])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1 and "not valid JSON" in result.stderr
    missing = CliRunner().invoke(main, [str(tmp_path / "absent.json")])
    assert missing.exit_code == 2 and "no such file" in missing.stderr


def test_one_bad_record_in_json_lines_does_not_stop_the_others(tmp_path: Path) -> None:
    good = json.dumps(planted(3), ensure_ascii=False)
    path = tmp_path / "deals.jsonl"
    path.write_text(f"{good}\n{{broken\n{good}\n", encoding="utf-8")
    result = CliRunner().invoke(main, [str(path), "--json", "--samples", "10", *GREEDY_OPTIONS])
    assert result.exit_code == 2
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert [("error" in line) for line in lines] == [False, True, False]


def test_a_records_auction_is_every_players_bid_and_the_taker_heard_those_before_his() -> None:
    from tarot_advisor.analyzer.advice.review_calls import ReviewError, heard_bids

    data = planted(4)
    game = replay_game(data)
    contract = game.contract.value
    # The taker speaks last, after two passes and a Prise: all four bids are the auction.
    auction = {**data, "bids": ["pass", "pass", "prise", contract], "dealer": 0}
    assert heard_bids(auction, game, 4) == ("pass", "pass", "prise")
    # The taker speaks first and the others pass.
    auction = {**data, "bids": [contract, "pass", "pass", "pass"], "dealer": 0}
    assert heard_bids(auction, game, 1) == ()
    auction = {**data, "bids": [contract, "pass", "pass", "pass", "pass"], "dealer": 0}
    with pytest.raises(ReviewError, match="5 bids, but each of the 4 players speaks once"):
        heard_bids(auction, game, 1)
    # A bid above the taker's after it: the taker would not be the taker.
    auction = {**data, "bids": [contract, "garde_sans", "pass", "pass"], "dealer": 0}
    with pytest.raises(ReviewError, match="those after it are passes"):
        heard_bids(auction, game, 1)
    # Bids as a player writes them, in capitals and in one string, are read alike.
    auction = {**data, "bids": f"PASS {contract.upper()} pass pass", "dealer": 0}
    assert heard_bids(auction, game, 2) == ("pass",)
    for words in ([1, 2], [None], [["garde"]]):
        with pytest.raises(ReviewError, match="is not a bid"):
            heard_bids({**data, "bids": words, "dealer": 0}, game, 1)
    for bids in (1, {"garde": 1}):
        with pytest.raises(ReviewError, match="bids: expected a list of bids or a string of them"):
            heard_bids({**data, "bids": bids, "dealer": 0}, game, 1)


def test_a_seat_in_other_digits_is_one_sentence(tmp_path: Path) -> None:
    path = tmp_path / "deal.json"
    path.write_text(json.dumps(planted(4)), encoding="utf-8")
    result = CliRunner().invoke(main, [str(path), "--seat", "²"])
    assert result.exit_code == 2
    assert "--seat ²: give a seat from 0 to 3, or all" in result.output


def test_an_ecart_that_did_better_than_the_advised_one_cost_nothing(monkeypatch) -> None:
    # The advice keeps the engine's écart unless another beats it by 2 SE; the one played may
    # then measure better than the advice's. It cost nothing: not "instead of" the worse one.
    played, engine = parse_cards("6♠ 5♠ 4♠ V♦ 8♦ 2♦"), parse_cards("6♠ 5♠ 4♠ V♦ 8♦ 3♦")
    advised = SimpleNamespace(cards=sorted(engine), gain=Estimate(0.0, 0.0), ideas=["engine"])
    mine = SimpleNamespace(cards=sorted(played), gain=Estimate(4.2, 2.2), ideas=[])
    fake = SimpleNamespace(recommended=advised, candidates=[advised, mine])
    monkeypatch.setattr(review_calls, "analyse_ecart", lambda *args, **kwargs: fake)
    game = SimpleNamespace(discard=played, chien=(), players=4, contract="garde", called=None)
    decision = review_calls._ecart(tuple(range(18)), game, None, None, 0, 1, GREEDY_SIDES)
    assert (decision.best, decision.cost.mean) == (decision.played, 0.0)
    assert decision.note == "as well as the advice's 6♠ 5♠ 4♠ V♦ 8♦ 3♦ (engine)"


# --- the table the taker's calls are judged at: tarot-advise's, --taker and --defence -----------


def test_the_calls_are_judged_at_the_table_given_and_the_json_names_it(monkeypatch) -> None:
    tables = []

    def spy(advice):
        def run(*args, **kwargs):
            sides = kwargs.get("sides")
            taker, defence = kwargs.get("taker_policy"), kwargs.get("defence_policy")
            tables.append((sides.taker, sides.defence) if sides else (taker, defence))
            return advice(*args, **kwargs)

        return run

    for name in ("analyse_hand", "analyse_ecart"):
        monkeypatch.setattr(review_calls, name, spy(getattr(review_calls, name)))
    table = Sides("greedy", "simple")
    review = review_deal(planted(4), samples=20, call_samples=40, seed=5, sides=table)
    assert tables == [("greedy", "simple")] * 2  # the bid's advisor, the écart advice
    assert review.to_dict()["policies"] == {"taker": "greedy", "defence": "simple"}


def test_the_review_plays_the_advices_lookahead_by_default_and_names_it() -> None:
    # No chien in this record: nothing is measured at the table, so the default is quick here.
    source = str(DATA / "tarotclub" / "tarotmag_18.json")
    result = CliRunner().invoke(main, [source, "--json", "--samples", "4"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["policies"] == {"taker": "lookahead", "defence": "lookahead"}
    text = CliRunner().invoke(main, [source, "--samples", "4"]).stdout
    assert "judged on deals played by" not in text  # no call was judged: no table to name


def test_the_greedy_table_is_named_in_the_json_and_in_the_table() -> None:
    source = str(DATA / "review" / "planted-4.json")
    options = [source, "--samples", "20", *GREEDY_OPTIONS]
    result = CliRunner().invoke(main, [*options, "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["policies"] == {"taker": "greedy", "defence": "greedy"}
    line = (
        "Bid, écart, poignée and chelem judged on deals played by greedy for the taker's side,"
        " greedy for the defence."
    )
    assert line in CliRunner().invoke(main, options).stdout.splitlines()
    seat_all = CliRunner().invoke(main, [*options, "--json", "--seat", "all"])
    assert json.loads(seat_all.stdout)["policies"] == {"taker": "greedy", "defence": "greedy"}


@pytest.mark.parametrize("flag", ["--taker", "--defence"])
@pytest.mark.parametrize("value", ["best", ""])
def test_an_unknown_table_is_refused_in_one_sentence(flag: str, value: str) -> None:
    source = str(DATA / "review" / "planted-4.json")
    result = CliRunner().invoke(main, [source, flag, value])
    one_error_line(result, f"Invalid value for '{flag}'", f"'{value}' is not one of", "lookahead")
