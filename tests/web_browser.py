"""The page in a real browser for the tests: Debian's chromium driven by Playwright, the page
opened at a phone's or a desktop's size, the quick table for tests whose numbers do not matter,
and the measure of what does not fit the screen.

Importing this module skips the test module, saying how to install them, where Playwright or
Debian's chromium is missing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

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
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
BOTH_SIZES = pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
"""A test run at a phone's size and at a desktop's."""
QUICK = {
    "advise": {"taker": "greedy", "defence": "greedy", "samples": 200},
    "play": {"samples": 100},
    "review": {"taker": "greedy", "defence": "greedy", "samples": 20},
}
"""What :func:`quick_table` sets in each job's body."""


@pytest.fixture(scope="module")
def browser():
    with playwright.sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        yield browser
        browser.close()


@pytest.fixture
def open_at(browser, url):
    """``open_at(size, query="", quick=False)``: a page of the test server opened at ``size``
    (``query`` after its address; ``quick``: :func:`quick_table`). Each is closed after the
    test, which fails if a page loaded anything from outside the machine."""
    pages, requests = [], []

    def opener(size: dict, query: str = "", quick: bool = False):
        page = browser.new_page(viewport=size)
        page.on("request", lambda request: requests.append(request.url))
        if quick:
            quick_table(page)
        page.goto(f"{url}/{query}")
        page.wait_for_selector("#picker .card")
        pages.append(page)
        return page

    yield opener
    for page in pages:
        page.close()
    outside = [address for address in requests if not address.startswith((url, "data:"))]
    assert outside == [], "the page loaded something from outside the machine"


def quick_table(page) -> None:
    """Every advice, ranking and review the page asks for played at the quick table on few
    deals (:data:`QUICK`): for the tests whose numbers do not matter."""

    def faster(route) -> None:
        body = json.loads(route.request.post_data)
        body.update(QUICK[route.request.url.rsplit("/", 1)[1]])
        route.continue_(post_data=json.dumps(body))

    def route(route) -> None:
        if route.request.method == "POST":
            faster(route)
        else:
            route.continue_()

    page.route("**/api/jobs/*", route)


FAULTS = (Path(__file__).parent / "layout_faults.js").read_text(encoding="utf-8")
"""A script listing what does not fit: a page wider than the screen, an element beyond its
edges or hiding some of its content, a control under 24 × 24 px (WCAG 2.2's target size)."""


def layout_faults(page) -> list[str]:
    """What does not fit on ``page`` as it is shown now (:data:`FAULTS`)."""
    return page.evaluate(FAULTS)
