"""tarot-web never stalls: work beyond the budget is refused with its estimate, a malformed body
is a 400, a job is checked when submitted, a full server says it is busy, a client that goes
away stops its computation, and SIGTERM ends the server with all its workers."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from web_helpers import post, serve  # noqa: F401  (serve: the fixture url)

from tarot_advisor.cli.web import budget, jobs, server
from tarot_advisor.cli.web.jobs import Busy, Jobs

HAND = "21 19 12 6 1 Excuse R♥ C♥ 10♥ 8♥ 1♥ V♦ 8♦ D♣ C♣ 7♣ 6♠ 4♠"
GREEDY = {"taker": "greedy", "defence": "greedy"}
DATA = Path(__file__).parent.parent / "data"


@pytest.mark.parametrize(
    ("path", "body"),
    [
        ("/api/advise", {"hand": HAND, "samples": 10_000_000}),
        ("/api/advise", {"hand": HAND, "samples": 10_000_000, **GREEDY}),
        ("/api/advise", {"hand": HAND, "chien": "3♠ 5♥ 2♦ 9♣ 14 1♦", "samples": 100_000}),
        ("/api/jobs/advise", {"hand": HAND, "samples": 10_000_000}),
        ("/api/review", {"record": "deal", "samples": 10_000_000}),
        ("/api/jobs/play", {"record": "position", "samples": 1_000_000}),
    ],
)
def test_work_beyond_the_budget_is_refused_at_once_with_its_estimate(url, path, body) -> None:
    name = {"deal": "deals/blunder-garde-4p.json", "position": "positions/garde-4p-trick-10.json"}
    if body.get("record") in name:
        body["record"] = json.loads((DATA / name[body["record"]]).read_text(encoding="utf-8"))
    start = time.monotonic()
    status, text = post(url, path, body)
    assert time.monotonic() - start < 5
    assert status == 400
    error = json.loads(text)["error"]
    assert error.startswith("this would take about ") and "; the limit is 30 s a request" in error
    assert "\n" not in error


def test_the_estimate_names_the_most_samples_allowed() -> None:
    work = budget.Work("bid", 4, 10_000_000, budget.Sides())
    with pytest.raises(server.InputError) as refused:
        budget.check(work)
    assert refused.value.message == (
        "this would take about 1.7 days of computing; the limit is 30 s a request: "
        "ask for at most 2,000 samples"
    )
    budget.check(budget.Work("bid", 4, 2_000, budget.Sides()))  # within: nothing said
    budget.check(budget.Work("bid", 5, None, budget.Sides()))  # the default analyses fit
    budget.check(budget.Work("ecart", 5, None, budget.Sides()))
    budget.check(budget.Work("review", 5, 500, budget.Sides(), seats=5, calls=True))


@pytest.mark.parametrize(
    ("data", "words"),
    [
        (b"[" * 100_000, "nests more than 16 levels deep"),
        (b'{"hand": ' + b"[" * 17 + b"]" * 17 + b"}", "nests more than 16 levels deep"),
        (b'{"hand": "' + b"[" * 1000 + b'"}', "is not a card"),  # brackets in a string do not nest
        (b'{"hand": "x", "samples": ' + b"9" * 5000 + b"}", "more than 100 digits"),
        (b'{"hand": "x", "samples": 1e999}', "too large"),
        (b'{"hand": "x", "samples": NaN}', "not a JSON number"),
        (b'{"hand": "x", "samples": -Infinity}', "not a JSON number"),
        (b"\xff\xfe", "not JSON"),
    ],
    ids=["deep", "nested", "string", "digits", "float", "nan", "infinity", "bytes"],
)
@pytest.mark.parametrize("path", ["/api/advise", "/api/jobs/review", "/api/legal"])
def test_any_malformed_json_is_a_400_with_one_sentence(url, path, data, words) -> None:
    status, text = post(url, path, data)
    assert status == 400
    error = json.loads(text)["error"]
    assert "\n" not in error
    if words != "is not a card" or path == "/api/advise":
        assert words in error


def test_a_bad_job_is_refused_when_submitted(url) -> None:
    status, text = post(url, "/api/jobs/advise", {"hand": "21 19 12"})
    assert status == 400
    assert "18 cards" in json.loads(text)["error"]
    status, text = post(url, "/api/jobs/advise", {"hand": HAND, "chien": "3♠ 5♥"})
    assert status == 400 and "chien" in json.loads(text)["error"]


def test_a_full_server_is_busy_rather_than_slow(monkeypatch) -> None:
    release = threading.Event()
    monkeypatch.setitem(jobs.CHECKS, "advise", lambda body: None)
    monkeypatch.setitem(jobs.KINDS, "advise", lambda body, job: release.wait(10))
    queue = Jobs(running=1, waiting=1)
    try:
        queue.start("advise", {})
        queue.start("advise", {})
        with pytest.raises(Busy, match="busy with 2 computations: try again in a few seconds"):
            queue.start("advise", {})
    finally:
        release.set()
        queue.close()


def _slow_chunk(rng, n: int) -> int:
    time.sleep(0.05)
    return n


def test_a_job_whose_page_went_away_stops(monkeypatch) -> None:
    from tarot_advisor.analyzer.parallel import map_chunks

    def long_work(body, job) -> None:  # 1,000 chunks of 0.05 s: 50 s unless stopped
        map_chunks(_slow_chunk, 1000, seed=1, chunk_size=1)

    monkeypatch.setattr(jobs, "ABANDONED", 0.5)
    monkeypatch.setitem(jobs.CHECKS, "advise", lambda body: None)
    monkeypatch.setitem(jobs.KINDS, "advise", long_work)
    queue = Jobs()
    try:
        job = queue.get(queue.start("advise", {}))
        deadline = time.monotonic() + 10
        while job.state != "error" and time.monotonic() < deadline:  # not polled meanwhile
            time.sleep(0.1)
        assert job.state == "error" and job.error.startswith("stopped: its page went away")
    finally:
        queue.close()


def test_a_client_that_goes_away_stops_its_computation(url) -> None:
    # 700,000 greedy samples, some 20 s of CPU in this process, asked for then abandoned.
    body = json.dumps({"hand": HAND, "samples": 700_000, "seed": 2, **GREEDY}).encode()
    head = f"POST /api/advise HTTP/1.1\r\nHost: x\r\nContent-Length: {len(body)}\r\n\r\n"
    with socket.create_connection(("127.0.0.1", int(url.rsplit(":", 1)[1]))) as connection:
        connection.sendall(head.encode() + body)
        time.sleep(1.0)
    time.sleep(1.0)  # its chunk of 5,000 samples ends, and the server finds the client gone
    cpu = time.process_time()
    time.sleep(1.0)
    assert time.process_time() - cpu < 0.5  # the server (this process) computes no more
    status, text = post(url, "/api/advise", {"hand": HAND, "samples": 20, **GREEDY})
    assert status == 200 and json.loads(text)["samples"] == 20


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (Linux's /proc)."""
    found = set()
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                found.add(int(entry.name))
    return found


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_sigterm_stops_the_server_and_every_worker_while_a_small_request_is_answered() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    code = "from tarot_advisor.cli.web.server import main; main()"
    process = subprocess.Popen(
        [sys.executable, "-c", code, "--port", str(port)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=os.environ | {"PYTHONPATH": os.pathsep.join(sys.path)},
    )
    try:
        process.stdout.readline()  # the address: the server listens, its workers forked
        url = f"http://127.0.0.1:{port}"
        workers = _children(process.pid)
        assert workers
        # A job near the budget (about 25 s of CPU), then a small answer while it runs.
        long = {"hand": HAND, "samples": 700_000, "seed": 3, **GREEDY}
        status, text = post(url, "/api/jobs/advise", long)
        assert status == 200, text
        time.sleep(1.0)
        start = time.monotonic()
        status, text = post(url, "/api/advise", {"hand": HAND, "samples": 20, **GREEDY})
        assert status == 200 and time.monotonic() - start < 10
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(map(_alive, workers)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(map(_alive, workers))
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
