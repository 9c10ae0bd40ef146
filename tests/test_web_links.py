"""Shared links, in a real browser: ``/?players=4&hand=…`` opens the page with the hand picked
and the advice running, ``&chien=…`` (``&called=…`` for 5 players) with the écart's advice,
``&bids=…`` and ``&position=…`` fill the auction; "Copy link" writes such a link of the page
as it stands; a bad link is one sentence and changes nothing.
"""

from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from web_browser import BOTH_SIZES, DESKTOP, PHONE, browser, layout_faults, open_at  # noqa: F401
from web_helpers import serve  # noqa: F401  (serve: the fixture url)

pytestmark = pytest.mark.slow  # a browser, some seconds a page

HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
LETTERS = "21,19,12,6,1,Excuse,RH,CH,10H,8H,1H,VD,8D,DC,CC,7C,6S,4S"
"""The same hand, written with S H D C for the suits, as a link may."""
CHIEN = "3♦ 5♣ 9♠ 13 2♥ D♠"


@BOTH_SIZES
def test_a_link_opens_the_hand_and_runs_the_advice(open_at, size) -> None:  # noqa: F811
    page = open_at(size, f"?players=4&hand={quote(HAND)}&bids=pass", quick=True)
    page.wait_for_selector("#advice-panel:not([hidden])", timeout=120_000)
    assert page.inner_text("#counter").startswith("18 / 18")
    assert page.locator("#hand-strip .card").count() == 18
    assert page.locator("#bids-heard .chip").all_inner_texts() == ["1: Pass"]
    assert page.input_value("#position") == "2"  # the one bid heard: you speak second
    assert page.inner_text('[data-testid="advice"]').startswith(("Bid ", "Pass"))
    assert layout_faults(page) == []


def test_a_link_with_a_chien_opens_the_ecarts_advice(open_at) -> None:  # noqa: F811
    page = open_at(PHONE, f"?players=4&hand={LETTERS}&chien={quote(CHIEN)}", quick=True)
    page.wait_for_selector("#ecart-result:not([hidden])", timeout=120_000)
    assert page.locator("#chien-strip .card").count() == 6
    headline = page.inner_text('[data-testid="ecart-advice"]').split()
    assert headline[0] == "Discard" and len(headline) == 7
    assert set(headline[1:]) <= set(HAND.split()) | set(CHIEN.split())
    assert not page.is_visible("#advice-panel")  # the écart's advice only


def test_a_five_player_link_asks_the_ecart_for_the_called_king(open_at) -> None:  # noqa: F811
    asked = []

    def stop(route) -> None:  # the body is what matters here, not the advice
        asked.append(json.loads(route.request.post_data))
        route.fulfill(status=400, json={"error": "stopped by the test"})

    page = open_at(DESKTOP)
    page.route("**/api/jobs/advise", stop)
    hand = "21 19 12 6 1 Excuse R♥ 10♥ 8♥ V♦ 8♦ D♣ C♣ 7♣ 6♠"
    page.goto(page.url + f"?players=5&hand={quote(hand)}&chien=3D,5C,9S&called=RS")
    page.wait_for_selector("#ecart-error:not([hidden])")
    assert page.inner_text("#ecart-error") == "stopped by the test"
    assert page.input_value("#ecart-called") == "R♠"
    [body] = asked
    assert (body["players"], body["called"], body["contract"]) == (5, "R♠", "garde")
    assert sorted(body["chien"].split()) == sorted(["3♦", "5♣", "9♠"])


BAD_LINKS = {
    "?players=4&hand=21,19,12": "the link's hand has 3 cards; 18 are needed with 4 players",
    "?players=7&hand=21": "the link's players=7: give 3, 4 or 5",
    f"?hand={LETTERS.replace('RH', 'ZZ')}": "the link's hand: 'ZZ' is not a card (write e.g. R♠ or"
    " Rs, 10♥, 1c, 21 or XXI, Excuse)",
    "?hnd=21": 'the link\'s "hnd" is not understood: a link gives players, hand, chien, called,'
    " contract, bids, position",
    f"?hand={LETTERS}&chien=21,5C,9S,13,2H,DS": "the link's chien holds 21, which is also in the"
    " hand",
    f"?hand={LETTERS}&bids=pass,garde,pass,garde": "the link's bids: 4 bids heard before you, but"
    " only 3 players speak before the last",
    f"?hand={LETTERS}&bids=pass,double": 'the link\'s bids: "double" is not a bid (pass, prise,'
    " garde, garde_sans, garde_contre)",
    f"?hand={LETTERS}&bids=pass&position=3": "the link's position=3 does not fit its 1 bids heard"
    " (you would be position 2)",
    f"?hand={LETTERS}&called=RS": "the link's called card is only for 5 players",
    "?chien=3D,5C,9S,13,2H,DS": "the link gives a chien but no hand",
    f"?players=5&hand={quote(HAND)}": "the link's hand has 18 cards; 15 are needed with 5 players",
}


@pytest.mark.parametrize("query", BAD_LINKS)
def test_a_bad_link_is_one_sentence_and_changes_nothing(open_at, query) -> None:  # noqa: F811
    page = open_at(PHONE)
    jobs = []
    page.on("request", lambda request: "/api/jobs/" in request.url and jobs.append(request.url))
    page.goto(page.url + query)
    page.wait_for_selector('[data-testid="link-error"]:not([hidden])')
    assert page.inner_text("#link-error") == f"This link could not be opened: {BAD_LINKS[query]}."
    assert page.inner_text("#counter").startswith("0 / 18")
    assert page.locator("#bids-heard .chip").count() == 0
    assert jobs == []


def test_copy_link_writes_a_link_that_opens_the_same_hand(open_at, url) -> None:  # noqa: F811
    page = open_at(PHONE)
    page.click("#paste-box summary")
    page.fill("#paste", HAND)
    page.click("#paste-form button")
    page.wait_for_function("document.querySelector('#counter').textContent.startsWith('18 / 18')")
    page.click('#target [data-value="chien"]')
    page.fill("#paste", CHIEN)
    page.click("#paste-form button")
    page.wait_for_function("document.querySelector('#counter').textContent.startsWith('6 / 6')")
    page.click('[data-bid="pass"]')
    page.click('[data-testid="copy-link"]')
    link = page.input_value('[data-testid="link"]')
    # The cards in the order the page shows them, S H D C for the suits.
    hand = "21,19,12,6,1,Excuse,6S,4S,RH,CH,10H,8H,1H,VD,8D,DC,CC,7C"
    chien = "13,DS,9S,2H,3D,5C"
    assert link == f"{url}/?players=4&hand={hand}&chien={chien}&contract=garde&bids=pass"
    again = open_at(DESKTOP, link.removeprefix(url + "/"), quick=True)
    again.wait_for_selector("#ecart-result:not([hidden])", timeout=120_000)
    assert (
        again.locator("#hand-strip .card").all_inner_texts()
        == page.locator("#hand-strip .card").all_inner_texts()
    )
    assert again.locator("#bids-heard .chip").all_inner_texts() == ["1: Pass"]
