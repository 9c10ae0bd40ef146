"""Exact probabilities, checked against the reference values of tests/vectors/probabilities.json."""

import json
from math import comb
from pathlib import Path

import pytest

from tarot_advisor.analyzer import exact

VECTORS = json.loads((Path(__file__).parent / "vectors" / "probabilities.json").read_text())


def _reference_entries():
    for section, entries in VECTORS.items():
        if not section.startswith("players_"):
            continue
        players = int(section.removeprefix("players_"))
        for name, value in entries.items():
            yield pytest.param(players, name, value, id=f"{section}-{name}")


def _computed(players: int, name: str):
    laws = {
        "bouts_in_hand": exact.bouts_in_hand,
        "bouts_in_chien": exact.bouts_in_chien,
        "kings_in_hand": exact.kings_in_hand,
        "trumps_in_hand": exact.trumps_in_hand,
    }
    if name in laws:
        return laws[name](players)
    if name.startswith("trumps_and_excuse_at_least_"):
        threshold = int(name.removeprefix("trumps_and_excuse_at_least_"))
        return exact.at_least(exact.trumps_and_excuse_in_hand(players), threshold)
    if name == "given_suit_void":
        return exact.void_in_given_suit(players)
    if name == "petit_sec_for_a_given_player":
        return exact.petit_sec_in_hand(players)
    raise AssertionError(f"no computation for the reference entry {name!r}")


@pytest.mark.parametrize(("players", "name", "reference"), list(_reference_entries()))
def test_every_reference_probability(players, name, reference):
    computed = _computed(players, name)
    if isinstance(reference, dict):
        assert len(computed) == len(reference)
        for k, value in reference.items():
            assert computed[int(k)] == pytest.approx(value, rel=1e-12, abs=1e-18)
    else:
        assert computed == pytest.approx(reference, rel=1e-12)


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_law_sums_to_one(players):
    for law in (
        exact.bouts_in_hand,
        exact.bouts_in_chien,
        exact.kings_in_hand,
        exact.trumps_in_hand,
        exact.suit_length_in_hand,
        exact.voids_in_hand,
        exact.singletons_in_hand,
        exact.longest_suit_in_hand,
        exact.most_trumps_and_excuse_in_deal,
    ):
        assert sum(law(players)) == pytest.approx(1.0, abs=1e-12), law.__name__


def test_poignee_thresholds_follow_the_player_count():
    # 4 players: a simple poignée is 10 trumps (Excuse included), a double 13, a triple 15.
    law = exact.trumps_and_excuse_in_hand(4)
    assert exact.poignees_in_hand(4) == (
        pytest.approx(sum(law[10:])),
        pytest.approx(sum(law[13:])),
        pytest.approx(sum(law[15:])),
    )


def test_petit_sec_is_the_petit_with_only_suited_cards():
    # 4 players: the Petit plus 17 of the 56 suited cards, among all 18-card hands.
    assert exact.petit_sec_in_hand(4) == pytest.approx(comb(56, 17) / comb(78, 18))
    # Only one hand holds the Petit: the events of the four hands are disjoint.
    assert exact.petit_sec_in_deal(4) == pytest.approx(4 * exact.petit_sec_in_hand(4))


def test_suit_laws_agree_with_one_another():
    # A given suit is void with probability P(length 0); four suits make the expected voids.
    lengths = exact.suit_length_in_hand(4)
    assert lengths[0] == pytest.approx(exact.void_in_given_suit(4))
    voids = exact.voids_in_hand(4)
    assert sum(k * p for k, p in enumerate(voids)) == pytest.approx(4 * lengths[0])
    singletons = exact.singletons_in_hand(4)
    assert sum(k * p for k, p in enumerate(singletons)) == pytest.approx(4 * lengths[1])
    # With 18 cards and 22 trump-like cards, the longest suit can be empty only if all 18 are
    # trumps or the Excuse.
    assert exact.longest_suit_in_hand(4)[0] == pytest.approx(comb(22, 18) / comb(78, 18))


def test_someone_holds_a_poignee_more_often_than_one_given_hand():
    simple, double, triple = exact.poignees_in_hand(4)
    in_deal = exact.poignees_in_deal(4)
    # Two hands can both hold 10 of the 22 trumps and Excuse, so "someone" is less than 4 times
    # "a given hand"; two hands cannot both hold 13, so there the four events are disjoint.
    assert simple < in_deal[0] < 4 * simple
    assert in_deal[1] == pytest.approx(4 * double)
    assert in_deal[2] == pytest.approx(4 * triple)
