"""``tarot-web``: serves the page and its JSON API on this machine.

The standard library's threaded HTTP server: the page is for one player on their own machine,
so it needs no more than routing a few addresses, and adds no dependency to install. Each request
has its own thread, so a long computation never holds up another request: at most
:data:`COMPUTING` answers compute at once (their chunks take turns on the workers), within the
budget (:mod:`.budget`), and one whose client goes away stops. SIGTERM, like Ctrl-C, stops the
server, its jobs and its workers.
"""

from __future__ import annotations

import json
import re
import select
import signal
import socket
import sys
import threading
import traceback
import webbrowser
from collections.abc import Iterator
from contextlib import contextmanager
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib import resources
from typing import Any

import click

from tarot_advisor.analyzer.cards import N_CARDS, CardError, parse_cards
from tarot_advisor.analyzer.game import PLAYER_COUNTS, chien_size, hand_size
from tarot_advisor.analyzer.parallel import start_workers, stop_workers, watched
from tarot_advisor.cli.errors import InputError, fail
from tarot_advisor.cli.options import command
from tarot_advisor.cli.review import review_document
from tarot_advisor.cli.web import api, game, table
from tarot_advisor.cli.web.game_view import names
from tarot_advisor.cli.web.jobs import KINDS, Busy, Cancelled, Jobs

MAX_BODY = 1_000_000
"""Bytes a request's body may hold: a deal record is about 1.2 kB."""
MAX_DEPTH = 16
"""Arrays and objects a request's body may nest (a deal record nests 3 deep): deeper is refused
before it is parsed, whose recursion it would exhaust."""
MAX_DIGITS = 100
"""Digits a number of a request's body may have (a sample count has a few)."""
COMPUTING = 16
"""Answers computed at once (``/api/advise``, ``/api/play``, ``/api/review``; the jobs have their
own count); a request beyond waits up to :data:`BUSY_WAIT` seconds for its turn, then is told
that the server is busy."""
BUSY_WAIT = 10.0
"""Seconds a computed answer waits for its turn before the server says it is busy."""
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"')
"""A JSON string, whose brackets do not nest."""
_BRACKET = re.compile(r"[\[\]{}]")
STATIC = {
    "index.html": "text/html; charset=utf-8",
    "app.js": "text/javascript; charset=utf-8",
    "bars.js": "text/javascript; charset=utf-8",
    "cards.js": "text/javascript; charset=utf-8",
    "link.js": "text/javascript; charset=utf-8",
    "play.js": "text/javascript; charset=utf-8",
    "review.js": "text/javascript; charset=utf-8",
    "game.js": "text/javascript; charset=utf-8",
    "game.css": "text/css; charset=utf-8",
    "seats.js": "text/javascript; charset=utf-8",
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
    return json.dumps({"cards": names(cards)}, ensure_ascii=False)


DECK = json.dumps(
    {
        "cards": names(range(N_CARDS)),
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


def parse_json(data: bytes) -> Any:
    """A request's body decoded, or :class:`.errors.InputError` with one sentence: not UTF-8,
    not JSON, nested deeper than :data:`MAX_DEPTH`, or a number beyond :data:`MAX_DIGITS` digits
    or beyond a float's range (``NaN`` and ``Infinity`` too)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise InputError(f"the request's body is not JSON ({error})") from None
    depth = 0
    for bracket in _BRACKET.finditer(_STRING.sub("", text)):
        depth += 1 if bracket.group() in "[{" else -1
        if depth > MAX_DEPTH:
            raise InputError(f"the request's body nests more than {MAX_DEPTH} levels deep")
    try:
        return json.loads(
            text, parse_int=_integer, parse_float=_decimal, parse_constant=_not_a_number
        )
    except json.JSONDecodeError as error:
        raise InputError(f"the request's body is not JSON ({error})") from None


def _integer(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_DIGITS:
        raise InputError(f"the request's body holds a number of more than {MAX_DIGITS} digits")
    return int(digits)


def _decimal(text: str) -> float:
    value = float(text)
    if len(text) > 4 * MAX_DIGITS or value in (float("inf"), float("-inf")):
        raise InputError(f"the request's body holds a number too large: {text[:20]}…")
    return value


def _not_a_number(name: str) -> float:
    raise InputError(f"the request's body holds {name}, which is not a JSON number")


ANSWERS = {
    "/api/cards": _cards,
    "/api/advise": _advise,
    "/api/play": _play,
    "/api/legal": _legal,
    "/api/score": _score,
    "/api/review": _review,
    "/api/game": game.answer,
}
"""The API's addresses answered at once, each with the JSON text it returns."""
COMPUTED = {"/api/advise", "/api/play", "/api/review", "/api/game"}
"""Those that sample (:data:`COMPUTING`)."""


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
            if path in COMPUTED:
                with self._turn(), watched(self._check_client):
                    self._json(HTTPStatus.OK, ANSWERS[path](body))
            elif path in ANSWERS:
                self._json(HTTPStatus.OK, ANSWERS[path](body))
            else:
                self._json(HTTPStatus.OK, json.dumps({"job": self.server.jobs.start(kind, body)}))
        except InputError as error:
            self._error(HTTPStatus.BAD_REQUEST, error.message)
        except Busy as error:
            self._error(HTTPStatus.SERVICE_UNAVAILABLE, error.message)
        except Cancelled:  # the client went away: no one to answer
            self.close_connection = True
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
        return parse_json(self.rfile.read(length))

    @contextmanager
    def _turn(self) -> Iterator[None]:
        """Wait for one of the :data:`COMPUTING` turns, or say that the server is busy."""
        if not self.server.computing.acquire(timeout=BUSY_WAIT):
            raise Busy(COMPUTING)
        try:
            yield
        finally:
            self.server.computing.release()

    def _check_client(self) -> None:
        """Raise :class:`.jobs.Cancelled` when the client has closed its connection (called
        between the chunks of its computation)."""
        try:
            readable, _, _ = select.select([self.connection], [], [], 0)
            gone = bool(readable) and self.connection.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):
            gone = True
        if gone:
            raise Cancelled

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
        self.computing = threading.BoundedSemaphore(COMPUTING)
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
    signal.signal(signal.SIGTERM, _interrupt)  # stopped as by Ctrl-C: the workers with it
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
        stop_workers()


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
