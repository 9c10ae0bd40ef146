"""The engine knows what rules.md §12 says a player knows, no more and no less.

The yardstick is the oracle (tests/knowledge_oracle.py), derived from the deal record alone by
the referee. At cut points of deals (the engine's own playouts for 3, 4 and 5 players and every
contract, written as records; and played deals replayed through the engine), what the player to
act knows must be the oracle's, as each model states it:

- the table's knowledge (``knowledge.of``: the other players' sure and possible cards, the
  known allies), read at the decision, after the cards were laid down through the engine;
- the lookahead's sampler input (its constraints, from the table);
- the position read from the partial record (``search/position.py``'s constraints).
"""

from __future__ import annotations

import glob
from pathlib import Path

import numpy as np
import pytest
from knowledge_oracle import Known, knowledge_at, partial_record
from policy_helpers import deal_of

from tarot_advisor.analyzer.cards import format_cards
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.analyzer.players.greedy import GreedyPolicy
from tarot_advisor.analyzer.playout import bitboard as bb
from tarot_advisor.analyzer.playout import knowledge
from tarot_advisor.analyzer.playout.deal import Deals, deal
from tarot_advisor.analyzer.playout.ecart import FixedEcart
from tarot_advisor.analyzer.playout.engine import play, play_on, start
from tarot_advisor.analyzer.playout.scoring import records
from tarot_advisor.analyzer.rulebook.calling import longest_suit_call
from tarot_advisor.analyzer.rulebook.record import game_of_record, load_records, parse_record
from tarot_advisor.analyzer.rulebook.rules import RuleError
from tarot_advisor.analyzer.search import known
from tarot_advisor.analyzer.search.position import constraints, read_position

ROOT = Path(__file__).parent.parent


def cards(lo, hi) -> frozenset[int]:
    return frozenset(bb.to_cards(int(lo), int(hi)))


class Sets:
    """Holders' sure and possible cards and counts, holders by seat then the aside."""

    def __init__(self, must: list[frozenset[int]], may: list[frozenset[int]], count: list[int]):
        # A card some holder surely holds is no other's to take: the sampler reads it so.
        self.must = must
        self.may = [
            m - frozenset().union(*(o for j, o in enumerate(must) if j != i))
            for i, m in enumerate(may)
        ]
        self.count = list(count)

    def differences(self, other: Sets) -> list[str]:
        out = []
        for i, (a, b) in enumerate(zip(self.must, other.must, strict=True)):
            if a != b:
                out.append(f"holder {i} holds: +{format_cards(a - b)} -{format_cards(b - a)}")
        for i, (a, b) in enumerate(zip(self.may, other.may, strict=True)):
            if a != b:
                out.append(f"holder {i} may hold: +{format_cards(a - b)} -{format_cards(b - a)}")
        if self.count != other.count:
            out.append(f"counts {self.count} != {other.count}")
        return out


def oracle_sets(known: Known) -> Sets:
    return Sets(
        [*known.holds, known.aside_holds],
        [*known.may_hold, known.aside_may_hold],
        [*known.counts, 6 if len(known.counts) < 5 else 3],
    )


def constraint_sets(c, row: int = 0) -> Sets:
    h = c.holders
    return Sets(
        [cards(c.must_lo[row, i], c.must_hi[row, i]) for i in range(h)],
        [cards(c.may_lo[row, i], c.may_hi[row, i]) for i in range(h)],
        [int(x) for x in c.count[row]],
    )


class Spy:
    """Plays like the greedy; at the decisions ``steps`` (cards already played) it keeps, for
    every deal, what the table's knowledge model and the lookahead's constraints say."""

    name = "spy"

    def __init__(self, steps) -> None:
        self.steps, self.seen = set(steps), {}
        self.inner = GreedyPolicy()

    def choose(self, turn, rng):
        table = turn.table
        step = table.trick * table.players + turn.position
        if step in self.steps:
            self.seen[step] = _engine_view(turn)
        return self.inner.choose(turn, rng)


def _engine_view(turn) -> list[dict]:
    table, k = turn.table, turn.position
    know = knowledge.of(turn)
    every = np.arange(table.n_deals)
    sampler = known.constraints_of(turn, every, likely=False)
    view = []
    for d in every:
        seats = table.seat[:, d].tolist()
        view.append(
            {
                "seat": seats[k],
                "holds": {
                    seats[r]: cards(know.holds_lo[r, d], know.holds_hi[r, d])
                    for r in range(table.players)
                    if r != k
                },
                "may_hold": {
                    seats[r]: cards(know.may_hold_lo[r, d], know.may_hold_hi[r, d])
                    for r in range(table.players)
                    if r != k
                },
                "allies": frozenset(seats[r] for r in range(table.players) if know.ally[r, d]),
                "sampler": constraint_sets(sampler, d),
            }
        )
    return view


def compare(record: dict, cut: int, engine: dict) -> list[str]:
    """What the oracle and the three models say differently, for the player to act."""
    parsed = parse_record(record)
    known = knowledge_at(parsed, cut)
    where = f"cut {cut}, seat {known.seat}: "
    out = []
    if engine["seat"] != known.seat:
        return [where + f"the engine asks seat {engine['seat']}"]
    for seat, may in engine["may_hold"].items():
        if may != known.may_hold[seat]:
            extra, missing = may - known.may_hold[seat], known.may_hold[seat] - may
            out.append(f"seat {seat} may hold +{format_cards(extra)} -{format_cards(missing)}")
        if engine["holds"][seat] != known.holds[seat]:
            out.append(f"seat {seat} holds {format_cards(engine['holds'][seat])}")
    if engine["allies"] != known.allies:
        out.append(f"allies {sorted(engine['allies'])} != {sorted(known.allies)}")
    expected = oracle_sets(known)
    out += ["lookahead: " + d for d in engine["sampler"].differences(expected)]
    return [where + d for d in out] + compare_position(record, cut)


def compare_position(record: dict, cut: int) -> list[str]:
    """What the oracle and ``search/position.py`` say differently, for the player to act."""
    known = knowledge_at(parse_record(record), cut)
    position = read_position(partial_record(record, cut, known.seat))
    found = constraint_sets(constraints(position, likely=False))
    where = f"cut {cut}, seat {known.seat}: position: "
    return [where + d for d in found.differences(oracle_sets(known))]


def engine_deals(players: int, contract: Contract, seed: int, n_deals: int, steps) -> tuple:
    rng = np.random.default_rng(seed)
    deals = deal(rng, n_deals, players, reject_petit_sec=True)
    taker = rng.integers(0, players, n_deals)
    options = {}
    if players == 5:
        options["called"] = longest_suit_call(deals.hands[np.arange(n_deals), taker])
    spy = Spy(steps)
    playout = play(deals, taker, contract, spy, rng=rng, **options)
    return records(playout), spy.seen


QUICK = {
    (3, Contract.GARDE),
    (4, Contract.PRISE),
    (4, Contract.GARDE_CONTRE),
    (5, Contract.GARDE),
    (5, Contract.GARDE_SANS),
}
"""The cases the fast tier keeps: every number of players, every contract, the chien shown and
not, the called king; the slow tier plays the other seven too."""


@pytest.mark.parametrize(
    ("players", "contract"),
    [
        pytest.param(
            players,
            contract,
            marks=() if (players, contract) in QUICK else pytest.mark.slow,
            id=f"{contract.value}-{players}",
        )
        for contract in Contract
        for players in (3, 4, 5)
    ],
)
def test_the_engine_knows_what_the_oracle_knows(players: int, contract: Contract) -> None:
    seed = 1000 * players + list(Contract).index(contract)
    rng = np.random.default_rng(seed)
    last = (15 if players == 5 else 18 if players == 4 else 24) - 1
    steps = sorted(rng.choice(last * players, 5, replace=False).tolist())
    deals, seen = engine_deals(players, contract, seed, 40, steps)
    failures = []
    for step in steps:
        for record, view in zip(deals, seen[step], strict=True):
            failures += compare(record, step, view)
    # The last trick, which the engine plays without asking: the position's knowledge alone.
    for record in deals[:10]:
        for step in range(last * players, (last + 1) * players):
            failures += compare_position(record, step)
    assert failures == [], f"{len(failures)} differences, first: {failures[:5]}"


def test_the_trumps_shown_from_the_ecart_are_known_to_all() -> None:
    # Seat 0 takes a Garde with four kings and trumps only: with the chien's two low spades it
    # has too few other cards, so four trumps go to the écart, shown to all.
    hand = "R♠ R♥ R♦ R♣ 21 20 19 18 17 16 15 14 13 12 11 10 9 Excuse"
    deals = deal_of({0: hand}, chien="2♠ 3♠ 8 7 6 5")
    steps = list(range(0, 40, 3))
    spy = Spy(steps)
    playout = play(deals, 0, Contract.GARDE, spy, rng=np.random.default_rng(0))
    (record,) = records(playout)
    assert sum(card.isdigit() for card in record["discard"]) >= 4
    failures = [f for step in steps for f in compare(record, step, spy.seen[step][0])]
    assert failures == [], failures[:5]


# --- played deals, replayed through the engine --------------------------------------------------


class Script(Spy):
    """Plays the record's cards in order, keeping the engine's view at every decision."""

    def __init__(self, record) -> None:
        self.cards = [card for trick in record.tricks for card in trick]
        super().__init__(range(len(self.cards)))

    def choose(self, turn, rng):
        table = turn.table
        step = table.trick * table.players + turn.position
        self.seen[step] = _engine_view(turn)
        return bb.from_cards(np.array([[self.cards[step]]]))


class ShownPoignees:
    """Shows the record's poignées: each seat the recorded cards in its hand."""

    def __init__(self, record) -> None:
        self.shown = bb.from_cards(np.array([[c for _, cs in record.poignees for c in cs]]))[1]

    def choose(self, hand_hi, players):
        return hand_hi & self.shown


def replay_through_engine(data: dict) -> dict[int, list[dict]] | None:
    """The engine's view at every decision of a played deal, or None when the engine cannot
    seat it (a first lead not by seat 0, or a Prise or Garde whose chien is not given)."""

    record = parse_record(data)
    takes = record.contract.takes_chien
    first = record.taker if record.chelem_announced else 0
    if record.first_leader != first or (takes and record.chien is None):
        return None
    game = game_of_record(record)
    hands = [
        game.dealt_taker_hand if s == record.taker else game.hands[s] for s in range(record.players)
    ]
    row = [c for hand in hands for c in hand] + list(game.chien)
    deals = Deals(record.players, np.array([row], np.uint8))
    options = {}
    if takes:
        options["ecart_policy"] = FixedEcart(*bb.from_cards(np.array([game.discard])))
    inplay = start(
        deals,
        record.taker,
        record.contract,
        called=record.called,
        poignee_policy=ShownPoignees(record),
        announce_chelem=record.chelem_announced,
        **options,
    )
    script = Script(record)
    play_on(inplay, script, rng=np.random.default_rng(0))
    return {step: view[0] for step, view in script.seen.items()}


PLAYED = sorted(glob.glob(str(ROOT / "tests/data/tarotclub/*.json"))) + sorted(
    glob.glob(str(ROOT / "data/deals/*.json*"))
)


@pytest.mark.parametrize("path", PLAYED, ids=lambda p: Path(p).name)
def test_the_engine_knows_what_the_oracle_knows_in_played_deals(path: str) -> None:
    compared = 0
    for data in load_records(Path(path).read_text(encoding="utf-8")):
        try:
            seen = replay_through_engine(data)
        except RuleError:  # a record the referee refuses (an illegal deal, on purpose)
            assert "illegal" in path
            continue
        if seen is None:
            continue
        failures = [f for step, view in seen.items() for f in compare(data, step, view)]
        assert failures == [], failures[:5]
        compared += len(seen)
    if not compared:
        pytest.skip("the engine cannot seat these deals (first lead, or no chien given)")
