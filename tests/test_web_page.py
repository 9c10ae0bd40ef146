"""The page in a real browser (headless Chromium driven by Playwright): a player clicks a hand,
reads the command line's numbers, sees the sentence for a bad hand, plays a trick, and reviews
a finished deal.

Skipped, saying how to install them, where Playwright or Debian's chromium is missing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner
from greedy_table import GREEDY_OPTIONS
from web_helpers import serve  # noqa: F401  (serve: the fixture url)

from tarot_advisor.cli.advise import main as advise

pytestmark = pytest.mark.slow  # a browser, some seconds a page

playwright = pytest.importorskip(
    "playwright.sync_api", reason="pip install playwright (the test extra) for the browser tests"
)
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
if CHROMIUM is None:
    pytest.skip(
        "no browser: install Debian's chromium (apt-get install chromium) for the browser tests",
        allow_module_level=True,
    )
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
BLUNDER = Path(__file__).parent.parent / "data" / "deals" / "blunder-garde-4p.json"
HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠".split()  # noqa: SIM905


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def page(browser, url):
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    requests: list[str] = []
    page.on("request", lambda request: requests.append(request.url))
    page.goto(url)
    page.wait_for_selector("#picker .card")
    yield page
    outside = [address for address in requests if not address.startswith((url, "data:"))]
    assert outside == [], "the page loaded something from outside the machine"
    page.close()


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
    assert page.locator("#chart").get_attribute("src").startswith("data:image/png")
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
    page.select_option("#play-taker", "1")  # position 2 took: no écart of ours
    page.select_option("#play-contract", "garde_sans")
    page.click("#play-start")
    page.wait_for_selector("#play-table:not([hidden])")
    assert "your turn" in page.inner_text("#turn")
    page.wait_for_selector("#ranked:not([hidden])", timeout=120_000)
    assert page.locator("#ranked-table tbody tr").count() == 18  # every card may lead
    page.click('#play-hand [data-card="R♥"]')
    for seat in (2, 3, 4):
        page.wait_for_function(
            f"document.querySelector('#turn').textContent.includes('Position {seat} plays')"
        )
        page.locator(".others .card").first.click()
    page.wait_for_function("document.querySelector('#turn').textContent.includes('Trick 2')")
    assert page.locator("#trick figure").count() == 4
    assert page.locator("#history li").count() == 1
    assert page.locator("#play-hand .card").count() == 17


def test_a_loaded_finished_deal_is_reviewed_on_the_page(page) -> None:
    # The taker threw the Petit under the defence's trump at trick 12 (tarot-review's example).
    page.set_input_files("#load", str(BLUNDER))
    page.wait_for_selector("#review-box:not([hidden])")
    assert "Per defender" in page.inner_text("#score-sheet")
    assert page.input_value("#review-seat") == "taker"
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
