"""How the planted-blunder records beside this file were made (run from the repository root:
``python tests/data/review/make_records.py``). The advisor's contract played by the greedy
for every seat (``analyse_hand(..., keep_records=True)``), then one blunder planted: in a trick
an opponent wins with a trump, the taker plays the Petit instead of the trump he played, and
plays that trump later where he had played the Petit. Both cards are legal where they go and
no trick changes hands, so the record stays legal and only the Petit's fate changes: it is
lost to the defence instead of saved."""

import json
import sys
from pathlib import Path

from tarot_advisor.analyzer.advice.advisor import analyse_hand
from tarot_advisor.analyzer.cards import PETIT, format_card, parse_hand
from tarot_advisor.analyzer.rulebook.record import replay, replay_game

HANDS = {
    3: "21 18 15 13 11 9 7 5 1 R♠ D♠ 8♠ R♥ 4♥ 3♥ C♦ 6♦ 2♦ V♣ 7♣ 4♣ 2♣ 1♣ 9♥",
    4: "20 18 15 13 11 9 7 5 1 R♠ D♠ 8♠ R♥ 4♥ 3♥ C♦ 6♦ 2♦",
    5: "19 16 14 10 8 6 1 R♠ 7♠ 8♠ D♥ 4♥ C♦ 6♦ 3♣",
}


def plant(data: dict) -> dict | None:
    """The record with the Petit thrown away, or None when this deal offers no such trick."""
    game = replay_game(data)
    taker = game.taker
    tricks = [list(t.cards) for t in game.tricks]
    petit_at = next(
        (
            i
            for i, t in enumerate(game.tricks)
            if PETIT in t.cards and t.seats[t.cards.index(PETIT)] == taker
        ),
        None,
    )
    if petit_at is None or game.side(game.tricks[petit_at].winner) != game.side(taker):
        return None  # the taker must have played the Petit and saved it
    for i, trick in enumerate(game.tricks[:petit_at]):
        if game.side(trick.winner) == game.side(taker):
            continue
        mine = trick.cards[trick.seats.index(taker)]
        winning = trick.cards[trick.seats.index(trick.winner)]
        if not (56 < mine < 77 and mine < winning and 56 <= winning <= 76):
            continue
        later = game.tricks[petit_at]
        tricks[i][trick.seats.index(taker)] = PETIT
        tricks[petit_at][later.seats.index(taker)] = mine
        planted = dict(data) | {"tricks": [[format_card(c) for c in t] for t in tricks]}
        planted.pop("result", None)
        try:
            replay(planted)
        except ValueError:
            continue
        if replay_game(planted).tricks[petit_at].winner != later.winner:
            continue
        return planted | {
            "planted": {"trick": i + 1, "played": "1", "instead_of": format_card(mine)}
        }
    return None


def main() -> None:
    for players, hand in HANDS.items():
        analysis = analyse_hand(
            parse_hand(hand, players), players, position=1, samples=50, seed=3, keep_records=True
        )
        for data in analysis.records:
            if data["contract"] != analysis.recommendation or data["taker"] != 0:
                continue
            planted = plant(data)
            if planted:
                blunder = planted.pop("planted")
                path = Path(__file__).parent / f"planted-{players}.json"
                path.write_text(json.dumps(planted, ensure_ascii=False) + "\n", encoding="utf-8")
                print(players, blunder, file=sys.stderr)
                break


if __name__ == "__main__":
    main()
