"""A tarot-web server on a free port for the tests, and requests to it."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any

import pytest

from tarot_advisor.cli.web.server import start


@pytest.fixture(scope="module", name="url")
def serve():
    """The address of a server started for the test module."""
    server, thread = start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
    thread.join()


def post(url: str, path: str, body: Any) -> tuple[int, str]:
    """The status and the text of a POST of ``body`` as JSON."""
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    request = urllib.request.Request(
        url + path, data=data, headers={"Content-Type": "application/json"}
    )
    try:
        with urllib.request.urlopen(request, timeout=300) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def run_job(url: str, kind: str, body: Any) -> dict:
    """A job started with ``body`` and polled until it is done or failed: its last status."""
    _, text = post(url, f"/api/jobs/{kind}", body)
    number = json.loads(text)["job"]
    for _ in range(3000):
        with urllib.request.urlopen(f"{url}/api/jobs/{number}") as response:
            job = json.loads(response.read())
        if job["state"] in ("done", "error"):
            return job
        time.sleep(0.1)
    raise AssertionError(f"the {kind} job did not finish in 5 minutes")
