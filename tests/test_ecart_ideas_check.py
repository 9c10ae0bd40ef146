"""tarot-report ecart-ideas: the named écart ideas against the engine's écart, over hands."""

import json

import numpy as np
from click.testing import CliRunner

from tarot_advisor.analyzer.advice.heuristic import point_counts
from tarot_advisor.analyzer.game import Contract
from tarot_advisor.cli.report import main
from tarot_advisor.reports.ecart_ideas import check_ideas, family, study_hands


def test_the_voids_of_each_suit_and_the_engine_variations_are_one_idea_each():
    assert family("void ♠") == family("void ♦") == "void one suit"
    assert family("void ♠ and ♣") == "void two suits"
    assert family("engine, keeping D♣ for 7♣") == "engine, one card changed"
    assert family("keep length") == "keep length"


def test_a_small_check_is_reproducible_and_never_counts_the_engine_against_itself():
    one = check_ideas(4, contract=Contract.PRISE, hands=3, samples=40, seed=5)
    two = check_ideas(4, contract=Contract.PRISE, hands=3, samples=40, seed=5)
    assert one.to_dict() == two.to_dict()
    assert one.hands == 3
    names = [idea.idea for idea in one.ideas]
    assert "engine" not in names and "void one suit" in names
    assert all(1 <= idea.hands <= 3 for idea in one.ideas)
    assert names == [i.idea for i in sorted(one.ideas, key=lambda i: -i.gain.mean)]


def _not_json(constant: str):
    raise ValueError(f"{constant} is not JSON")


def test_the_command_prints_a_table_or_one_json_document():
    args = ["ecart-ideas", "--players", "5", "--hands", "2", "--samples", "20", "--quiet"]
    table = CliRunner().invoke(main, args)
    assert table.exit_code == 0, table.output
    assert "against the engine's écart: 2 random 5-player hands" in table.output
    document = CliRunner().invoke(main, [*args, "--json"])
    assert document.exit_code == 0, document.output
    # A lone hand's SE is null, never NaN (which is not JSON).
    parsed = json.loads(document.output, parse_constant=_not_json)
    assert parsed["players"] == 5 and parsed["hands"] == 2


def test_strong_hands_are_drawn_until_there_are_as_many_as_asked():
    # 65 points or more: about 8 hands in each draw of 4,000 deals; 20 take several draws.
    first = study_hands(np.random.default_rng(2026), 4, 8, 65)
    hands = study_hands(np.random.default_rng(2026), 4, 20, 65)
    assert len(hands) == 20
    assert all((a == b).all() for (a, _), (b, _) in zip(first, hands[:8], strict=True))
    assert all(point_counts(hand[None, :])[0][0] >= 65 for hand, _ in hands)
    assert all(len(hand) == 18 and len(chien) == 6 for hand, chien in hands)


def test_hands_too_rare_to_draw_are_one_sentence():
    result = CliRunner().invoke(
        main, ["ecart-ideas", "--hands", "5", "--samples", "2", "--min-points", "95"]
    )
    assert result.exit_code == 2
    assert result.stderr == (
        "Error: hands of 95 points or more are too rare: 0 in 400,000 random deals, not the 5 "
        "asked for (--hands); ask for fewer, or lower --min-points\n"
    )
