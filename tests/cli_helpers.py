"""What the tests expect of a command refusing its input."""

from __future__ import annotations


def one_error_line(result, *parts: str, code: int = 2) -> str:
    """The stderr of a CLI run (click's ``Result``) that ended with ``code`` and one line,
    ``Error: …``, holding every one of ``parts``, and no traceback."""
    assert result.exit_code == code, result.output
    assert result.stderr.startswith("Error: ") and result.stderr.count("\n") == 1, result.stderr
    assert "Traceback" not in result.output
    for part in parts:
        assert part in result.stderr, result.stderr
    return result.stderr
