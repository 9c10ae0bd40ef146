"""The page on a phone (390 × 844) and on a desktop (1280 × 900), in a real browser: once the
bid's advice, the écart's, a card's ranking, a score sheet and a review are shown, nothing is
wider than the screen, every control is at least 24 × 24 px, and the page speaks a player's
words, naming the seats from the player's chair.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from web_browser import BOTH_SIZES, DESKTOP, PHONE, browser, layout_faults, open_at  # noqa: F401
from web_helpers import serve  # noqa: F401  (serve: the fixture url)

pytestmark = pytest.mark.slow  # a browser, some seconds a page

BLUNDER = Path(__file__).parent.parent / "data" / "deals" / "blunder-garde-4p.json"
LINK = (
    "?players=4&hand=21,19,12,6,1,Excuse,RH,CH,10H,8H,1H,VD,8D,DC,CC,7C,6S,4S"
    "&chien=3D,5C,9S,13,2H,DS&bids=pass"
)
JARGON = [
    "greedy",
    "lookahead",
    "steadied",
    "seed",
    "sample",
    "worlds",
    "engine",
    "seat 0",
    "Seat 0",
    "as in the record",
    "--",
    "tarot-",
]
"""The command line's words, which a player's page never shows."""


def jargon(page) -> list[str]:
    text = page.inner_text("body")
    return [word for word in JARGON if word in text]


def wait_done(page, box: str) -> None:
    page.wait_for_selector(f"{box}:not([hidden])", timeout=120_000)


def load_blunder_as_the_taker(page) -> None:
    """Loads the finished blunder deal as the taker's (seat 0, every card played): the page
    scores it and offers its review, naming the seats from the taker's chair."""
    record = json.loads(BLUNDER.read_text(encoding="utf-8")) | {"seat": 0, "hand": []}
    mine = {
        "name": "mine.json",
        "mimeType": "application/json",
        "buffer": json.dumps(record).encode(),
    }
    page.set_input_files("#load", files=[mine])


def assert_fits_and_speaks_plainly(page) -> None:
    page.evaluate("document.querySelectorAll('details').forEach((box) => { box.open = true; })")
    faults = layout_faults(page)
    assert faults == [], "\n".join(faults[:40])
    assert jargon(page) == []


@BOTH_SIZES
def test_every_panel_fits_the_screen_in_a_players_words(open_at, size) -> None:  # noqa: F811
    page = open_at(size, LINK, quick=True)
    wait_done(page, "#ecart-result")  # the link asks for the écart
    page.click("#advise")
    wait_done(page, "#advice-panel")
    page.select_option("#play-taker", "2")  # opposite took a Garde Sans: no écart of ours
    page.select_option("#play-contract", "garde_sans")
    page.click("#play-start")
    page.locator(".others .card").first.click()  # left leads (you are position 2, after bids)
    wait_done(page, "#ranked")
    assert_fits_and_speaks_plainly(page)
    # A finished deal where you took (seat 0): its score sheet and the review of your play.
    load_blunder_as_the_taker(page)
    wait_done(page, "#review-box")
    page.click("#review-start")
    wait_done(page, "#review-result")
    assert_fits_and_speaks_plainly(page)


VISIBLE_ROWS = (
    "[...document.querySelectorAll('#ecarts tbody tr')].filter((tr) => tr.offsetHeight > 0).length"
)


def test_on_a_phone_the_ecarts_fold_to_the_best_three_and_the_advised(open_at) -> None:  # noqa: F811
    phone = open_at(PHONE, LINK, quick=True)
    wait_done(phone, "#ecart-result")
    rows = phone.locator("#ecarts tbody tr").count()
    advised = phone.locator("#ecarts tbody tr.advised")
    assert rows > 4 and advised.count() == 1 and advised.is_visible()
    assert phone.evaluate(VISIBLE_ROWS) <= 4
    unfold = phone.get_by_test_id("ecarts-all")
    assert unfold.is_visible() and unfold.inner_text() == f"Show all {rows} écarts"
    unfold.click()
    assert phone.evaluate(VISIBLE_ROWS) == rows and not unfold.is_visible()
    desktop = open_at(DESKTOP, LINK, quick=True)  # wide enough for every row, as a table
    wait_done(desktop, "#ecart-result")
    assert desktop.evaluate(VISIBLE_ROWS) == rows
    assert not desktop.get_by_test_id("ecarts-all").is_visible()


def test_the_score_sheet_and_the_review_name_the_players_from_your_chair(open_at) -> None:  # noqa: F811
    page = open_at(PHONE, quick=True)
    # You took (seat 0) and led the first trick.
    load_blunder_as_the_taker(page)
    wait_done(page, "#score-sheet")
    rows = page.locator("#score-sheet tr")
    sheet = [tuple(rows.nth(i).locator("td").all_inner_texts()) for i in range(rows.count())]
    assert sheet == [("You", "+174"), ("Right", "−58"), ("Opposite", "−58"), ("Left", "−58")]
    assert page.locator('[data-testid="score"]').count() == 4
    assert "Taker: You." in page.inner_text("#score-sheet")
    history = page.locator("#history li").all_text_contents()
    assert history[4] == "1♣ (Opposite), 8♣ (Left), 4 (You), 2♣ (Right)"  # opposite won trick 4
    assert page.input_value("#review-seat") == "0"  # your own play
    page.click("#review-start")
    wait_done(page, "#review-result")
    assert page.inner_text(".seat-review h3").startswith("You (taker)")
    first = page.locator('.review-table tr[data-trick="1"] figcaption').all_inner_texts()
    assert first == ["you", "right", "opposite", "left"]  # seat 0 led the first trick


def test_card_play_says_who_leads_and_lets_you_change_it(open_at) -> None:  # noqa: F811
    page = open_at(DESKTOP, quick=True)
    assert page.inner_text("#play-seat-line") == "You lead the first trick (position 1)."
    page.select_option("#play-position", "3")
    assert (
        page.inner_text("#play-seat-line") == "Opposite leads the first trick; you are position 3."
    )
    takers = page.locator("#play-taker option").all_inner_texts()
    assert takers == ["You", "Opposite (position 1)", "Left (position 2)", "Right (position 4)"]
    page.click("#paste-box summary")
    page.fill("#paste", "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠")
    page.click("#paste-form button")
    page.wait_for_function("document.querySelector('#counter').textContent.startsWith('18 / 18')")
    page.select_option("#play-taker", "0")
    page.click("#play-start")
    wait_done(page, "#play-table")
    line = page.inner_text("#seats-line")
    assert line.startswith(
        "Opposite leads the first trick; you are position 3. Garde, taken by opposite."
    )
    assert page.inner_text("#turn").startswith("Trick 1: Opposite plays")
    page.click("#seats-line button")  # change: back to the choices, nothing played yet
    assert page.is_visible("#play-setup") and not page.is_visible("#play-table")


def test_an_empty_paste_keeps_the_picked_cards(open_at) -> None:  # noqa: F811
    page = open_at(PHONE)
    page.click('#picker [data-card="21"]')
    page.click("#paste-box summary")
    page.click("#paste-form button")
    assert page.inner_text("#advise-error").startswith("type or paste some cards first")
    assert page.inner_text("#counter").startswith("1 / 18")
    page.click('#picker [data-card="19"]')  # the sentence was about the cards as they were
    assert not page.is_visible("#advise-error")
