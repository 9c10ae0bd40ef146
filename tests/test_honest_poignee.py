"""An honest poignée: what the shown trumps tell the defence can only help the defence.

The gain of showing splits into the bonus (rules.md §7: to the side that wins the contract) and
the information: every other change of the score, from the play the shown trumps changed. A
defence that uses what it knows, and nothing else (rules.md §12), can only use that knowledge
against the taker, so the information part must not be positive: here ≤ 3 standard errors, on
hands that show the Petit and hands that keep it hidden, with 3, 4 and 5 players, under every
contract.
"""

import pytest
from greedy_table import GREEDY

from tarot_advisor.analyzer.advice.advisor import analyse_hand
from tarot_advisor.analyzer.cards import parse_hand
from tarot_advisor.analyzer.game import Contract

HANDS = {
    # 10 trumps with 4 players: a simple poignée needs all of them, the Petit shown (issue 9).
    "4p-petit-shown": (4, "21 19 17 15 13 11 9 7 5 1 R♠ D♠ R♥ 8♥ 4♦ 2♦ V♣ 3♣"),
    # 11 trumps: the poignée of 10 keeps the Petit hidden (unless the chien makes it a double).
    "4p-petit-hidden": (4, "20 18 16 14 12 10 8 6 4 2 1 R♠ D♠ R♥ 8♥ 4♦ 2♦ 3♣"),
    # 13 trumps with 3 players: exactly a simple poignée, the Petit shown.
    "3p-petit-shown": (3, "21 19 17 15 13 12 11 9 7 5 3 2 1 R♠ D♠ 5♠ R♥ 8♥ 4♥ 4♦ 2♦ V♣ 3♣ 2♣"),
    # 13 trumps, no Petit.
    "3p-no-petit": (3, "21 20 18 17 15 13 12 11 9 7 5 3 2 R♠ D♠ 5♠ R♥ 8♥ 4♥ 4♦ 2♦ V♣ 3♣ 2♣"),
    # 8 trumps with 5 players: exactly a simple poignée, the Petit shown.
    "5p-petit-shown": (5, "21 19 15 12 9 6 3 1 R♠ D♥ 8♥ 7♦ 4♦ 3♣ 2♣"),
    # 9 trumps: the poignée of 8 keeps the Petit hidden.
    "5p-petit-hidden": (5, "20 18 16 13 11 8 5 2 1 R♥ C♥ 6♦ 2♦ 4♣ 3♣"),
}
SAMPLES = 2000
MAX_Z = 3.0


@pytest.fixture(scope="module", params=list(HANDS))
def analysis(request):
    players, text = HANDS[request.param]
    return analyse_hand(parse_hand(text, players), players, samples=SAMPLES, seed=9, **GREEDY)


@pytest.mark.parametrize("contract", list(Contract), ids=lambda c: c.value)
def test_what_showing_tells_the_defence_never_pays_the_taker(analysis, contract):
    poignee = analysis.poignees[contract]
    assert poignee.eligible
    information = poignee.information
    assert information.mean <= MAX_Z * information.se, (
        f"showing gains {information.mean:+.1f} ± {information.se:.1f} beyond its bonus"
    )
