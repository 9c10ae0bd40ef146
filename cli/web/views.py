"""What the page shows of a result: the command line's own table cells and sentences, cut into
the pieces a web page lays out (a card's row, the advice, the footnotes), in a player's words
(:func:`.words.plain`). The page draws its bars from the result's JSON itself."""

from __future__ import annotations

from tarot_advisor.analyzer.advice.analysis import Analysis
from tarot_advisor.analyzer.advice.cardplay import CardAdvice
from tarot_advisor.analyzer.advice.ecart_advice import EcartAnalysis
from tarot_advisor.analyzer.advice.review_decision import (
    SIGNIFICANT_POINTS,
    SIGNIFICANT_SE,
    DealReview,
)
from tarot_advisor.analyzer.cards import format_card, format_cards
from tarot_advisor.analyzer.game import bid_label
from tarot_advisor.cli.advise import (
    advice_line,
    contract_cells,
    count_line,
    render,
    sensitivity_lines,
)
from tarot_advisor.cli.advise_reading import chelem_line, poignee_line, reading_lines
from tarot_advisor.cli.auction_view import action_label, action_rows, auction_heard, versus_cell
from tarot_advisor.cli.ecart_view import ecart_cells, render_ecart
from tarot_advisor.cli.play import card_cells, table
from tarot_advisor.cli.review import decision_cells, seat_summary
from tarot_advisor.cli.web.words import plain


def advice_view(analysis: Analysis) -> dict:
    """The bid's advice: every line of ``tarot-advise``'s table."""
    lines = render(analysis).splitlines()
    auction = None
    if analysis.auction is not None:
        auction = {
            "heard": plain(auction_heard(analysis)),
            "actions": [
                {
                    "label": action_label(action),
                    "value": value,
                    "versus": versus_cell(analysis, action),
                    "advised": action == analysis.recommendation,
                }
                for action, value in action_rows(analysis)
            ],
        }
    return {
        "kind": "bid",
        "title": lines[0],
        "count": count_line(analysis),
        "call": next((plain(line) for line in lines if line.startswith("Call: ")), None),
        "columns": ["Contract", "P(make) [95%]", "E[score] ± 95%", "Petit au bout", "Chelem"],
        "rows": [
            {
                "cells": contract_cells(analysis, contract),
                "advised": contract.value == analysis.recommendation,
            }
            for contract in analysis.contracts
        ],
        "auction": auction,
        "headline": "Pass"
        if analysis.recommendation == "pass"
        else f"Bid {bid_label(analysis.recommendation)}",
        "advice": plain(advice_line(analysis)),
        "poignee": plain(poignee_line(analysis)),
        "chelem": plain(chelem_line(analysis)),
        "notes": [plain(line) for line in sensitivity_lines(analysis) + reading_lines(analysis)],
        "footer": plain(lines[-1]),
    }


def ecart_view(analysis: EcartAnalysis) -> dict:
    """The écart's advice: ``tarot-advise --chien``'s table."""
    lines = render_ecart(analysis).splitlines()
    return {
        "kind": "ecart",
        "title": lines[0],
        "subtitle": lines[1],
        "columns": ["Écart", "E[score] ± 95%", "P(make) ± 95%", "vs best", "Poignée", "Ideas"],
        "rows": [
            {
                "cells": [plain(cell) for cell in ecart_cells(result)],
                "advised": result is analysis.recommended,
                "cards": [format_card(card) for card in result.cards],
            }
            for result in analysis.candidates
        ],
        "headline": f"Discard {format_cards(analysis.recommended.cards)}",
        "advice": plain(next(line for line in lines if line.startswith("Advice: "))),
        "played": plain(lines[-2]),
        "footer": plain(lines[-1]),
    }


def play_view(advice: CardAdvice, seconds: float) -> dict:
    """The card play's advice: ``tarot-play``'s table, best card first."""
    lines = table(advice, seconds).splitlines()
    return {
        "kind": "play",
        "columns": ["Card", "E[score] (you)", "vs best", "P(make) [95%]"],
        "rows": [
            {
                "cells": card_cells(estimate, rank),
                "card": format_card(estimate.card),
                "greedy": estimate.card == advice.greedy_choice,
            }
            for rank, estimate in enumerate(advice.cards)
        ],
        # The deals and the meaning of "vs best"; not the record's seat numbers (the page names
        # the seats itself).
        "notes": [plain(lines[-3]), lines[-2]],
    }


def review_view(review: DealReview) -> dict:
    """The deal's review: ``tarot-review``'s table and sentences for each seat, and the tricks
    (cards in play order, who played them, who won) for the page to draw beside the cards."""
    game = review.game
    seats = [
        {
            "seat": seat.seat,
            "role": seat.role,
            "hand": [format_card(card) for card in seat.hand],
            "rows": [
                {
                    "cells": decision_cells(decision),
                    "significant": decision.significant,
                    "trick": decision.trick,
                }
                for decision in seat.decisions
            ],
            "summary": seat_summary(seat),
        }
        for seat in review.seats
    ]
    tricks = [
        {
            "cards": [format_card(card) for card in trick.cards],
            "seats": list(trick.seats),
            "winner": trick.winner,
        }
        for trick in review.game.tricks
    ]
    return {
        "kind": "review",
        "title": f"{game.contract.label}, {game.players} players · {review.samples:,} deals per"
        f" card · {review.seconds:.1f} s",
        "columns": ["Decision", "Played", "Best", "Cost", "± SE", ""],
        "taker": game.taker,
        "seats": seats,
        "tricks": tricks,
        "footer": "Cost: the points a choice lost against the best one, on the same deals; ◀: over"
        f" {SIGNIFICANT_SE:g} × its ± SE and at least {SIGNIFICANT_POINTS:g} points",
    }
