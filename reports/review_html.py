"""The review of played deals as one self-contained web page: the deal drawn trick by trick.

Cards are drawn by the page itself (HTML and CSS, no image or font fetched): suited cards with
their rank and suit, red for ♥ and ♦; trumps as numbered cards on a blue ground; the Excuse as
a star. Each trick is a row, seats in columns, the leader's card underlined and the winner's
framed; the reviewed seat's cards are lit, and a costly card (over 2 SE and at least 10 points)
is marked in red beside the best card and its cost. The same review as the command's output.
"""

from __future__ import annotations

import html
from collections.abc import Sequence

from tarot_advisor.analyzer.advice.review_decision import DealReview, Decision, SeatReview
from tarot_advisor.analyzer.cards import (
    EXCUSE,
    RANK,
    RANK_NAMES,
    SUIT,
    SUIT_SYMBOLS,
    TRUMP,
    format_card,
    sort_cards,
)

_STYLE = """
body { font-family: system-ui, sans-serif; max-width: 68rem; margin: 1.5rem auto; padding: 0 1rem;
       color: #222; line-height: 1.4; background: #f6f4ee; }
h1 { font-size: 1.5rem; } h2 { font-size: 1.25rem; margin-top: 2rem; }
h3 { font-size: 1.05rem; margin: 1.2rem 0 0.4rem; }
.note { color: #555; font-size: 0.9rem; }
.card { display: inline-flex; flex-direction: column; justify-content: space-between;
        width: 2.7rem; height: 3.8rem; margin: 0.1rem; padding: 0.15rem 0.25rem;
        box-sizing: border-box; border: 1px solid #999; border-radius: 0.35rem; background: #fff;
        font-weight: 600; font-size: 0.95rem; vertical-align: middle;
        box-shadow: 0 1px 2px rgba(0,0,0,0.15); }
.card .pip { font-size: 1.45rem; text-align: center; line-height: 1; }
.card.red { color: #c0182b; } .card.black { color: #1b1b1b; }
.card.trump { background: #e3ecfa; color: #173d7a; border-color: #6d8fc9; }
.card.trump .pip { font-size: 1.25rem; }
.card.excuse { background: #fbf1d6; color: #8a5a00; border-color: #c9a14a; }
.card.bout { box-shadow: 0 0 0 2px #d4a017; }
.card.mine { outline: 3px solid #2e8b57; outline-offset: 1px; }
.card.costly { outline: 3px solid #d11; outline-offset: 1px; }
.card.winner { border: 2px solid #222; }
.card.small { width: 2.1rem; height: 2.9rem; font-size: 0.8rem; }
.card.small .pip { font-size: 1.1rem; }
table { border-collapse: collapse; margin: 0.5rem 0; font-size: 0.92rem; }
th, td { padding: 0.25rem 0.5rem; border-bottom: 1px solid #ddd; text-align: left;
         vertical-align: middle; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
tr.costly td { background: #fde8e8; }
.led { font-size: 0.75rem; color: #777; display: block; height: 0.9rem; }
.summary { background: #fff; border: 1px solid #ddd; border-radius: 0.5rem; padding: 0.6rem 1rem; }
.summary li { margin: 0.2rem 0; }
.flag { color: #c11; font-weight: 700; }
"""


def card_html(card: int, *classes: str) -> str:
    """One card drawn in HTML: its rank in the corner, its suit (or trump number) large."""
    card = int(card)
    names = ["card", *classes]
    if card == EXCUSE:
        corner, pip = "Exc", "★"
        names.append("excuse")
    elif SUIT[card] == TRUMP:
        corner, pip = "", str(int(RANK[card]))
        names.append("trump")
    else:
        rank = int(RANK[card])
        corner, pip = RANK_NAMES.get(rank, str(rank)), SUIT_SYMBOLS[SUIT[card]]
        names.append("red" if SUIT[card] in (1, 2) else "black")
    if card in (56, 76, EXCUSE):
        names.append("bout")
    title = html.escape(format_card(card))
    return (
        f'<span class="{" ".join(names)}" title="{title}"><span>{html.escape(corner)}</span>'
        f'<span class="pip">{html.escape(pip)}</span><span></span></span>'
    )


def cards_html(cards: Sequence[int], *classes: str) -> str:
    return "".join(card_html(c, *classes) for c in cards)


def _cost(decision: Decision) -> str:
    if decision.cost is None:
        return "not measured"
    return f"{decision.cost.mean:.1f} ± {decision.cost.se:.1f}"


def _calls_table(review: SeatReview) -> str:
    rows = [d for d in review.decisions if d.kind != "card"]
    if not rows:
        return ""
    names = {"bid": "Bid", "ecart": "Écart", "poignee": "Poignée", "chelem": "Chelem"}
    body = []
    for d in rows:
        css = ' class="costly"' if d.significant else ""
        body.append(
            f"<tr{css}><td>{names[d.kind]}</td><td>{html.escape(d.played)}</td>"
            f"<td>{html.escape(d.best or '–')}</td><td class=num>{_cost(d)}</td>"
            f'<td class="note">{html.escape(d.note)}</td></tr>'
        )
    return (
        "<h3>Before the first card</h3><table><tr><th>Decision</th><th>Played</th><th>Best</th>"
        "<th>Cost (points)</th><th></th></tr>" + "".join(body) + "</table>"
    )


def _tricks_table(review: DealReview, seat_review: SeatReview) -> str:
    game = review.game
    n = game.players
    by_trick = {d.trick: d for d in seat_review.decisions if d.kind == "card"}
    head = "".join(
        f"<th>Seat {s}{' (taker)' if s == game.taker else ''}"
        f"{' ◀ you' if s == seat_review.seat else ''}</th>"
        for s in range(n)
    )
    rows = []
    for trick in game.tricks:
        cells = []
        for s in range(n):
            i = trick.seats.index(s)
            card = trick.cards[i]
            classes = []
            decision = by_trick.get(trick.number)
            if s == seat_review.seat:
                classes.append("costly" if decision and decision.significant else "mine")
            if s == trick.winner:
                classes.append("winner")
            led = "led ▾" if i == 0 else ""
            cells.append(f'<td><span class="led">{led}</span>{card_html(card, *classes)}</td>')
        decision = by_trick.get(trick.number)
        css = ' class="costly"' if decision and decision.significant else ""
        rows.append(
            f"<tr{css}><td class=num>{trick.number}</td>{''.join(cells)}"
            f"<td>{_verdict(decision)}</td></tr>"
        )
    return (
        "<h3>The play</h3><p class=note>led: the trick's first card · framed: the trick's winner · "
        "green: the reviewed seat's card · red: a costly card (over 2 SE and at least 10 points)"
        "</p><table><tr><th>Trick</th>" + head + "<th>Review</th></tr>" + "".join(rows) + "</table>"
    )


def _verdict(decision: Decision | None) -> str:
    if decision is None:
        return ""
    if decision.note:
        return f'<span class="note">{html.escape(decision.note)}</span>'
    if decision.cost is None or decision.best == decision.played:
        return '<span class="note">best card</span>'
    flag = '<span class="flag">✗ </span>' if decision.significant else ""
    ranking = ", ".join(
        f"{r['card']} {r['versus_best']:+.0f}".replace("-", "−") for r in decision.ranking[:4]
    )
    remark = f" — {html.escape(decision.remark)}" if decision.remark else ""
    return (
        f"{flag}best: <b>{html.escape(decision.best or '')}</b> · cost {_cost(decision)}{remark}"
        f'<br><span class="note">vs best: {html.escape(ranking)}</span>'
    )


def seat_section(review: DealReview, seat_review: SeatReview) -> str:
    total = seat_review.total_cost
    costliest = "".join(f"<li>{html.escape(d.sentence())}</li>" for d in seat_review.costliest())
    return (
        f"<h2>Seat {seat_review.seat} ({seat_review.role})</h2>"
        f"<div>{cards_html(sort_cards(seat_review.hand), 'small')}</div>"
        f'<div class="summary"><b>Total expected cost: {total.mean:.1f} ± {total.se:.1f} '
        f"points</b><ol>{costliest or '<li>no decision cost anything</li>'}</ol></div>"
        + _calls_table(seat_review)
        + _tricks_table(review, seat_review)
    )


def deal_section(number: int, review: DealReview) -> str:
    game = review.game
    aside = game.discard if game.contract.takes_chien else game.chien
    aside_name = "Écart" if game.contract.takes_chien else "Chien"
    chien = ""
    if game.contract.takes_chien and game.chien is not None:
        chien = f"<p>Chien: {cards_html(sort_cards(game.chien), 'small')}</p>"
    parts = [
        f"<h1>Deal {number}: {html.escape(game.contract.label)}, {game.players} players,"
        f" taker seat {game.taker}</h1>",
        f'<p class="note">{review.samples} worlds of the unseen cards per card played · seed'
        f" {review.seed} · cost = E[best] − E[played] for the seat, on the same worlds</p>",
        chien,
        f"<p>{aside_name}: {cards_html(sort_cards(aside or ()), 'small')}</p>",
    ]
    parts += [seat_section(review, s) for s in review.seats]
    return "\n".join(parts)


def review_page(reviews: Sequence[tuple[int, DealReview]]) -> str:
    """The whole page for the reviewed deals ``(number, review)``, as HTML text."""
    body = "\n<hr>\n".join(deal_section(number, review) for number, review in reviews)
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        f"<title>Deal review</title><style>{_STYLE}</style></head><body>\n{body}\n</body></html>\n"
    )
