"""``tarot-web``: serves the page and its JSON API on this machine.

The standard library's threaded HTTP server: the page is for one player on their own machine,
so it needs no more than routing a few addresses, and adds no dependency to install. Each request
has its own thread, so a long computation never holds up another request.
"""

from __future__ import annotations

import json
import sys
import threading
import traceback
import webbrowser
from collections.abc import Iterable
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

import click

from tarot_advisor.analyzer.cards import N_CARDS, CardError, format_card, parse_cards, sort_cards
from tarot_advisor.analyzer.game import PLAYER_COUNTS, chien_size, hand_size
from tarot_advisor.analyzer.parallel import start_workers
from tarot_advisor.cli.errors import InputError, fail
from tarot_advisor.cli.options import command
from tarot_advisor.cli.review import review_document
from tarot_advisor.cli.web import api, table
from tarot_advisor.cli.web.jobs import KINDS, Jobs

MAX_BODY = 1_000_000
"""Bytes a request's body may hold: a deal record is about 1.2 kB."""
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "cards.js": "text/javascript; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "review.js": "text/javascript; charset=utf-8",
    "style.css": "text/css; charset=utf-8",
}
"""The page's files (package data in ``static/``) and their types."""


def _advise(body: Any) -> str:
    return api.document(api.advise_result(body))


def _play(body: Any) -> str:
    return api.document(api.play_result(body)[0])


def _record(body: Any) -> Any:
    if not isinstance(body, dict) or set(body) != {"record"}:
        raise InputError("the request's body is a JSON object with the one key record")
    return body["record"]


def _cards(body: Any) -> str:
    """A pasted hand read as the command line reads cards, sorted as it prints them."""
    if not isinstance(body, dict) or set(body) != {"cards"} or not isinstance(body["cards"], str):
        raise InputError("the request's body is a JSON object with the one key cards (text)")
    try:
        cards = parse_cards(body["cards"])
    except CardError as error:
        raise InputError(str(error)) from None
    return json.dumps({"cards": _names(sort_cards(cards))}, ensure_ascii=False)


def _names(cards: Iterable[int]) -> list[str]:
    return [format_card(card) for card in cards]


DECK = json.dumps(
    {
        "cards": _names(sort_cards(range(N_CARDS))),
        "hand": {players: hand_size(players) for players in PLAYER_COUNTS},
        "chien": {players: chien_size(players) for players in PLAYER_COUNTS},
    },
    ensure_ascii=False,
)
"""The 78 cards in the order the command line prints a hand, and the hand's and the chien's
sizes for each player count."""


def _legal(body: Any) -> str:
    return json.dumps(table.next_cards(_record(body)), ensure_ascii=False)


def _score(body: Any) -> str:
    return json.dumps(table.deal_summary(_record(body)), ensure_ascii=False)


def _review(body: Any) -> str:
    return review_document(api.review_result(body))


ANSWERS = {
    "/api/cards": _cards,
    "/api/advise": _advise,
    "/api/play": _play,
    "/api/legal": _legal,
    "/api/score": _score,
    "/api/review": _review,
}
"""The API's addresses answered at once, each with the JSON text it returns."""


class Handler(BaseHTTPRequestHandler):
    """One request: a file of the page, an answer of the API, or a job's progress."""

    server: Server
    protocol_version = "HTTP/1.1"

    def do_GET(self) -> None:
        path = self.path.split("?", 1)[0]
        name = "index.html" if path == "/" else path.removeprefix("/static/")
        if name in STATIC:
            data = resources.files("tarot_advisor.cli.web").joinpath("static", name).read_bytes()
            self._send(HTTPStatus.OK, data, STATIC[name])
        elif path == "/api/deck":
            self._json(HTTPStatus.OK, DECK)
        elif path.startswith("/api/jobs/"):
            job = self.server.jobs.get(path.removeprefix("/api/jobs/"))
            if job is None:
                self._error(HTTPStatus.NOT_FOUND, "no such job: it finished long ago or never ran")
            else:
                self._json(HTTPStatus.OK, job.status())
        else:
            self._error(HTTPStatus.NOT_FOUND, f"no page at {path}")

    def do_POST(self) -> None:
        path = self.path.split("?", 1)[0]
        kind = path.removeprefix("/api/jobs/")
        if path not in ANSWERS and kind not in KINDS:
            self._error(HTTPStatus.NOT_FOUND, f"no API at {path}")
            return
        try:
            body = self._body()
            if path in ANSWERS:
                self._json(HTTPStatus.OK, ANSWERS[path](body))
            else:
                self._json(HTTPStatus.OK, json.dumps({"job": self.server.jobs.start(kind, body)}))
        except InputError as error:
            self._error(HTTPStatus.BAD_REQUEST, error.message)
        except Exception as error:  # a request never takes the server down
            traceback.print_exc()
            self._error(HTTPStatus.INTERNAL_SERVER_ERROR, f"internal error: {error}")

    def _body(self) -> Any:
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            raise InputError("the Content-Length header is not a number") from None
        if length > MAX_BODY:
            raise InputError(f"the request's body is over {MAX_BODY:,} bytes")
        data = self.rfile.read(length)
        try:
            return json.loads(data.decode("utf-8-sig"))
        except (UnicodeDecodeError, json.JSONDecodeError) as error:
            raise InputError(f"the request's body is not JSON ({error})") from None

    def _json(self, status: HTTPStatus, text: str) -> None:
        self._send(status, text.encode("utf-8"), "application/json; charset=utf-8")

    def _error(self, status: HTTPStatus, message: str) -> None:
        self._json(status, json.dumps({"error": message}, ensure_ascii=False))

    def _send(self, status: HTTPStatus, data: bytes, kind: str) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Cache-Control", "no-store")
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        """Quiet: the page polls often, and the terminal shows only the address and errors."""


class Server(ThreadingHTTPServer):
    """The HTTP server with its jobs; request threads end with the server."""

    daemon_threads = True

    def __init__(self, address: tuple[str, int]) -> None:
        self.jobs = Jobs()  # before binding: a failed bind closes the server, and its jobs
        super().__init__(address, Handler)

    def server_close(self) -> None:
        super().server_close()
        self.jobs.close()


def start(host: str = "127.0.0.1", port: int = 0) -> tuple[Server, threading.Thread]:
    """A server answering on a thread (port 0: any free port), for tests and ``tarot-web``."""
    server = Server((host, port))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return server, thread


@command("tarot-web")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", type=click.IntRange(0, 65535), default=8765, show_default=True, help="Port."
)
@click.option("--open", "open_browser", is_flag=True, help="Open the page in the web browser.")
def main(host: str, port: int, open_browser: bool) -> None:
    """Serve the advice page on this machine: click your cards, read the advice."""
    try:
        server = Server((host, port))
    except OSError as error:
        fail(f"cannot listen on {host}:{port}: {error.strerror or error}")
    start_workers()  # before any thread: the jobs' threads hand their chunks to these
    url = f"http://{host}:{server.server_address[1]}/"
    click.echo(f"tarot-web: open {url} in your browser (Ctrl-C stops the server)")
    if open_browser and not webbrowser.open(url):
        click.echo(f"tarot-web: no web browser found here to open: open {url} yourself", err=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        click.echo("stopped", err=True)
    finally:
        server.server_close()


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
