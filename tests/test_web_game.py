"""A deal against the computer through tarot-web's API (``POST /api/game``): whole deals for 3,
4 and 5 players played to the score sheet, the same seed dealing and playing the same deal, the
referee's sentence for an illegal card, one sentence for every bad request, and the computer's
seats deciding from what their seat may know only."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from web_helpers import post, run_job, serve  # noqa: F401  (serve: the fixture url)

from tarot_advisor.analyzer.cards import format_card
from tarot_advisor.analyzer.rulebook.record import replay
from tarot_advisor.analyzer.search.position import read_position
from tarot_advisor.cli.web.game import answer
from tarot_advisor.cli.web.game_deal import dealt, play


def game(url: str, players: int, seed: int, moves: list, table: str = "greedy") -> dict:
    status, text = post(
        url, "/api/game", {"players": players, "seed": seed, "table": table, "moves": moves}
    )
    assert status == 200, text
    return json.loads(text)


def refused(url: str, body) -> str:
    status, text = post(url, "/api/game", body)
    assert status == 400, text
    return json.loads(text)["error"]


def next_move(answer: dict) -> dict:
    """The move of a plain player: Garde when it may, else pass; the first king it lacks
    called; the engine's écart; the first legal card, with the poignée when the hand has one."""
    asked = answer["asked"]
    kind = asked["kind"]
    if kind == "bid":
        return {"bid": "garde" if "garde" in asked["options"] else "pass"}
    if kind == "call":
        return {"call": next(c for c in asked["options"] if c not in answer["hand"])}
    if kind == "ecart":
        return {"ecart": asked["engine"]}
    move = {"card": asked["legal"][0]}
    if asked["poignees"]:
        move["poignee"] = asked["poignees"][-1]["cards"]  # the largest
    return move


def play_out(url: str, players: int, seed: int, table: str = "greedy") -> tuple[list, list]:
    """Every answer of a whole deal, and the moves that led there."""
    moves: list = []
    answers = [game(url, players, seed, moves, table)]
    while answers[-1]["asked"] is not None:
        asked = answers[-1]["asked"]
        move = next_move(answers[-1])
        if "card" in move:
            assert move["card"] in answers[-1]["hand"]
            assert set(asked["legal"]) <= set(answers[-1]["hand"])
        moves.append(move)
        answers.append(game(url, players, seed, moves, table))
    return answers, moves


@pytest.mark.parametrize(
    ("players", "seed", "role"),
    [
        (3, 0, "taker"),
        (3, 1, "defence"),
        (4, 3, "defence"),
        (4, 23, "taker"),
        (5, 0, "taker"),
        (5, 2, "defence"),
    ],
)
def test_a_whole_deal_ends_in_the_referees_score_sheet(url, players, seed, role) -> None:
    answers, moves = play_out(url, players, seed)
    last = answers[-1]
    assert last["over"] and not last["void"]
    assert (last["taker"] == last["seat"]) == (role == "taker")
    assert sum(last["scores"]) == 0
    assert len(last["scores"]) == players
    # The record is a deal record of the project: replayed by the referee, the same scores.
    assert list(replay(last["record"]).scores) == last["scores"]
    assert last["record"]["bids"] == last["bids"] and last["record"]["dealer"] == players - 1
    # Every card the player played is in the record, where the player played it.
    mine = [move["card"] for move in moves if "card" in move]
    played = [
        card
        for trick in last["tricks"]
        for card, seat in zip(trick["cards"], trick["seats"], strict=True)
        if seat == last["seat"]
    ]
    assert played == mine
    # What is asked before the cards: the auction, then the taker's call and écart.
    kinds = [a["asked"]["kind"] for a in answers[:-1]]
    before = ["bid", "call", "ecart"] if role == "taker" and players == 5 else ["bid", "ecart"]
    assert kinds[: kinds.index("card")] == (before if role == "taker" else ["bid"])


def test_the_lookahead_plays_a_whole_deal_within_the_referees_rules(url) -> None:
    answers, _ = play_out(url, 4, 3, table="lookahead")
    assert sum(answers[-1]["scores"]) == 0
    assert list(replay(answers[-1]["record"]).scores) == answers[-1]["scores"]


def test_the_same_seed_deals_and_plays_the_same_deal(url) -> None:
    first, moves = play_out(url, 4, 7)
    again = game(url, 4, 7, moves)
    assert again == first[-1]
    other = game(url, 4, 8, [])
    assert other["hand"] != first[0]["hand"]


def test_the_player_sees_only_what_its_seat_may_know(url) -> None:
    answer = game(url, 4, 3, [])  # the player bids first at seat 3, after three computers
    assert answer["asked"]["kind"] == "bid" and answer["seat"] == 3
    assert len(answer["hand"]) == 18 and answer["chien"] is None
    assert answer["tricks"] == [] and "record" not in answer
    during = game(url, 4, 3, [{"bid": "pass"}])
    assert during["contract"] == "garde" and during["taker"] != 3
    assert during["discard"] is None  # the taker's écart held no trump: nothing shown of it
    assert "record" not in during and len(during["hand"]) == 18


def test_an_illegal_card_is_refused_with_the_referees_sentence(url) -> None:
    # Seat 0 (the player, seed 5) takes and leads; the left then plays. At trick 2 the player
    # follows a lead: a card of another suit is refused while one of the suit is held.
    answers, moves = play_out(url, 4, 5)
    cards = [i for i, move in enumerate(moves) if "card" in move]
    for index in cards:
        answer = answers[index]
        hand, legal = answer["hand"], answer["asked"]["legal"]
        wrong = [card for card in hand if card not in legal]
        if wrong:
            body = {
                "players": 4,
                "seed": 5,
                "table": "greedy",
                "moves": [*moves[:index], {"card": wrong[0]}],
            }
            sentence = refused(url, body)
            trick = len(answer["tricks"]) + 1
            assert sentence.startswith(f"trick {trick}: you may not play {wrong[0]}: must ")
            assert "\n" not in sentence
            return
    pytest.fail("the player never held a card it could not play")


@pytest.mark.parametrize(
    ("body", "sentence"),
    [
        ({"players": 6, "seed": 1}, "players: French Tarot is played by 3, 4 or 5, not 6"),
        ({"players": "four", "seed": 1}, 'players: expected a whole number, got "four"'),
        ({"players": 4}, "seed: expected a whole number, got nothing"),
        (
            {"players": 4, "seed": -3},
            "seed: a whole number from 0 to 9,223,372,036,854,775,807, not -3",
        ),
        ({"players": 4, "seed": "x1"}, 'seed: expected a whole number, got "x1"'),
        (
            {"players": 4, "seed": 1, "table": "oracle"},
            "table: the computer plays by lookahead or greedy, not 'oracle'",
        ),
        (
            {"players": 4, "seed": 1, "hand": "21"},
            "unknown key hand: the keys are players, seed, table, moves",
        ),
        (
            {"players": 4, "seed": 1, "moves": [{"bid": "superbe"}]},
            "move 1: a bid is one of pass, prise, garde, garde_sans, garde_contre, not 'superbe'",
        ),
        (
            {"players": 4, "seed": 1, "moves": [{"card": "R♥"}]},
            "move 1: the deal asks for your bid here, not your card",
        ),
        (
            {"players": 4, "seed": 1, "moves": [{"bid": "pass", "card": "R♥"}]},
            "move 1: an object with one of the keys bid, call, ecart, card",
        ),
        (
            {"players": 4, "seed": 3, "moves": [{"bid": "pass"}, {"card": "Z♥"}]},
            "move 2, card: 'Z♥' is not a card",
        ),
        (
            {"players": 4, "seed": 3, "moves": [{"bid": "prise"}]},
            "you may say pass, garde_sans, garde_contre now, not prise",
        ),
        ([1, 2], "the request's body is a JSON object with the keys players, seed, table, moves"),
    ],
)
def test_a_bad_request_gets_one_sentence(url, body, sentence) -> None:
    assert refused(url, body).startswith(sentence)


def test_an_illegal_ecart_is_refused_with_the_rules_sentence(url) -> None:
    answer = game(url, 4, 0, [{"bid": "garde"}])
    kings = [card for card in answer["asked"]["pool"] if card.startswith("R")]
    ecart = [*kings, *answer["asked"]["engine"]][:6]
    sentence = refused(
        url,
        {"players": 4, "seed": 0, "table": "greedy", "moves": [{"bid": "garde"}, {"ecart": ecart}]},
    )
    assert "king" in sentence


def test_a_poignee_shown_with_the_first_card_is_seen_only_from_then_on(url) -> None:
    # Seed 23: the player (seat 2) holds a poignée; seats 0 and 1 play before its first card.
    moves = [{"bid": "garde"}]
    asking = game(url, 4, 23, moves)
    moves.append({"ecart": asking["asked"]["engine"]})
    first = game(url, 4, 23, moves)
    [offer] = first["asked"]["poignees"]  # 10 to 12 trumps: a simple
    assert offer["name"] == "simple" and len(offer["cards"]) == 10 and offer["bonus"] == 20
    assert first["current"]["seats"] == [0, 1]
    shown = game(
        url, 4, 23, [*moves, {"card": first["asked"]["legal"][0], "poignee": offer["cards"]}]
    )
    hidden = game(url, 4, 23, [*moves, {"card": first["asked"]["legal"][0]}])
    # The cards played before the poignée was shown do not depend on it.
    assert (
        shown["tricks"][0]["cards"][:2]
        == hidden["tricks"][0]["cards"][:2]
        == first["current"]["cards"]
    )
    assert {"seat": 2, "cards": offer["cards"]} in shown["poignees"]
    assert all(p["seat"] != 2 for p in hidden["poignees"])


def test_a_hand_that_allows_a_double_may_show_the_simple_instead(url) -> None:
    # Seed 643, 5 players: the player (seat 4) holds ten trumps, the Excuse counted: he may
    # show a double (10, +30) or only a simple (8 of them, +20), and the table then sees those
    # 8 cards.
    moves: list = []
    first = game(url, 5, 643, moves)
    while first["asked"]["kind"] != "card":
        moves.append(next_move(first))
        first = game(url, 5, 643, moves)
    offers = first["asked"]["poignees"]
    assert [o["name"] for o in offers][:2] == ["simple", "double"]
    assert [(len(o["cards"]), o["bonus"]) for o in offers][:2] == [(8, 20), (10, 30)]
    simple = offers[0]["cards"]
    assert set(simple) < set(offers[1]["cards"]) <= set(first["hand"])
    shown = game(url, 5, 643, [*moves, {"card": first["asked"]["legal"][0], "poignee": simple}])
    assert {"seat": first["seat"], "cards": simple} in shown["poignees"]


def test_the_computers_seats_decide_from_what_they_may_know() -> None:
    # Seat 2 (the computer) plays a Garde Contre, the player at seat 3. Seats 0 and 1 lead and
    # follow the first trick: exchanging hands they cannot see changes none of their cards.
    base = replace(dealt(4, 11, "lookahead"), seat=3, bids=[0, 0, 4, 0])
    hands = base.hands

    def first_cards(order: tuple[int, ...]) -> tuple[int, ...]:
        state = play(replace(base, hands=tuple(hands[s] for s in order)), [])
        return tuple(state.game.current)

    played = first_cards((0, 1, 2, 3))
    assert len(played) == 3
    assert first_cards((0, 2, 1, 3))[0] == played[0]  # seat 0 cannot see seats 1 and 2
    assert first_cards((0, 1, 3, 2))[:2] == played[:2]  # nor the taker's and the player's


def test_the_advice_jobs_take_the_bodies_the_game_gives(url) -> None:
    moves = [{"bid": "garde"}]
    ecart = game(url, 4, 0, moves)["asked"]
    advised = run_job(url, "advise", {**ecart["advice"], "samples": 40})
    assert advised["state"] == "done", advised
    recommended = advised["result"]["ecart"]["recommended"]
    moves.append({"ecart": recommended})
    card = game(url, 4, 0, moves)["asked"]
    assert card["kind"] == "card"
    hint = run_job(url, "play", {**card["hint"], "samples": 40})
    assert hint["state"] == "done", hint
    assert sorted(c["card"] for c in hint["result"]["cards"]) == sorted(card["legal"])


def test_the_review_takes_the_finished_deal(url) -> None:
    answers, moves = play_out(url, 4, 3)  # the player defends: its cards are reviewed
    review = run_job(url, "review", {**answers[-1]["review"], "samples": 20})
    assert review["state"] == "done", review
    seat = review["result"]
    assert seat["seat"] == answers[-1]["seat"] and seat["role"] == "defence"
    cards = [d["played"] for d in seat["decisions"] if d["kind"] == "card"]
    mine = [move["card"] for move in moves if "card" in move]
    assert cards == mine


def test_a_chelem_announced_with_the_ecart_gives_the_taker_the_lead(url) -> None:
    moves = [{"bid": "garde"}]
    ecart = game(url, 4, 0, moves)["asked"]["engine"]  # seed 0: the player (seat 2) takes
    plain = game(url, 4, 0, [*moves, {"ecart": ecart}])
    assert plain["current"]["seats"] == [0, 1] and not plain["chelem_announced"]
    announced = game(url, 4, 0, [*moves, {"ecart": ecart, "chelem": True}])
    assert announced["chelem_announced"] and announced["to_play"] == 2
    assert announced["current"]["cards"] == [] and announced["tricks"] == []
    answers, _ = play_out(url, 4, 0)
    assert answers[-1]["record"]["first_leader"] == 0


def test_a_chelem_is_announced_with_a_garde_sans_not_with_a_pass(url) -> None:
    # Seed 3: the player (seat 3) speaks last, after a Garde.
    announced = game(url, 4, 3, [{"bid": "garde_sans", "chelem": True}])
    assert announced["taker"] == 3 and announced["chelem_announced"]
    assert announced["to_play"] == 3 and announced["current"]["cards"] == []
    passed = game(url, 4, 3, [{"bid": "pass", "chelem": True}])
    assert not passed["chelem_announced"] and passed["current"]["seats"] == [0, 1, 2]


def test_the_taker_of_five_learns_its_partner_when_the_called_card_falls(url) -> None:
    answers, _ = play_out(url, 5, 0)  # seed 0: the player (seat 2) takes and calls
    last = answers[-1]
    partner = last["result"]["partner"]
    assert partner is not None and partner != last["seat"]
    falls = next(
        i
        for i, answer in enumerate(answers)
        if any(last["called"] in trick["cards"] for trick in answer["tricks"])
        or last["called"] in answer["current"]["cards"]
    )
    assert all(answer["your_partner"] is None for answer in answers[:falls])
    assert all(answer["your_partner"] == partner for answer in answers[falls:])


def test_a_deal_everybody_passes_is_void(url) -> None:
    answer = game(url, 4, 0, [{"bid": "pass"}])  # seed 0: the others pass too
    assert answer["over"] and answer["void"] and answer["asked"] is None
    assert answer["bids"] == ["pass"] * 4 and answer["scores"] == [0, 0, 0, 0]
    assert "record" not in answer and answer["taker"] is None
    sentence = refused(url, {"players": 4, "seed": 0, "moves": [{"bid": "pass"}, {"card": "1"}]})
    assert sentence == "move 2 is one too many: the deal is over"


def random_move(rng: random.Random, asked: dict) -> dict:
    """Any move the deal offers: a bid, a call, a card among the legal ones; the engine's
    écart; a chelem announced and a poignée shown now and then."""
    kind = asked["kind"]
    if kind == "bid":
        return {"bid": rng.choice(asked["options"]), "chelem": rng.random() < 0.2}
    if kind == "call":
        return {"call": rng.choice(asked["options"])}
    if kind == "ecart":
        return {"ecart": asked["engine"], "chelem": rng.random() < 0.2}
    move = {"card": rng.choice(asked["legal"])}
    if asked["poignees"] and rng.random() < 0.5:
        move["poignee"] = rng.choice(asked["poignees"])["cards"]
    return move


@pytest.mark.parametrize("players", [3, 4, 5])
def test_random_moves_play_to_the_referees_score_sheet(players) -> None:
    """Any moves end in the referee's score sheet; at every card, the hint's partial record
    reads as the player's position, with the same legal cards."""
    rng = random.Random(players)
    for seed in range(100, 106):
        moves: list = []
        state = json.loads(
            answer({"players": players, "seed": seed, "moves": moves, "table": "greedy"})
        )
        while state["asked"] is not None:
            asked = state["asked"]
            if asked["kind"] == "card":  # the hint's partial record: the player's position
                position = read_position(asked["hint"]["record"])
                assert sorted(format_card(c) for c in position.legal()) == sorted(asked["legal"])
            moves.append(random_move(rng, asked))
            state = json.loads(
                answer({"players": players, "seed": seed, "moves": moves, "table": "greedy"})
            )
        assert sum(state["scores"]) == 0
        if not state["void"]:
            assert list(replay(state["record"]).scores) == state["scores"]
