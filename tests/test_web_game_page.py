"""A whole deal against the computer on a phone (390 × 844) and a desktop, in headless
Chromium: a player clicks the offered bid (Garde, else pass), the advised écart and the first
legal card each turn, then reads four scores summing to zero and the review of its decisions.
Nothing is wider than the screen, and every control is at least 24 × 24 CSS pixels (WCAG 2.2
target size)."""

from __future__ import annotations

import pytest
from web_browser import BOTH_SIZES, PHONE, browser, layout_faults  # noqa: F401  (browser: fixture)
from web_helpers import serve  # noqa: F401  (serve: the fixture url)

pytestmark = pytest.mark.slow  # a browser, a deal of clicks

CHOICES = (
    '[data-testid="bid-garde"]',
    '[data-testid="bid-pass"]',
    '[data-testid="ecart-advised"]',
    '[data-testid="legal-card"]',
)


@BOTH_SIZES
def test_a_whole_deal_against_the_computer(browser, url, size) -> None:  # noqa: F811
    page = browser.new_page(viewport=size)
    page.goto(f"{url}/?players=4&play=computer&seed=23&table=greedy")
    page.wait_for_selector('[data-testid="bid-pass"]')
    assert page.locator("#hand-panel").is_hidden()  # the game has the page to itself
    assert layout_faults(page) == []
    turns = 0
    assert page.locator('[data-testid="deal-over"], [data-testid="review"]').count() == 0
    while not page.locator('[data-testid="deal-over"]').count():
        page.wait_for_selector(", ".join(CHOICES) + ', [data-testid="deal-over"]')
        choice = next((c for c in CHOICES if page.locator(c).count()), None)
        if choice is None:
            continue
        clicked = page.locator(choice).first.element_handle()
        if choice.endswith('card"]') and turns == 0:
            # Seed 23: a simple poignée in hand, none shown unless chosen.
            assert page.get_by_test_id("poignee-none").is_checked()
            assert page.locator("input[name=game-poignee]").count() == 2
            page.get_by_test_id("poignee-simple").check()
            assert page.locator(".poignee-cards .card").count() == 10
            assert layout_faults(page) == []
        clicked.click()
        page.wait_for_function("(e) => !e.isConnected", arg=clicked, timeout=120_000)
        turns += choice.endswith('card"]')
    assert turns == 18
    scores = page.locator('[data-testid="score"]').all_inner_texts()
    assert len(scores) == 4
    assert sum(int(s.replace("−", "-")) for s in scores) == 0
    assert "You show a poignée" in page.inner_text("#game-auction")
    assert "your poignée (20)" in page.inner_text('[data-testid="deal-over"]')
    assert "Running score over" in page.inner_text('[data-testid="deal-over"]')
    page.wait_for_selector('[data-testid="review"]', timeout=120_000)
    assert page.locator('[data-testid="review"] .seat-review').count() == 1
    assert layout_faults(page) == []
    page.close()


def test_a_bad_link_says_what_is_wrong(browser, url) -> None:  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{url}/?players=6&play=computer&seed=1")
    page.wait_for_selector("#game-error:not([hidden])")
    assert page.inner_text("#game-error") == "players: French Tarot is played by 3, 4 or 5, not 6"
    page.close()


def test_an_ecart_the_rules_forbid_is_refused_and_can_be_made_again(browser, url) -> None:  # noqa: F811
    page = browser.new_page(viewport=PHONE)
    page.goto(f"{url}/?players=4&play=computer&seed=0&table=greedy")  # the player takes
    page.click('[data-testid="bid-garde"]')
    page.wait_for_selector('[data-testid="ecart-advised"]')
    pool = page.locator("#game-ask .cards .card")
    names = pool.evaluate_all("(cards) => cards.map((c) => c.dataset.card)")
    kings = [name for name in names if name.startswith("R")]
    for name in [*kings, *[n for n in names if n not in kings][-6:]][:6]:
        page.click(f'#game-ask .cards [data-card="{name}"]')
    page.click('[data-testid="ecart-chosen"]')
    page.wait_for_selector("#game-error:not([hidden])")
    assert "king" in page.inner_text("#game-error")
    assert page.locator('[data-testid="ecart-advised"]').is_enabled()
    page.close()
