"""The page in a real browser (headless Chromium driven by Playwright): a player clicks a hand,
reads the command line's numbers, sees the sentence for a bad hand, plays a trick, and reviews
a finished deal.

Skipped, saying how to install them, where Playwright or Debian's chromium is missing.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from greedy_table import GREEDY_OPTIONS
from web_browser import DESKTOP, browser, open_at  # noqa: F401  (fixtures)
from web_helpers import serve  # noqa: F401  (serve: the fixture url)

from tarot_advisor.cli.advise import main as advise

pytestmark = pytest.mark.slow  # a browser, some seconds a page

BLUNDER = Path(__file__).parent.parent / "data" / "deals" / "blunder-garde-4p.json"
HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠".split()  # noqa: SIM905


@pytest.fixture
def page(open_at):  # noqa: F811  (open_at: the fixture imported)
    return open_at(DESKTOP)


def pick(page, cards: list[str]) -> None:
    for card in cards:
        page.click(f'#picker [data-card="{card}"]')


def test_a_clicked_hand_gets_the_command_lines_numbers(page) -> None:
    pick(page, HAND)
    assert "18 / 18" in page.inner_text("#counter")
    page.click('[data-bid="pass"]')
    page.select_option("#samples", "500")
    page.select_option("#play", "greedy")
    page.click("#advise")
    page.wait_for_selector("#advice-panel:not([hidden])", timeout=120_000)
    result = CliRunner().invoke(
        advise, [" ".join(HAND), "--bids", "pass", "--samples", "500", *GREEDY_OPTIONS]
    )
    table = [" ".join(line.split()) for line in result.stdout.splitlines()]  # HTML collapses spaces
    rows = page.locator("#contracts tbody tr")
    assert rows.count() == 4
    for index in range(4):
        cells = [" ".join(cell.split()) for cell in rows.nth(index).locator("td").all_inner_texts()]
        line = next(line for line in table if line.startswith(cells[0] + " "))
        assert all(cell in line for cell in cells), (cells, line)
    advice = next(line for line in table if line.startswith("Advice:"))
    assert page.inner_text("#advice-line") == "Bid Garde"  # the decision, in two words
    assert page.inner_text("#advice-why") == advice
    # The bars: one a contract, the advised one marked as in the table.
    assert page.locator("#bars .bar-row").count() == 4
    assert page.get_attribute("#bars .bar-row.advised", "data-contract") == "garde"
    assert page.locator("#actions tbody tr").count() >= 2


def test_a_bad_hand_shows_the_command_lines_sentence(page) -> None:
    pick(page, HAND[:-1])
    assert "1 to go" in page.inner_text("#counter")
    page.click("#advise")
    page.wait_for_selector("#advise-error:not([hidden])", timeout=60_000)
    result = CliRunner().invoke(advise, [" ".join(HAND[:-1])])
    assert page.inner_text("#advise-error") == result.stderr.strip().removeprefix("Error: ")


def test_one_trick_in_card_play(page) -> None:
    pick(page, HAND)
    page.select_option("#position", "1")
    assert page.inner_text("#play-seat-line") == "You lead the first trick (position 1)."
    page.select_option("#play-taker", "1")  # right (position 2) took: no écart of ours
    page.select_option("#play-contract", "garde_sans")
    page.click("#play-start")
    page.wait_for_selector("#play-table:not([hidden])")
    assert "your turn" in page.inner_text("#turn")
    page.wait_for_selector("#ranked:not([hidden])", timeout=120_000)
    assert page.locator("#ranked-table tbody tr").count() == 18  # every card may lead
    page.click('#play-hand [data-card="R♥"]')
    for seat in ("Right", "Opposite", "Left"):
        page.wait_for_function(
            f"document.querySelector('#turn').textContent.includes('{seat} plays')"
        )
        page.locator(".others .card").first.click()
    page.wait_for_function("document.querySelector('#turn').textContent.includes('Trick 2')")
    captions = page.locator("#trick figcaption").all_inner_texts()
    assert captions == ["You", "Right", "Opposite", "Left"]
    assert page.locator("#history li").count() == 1
    assert page.locator("#play-hand .card").count() == 17


def test_a_loaded_finished_deal_is_reviewed_on_the_page(page) -> None:
    # The taker threw the Petit under the defence's trump at trick 12 (tarot-review's example),
    # which the quick table sees as well as the competent one (test_web_api.py), in seconds.
    page.route(
        "**/api/jobs/review",
        lambda route: route.continue_(
            post_data=json.dumps(
                json.loads(route.request.post_data) | {"taker": "greedy", "defence": "greedy"}
            )
        ),
    )
    page.set_input_files("#load", str(BLUNDER))
    page.wait_for_selector("#review-box:not([hidden])")
    # No seat of the loaded deal is yours: the seats are named by position.
    scores = page.locator('#score-sheet [data-testid="score"]').all_inner_texts()
    assert scores == ["+174", "−58", "−58", "−58"]
    assert "Taker: Position 1." in page.inner_text("#score-sheet")
    assert page.input_value("#review-seat") == "0"  # the taker's
    page.select_option("#review-samples", "100")
    page.click("#review-start")
    page.wait_for_selector("#review-result:not([hidden])", timeout=120_000)
    sentences = page.locator(".review-summary .sentence").all_inner_texts()
    assert sentences[0].startswith("1. trick 12: the 1 instead of the ")
    row = page.locator('.review-table tr[data-trick="12"]')
    assert row.get_attribute("class") == "costly"
    assert "◀ significant" in row.inner_text()
    # The trick is drawn, the Petit ringed as the costly card.
    assert row.locator(".card.costly").get_attribute("data-card") == "1"
    assert row.locator(".card").count() == 4
    assert row.locator("figcaption").all_inner_texts() == ["pos. 1", "pos. 2", "pos. 3", "pos. 4"]
