"""The thresholds study's folder: its files, running the missing chunks, resuming.

The folder holds ``run.json`` (the parameters, a digest of the analyser's code and the
computing seconds spent so far), ``chunks/NNNNN.csv`` (each chunk's hands, written atomically
as soon as the chunk is done), ``hands.csv`` (the chunks put together), and what
:mod:`.thresholds` renders: the PNG charts, ``report.html`` and ``summary.json``. A run that
stops — Ctrl-C, a lost worker, a full disk — keeps every chunk already written; resuming
computes only the missing chunks, and since each chunk's numbers depend only on the seed and
the study's sizes (:mod:`analyzer.study`), the final ``hands.csv`` is the same, byte for byte,
as an uninterrupted run's.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from tarot_advisor.analyzer.game import PlayerCountError
from tarot_advisor.analyzer.studies.study import (
    StudyError,
    StudyParameters,
    code_version,
    columns,
    run_chunks,
)
from tarot_advisor.reports.files import write_text

RUN_FILE = "run.json"
CHUNKS = "chunks"
HANDS_FILE = "hands.csv"
FLOAT_FORMAT = "%.6g"
"""Enough digits for means of a few thousand samples; fixed so that files compare byte by byte."""


class StudyFolderError(ValueError):
    """The output folder cannot take this run (it holds another study, or results without
    ``--resume``)."""


@dataclass(frozen=True)
class RunOutcome:
    """What one call of :func:`run_study` did."""

    computed: int
    """Chunks computed by this call."""
    kept: int
    """Chunks found already done (resumed)."""
    seconds: float
    """Wall-clock seconds this call spent computing."""


def chunk_path(out: Path, index: int) -> Path:
    return out / CHUNKS / f"{index:05d}.csv"


def read_run(out: Path) -> dict | None:
    """The JSON object of ``out``'s ``run.json``, or None when there is none; raises
    :class:`StudyFolderError` when the file cannot be read or holds no JSON object."""
    path = out / RUN_FILE
    if not path.exists():
        return None
    try:
        run = json.loads(path.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise StudyFolderError(f"{path} is not a study's run.json ({error})") from None
    except OSError as error:
        raise StudyFolderError(f"cannot read {path}: {error.strerror or error}") from None
    if not isinstance(run, dict):
        raise StudyFolderError(
            f"{path} is not a study's run.json (it holds {_json_kind(run)}, not an object of "
            "the study's parameters)"
        )
    return run


def _json_kind(value: object) -> str:
    if value is None:
        return "null"
    kinds = {bool: "true or false", str: "a string", list: "a list"}
    return next((kind for t, kind in kinds.items() if isinstance(value, t)), "a number")


REQUIRED = ("players", "hands", "samples", "seed")
"""The parameters every ``run.json`` records (the others have defaults)."""


def run_parameters(path: Path, run: dict) -> StudyParameters:
    """The parameters ``run`` (the object read from ``path``, a ``run.json``) records; raises
    :class:`StudyFolderError`, naming ``path``, when they are missing, of the wrong type or
    out of range."""
    fields = StudyParameters.__dataclass_fields__
    problem = _run_problem(run)
    if problem is None:
        try:
            return StudyParameters(**{key: run[key] for key in fields if key in run})
        except (StudyError, PlayerCountError) as error:
            problem = str(error)
    raise StudyFolderError(f"{path} is not a study's run.json ({problem})")


def _run_problem(run: dict) -> str | None:
    """What is wrong with the keys and types of ``run``, or None."""
    missing = [key for key in REQUIRED if key not in run]
    if missing:
        return f"it lacks {', '.join(missing)}"
    for key in StudyParameters.__dataclass_fields__:
        value = run.get(key)
        if key not in run or (key == "chunk_hands" and value is None):
            continue
        text = key in ("taker", "defence")
        if isinstance(value, bool) or not isinstance(value, str if text else int):
            return f"{key} is {json.dumps(value)}, not {'a name' if text else 'a whole number'}"
    seconds = run.get("compute_seconds", 0.0)
    if isinstance(seconds, bool) or not isinstance(seconds, int | float):
        return f"compute_seconds is {json.dumps(seconds)}, not a number"
    return None


def _holds_results(out: Path) -> bool:
    """Whether ``out`` holds a report's files (this study's or another's) that a run would
    overwrite."""
    chunks = out / CHUNKS
    files = (RUN_FILE, HANDS_FILE, "summary.json", "report.html")
    return any((out / name).exists() for name in files) or (
        chunks.is_dir() and any(chunks.iterdir())
    )


def prepare_folder(out: Path, parameters: StudyParameters, *, resume: bool) -> None:
    """Check that ``out`` can take this run and record its parameters in ``run.json``.

    Raises :class:`StudyFolderError` when ``out`` holds results and ``resume`` is false, holds
    results but no study to resume, a ``run.json`` that is no study's (:func:`run_parameters`),
    or a study with other parameters.
    """
    wanted = parameters.to_dict()
    previous = read_run(out) if resume else None
    if previous is not None:
        run_parameters(out / RUN_FILE, previous)
    if previous is None and out.exists() and _holds_results(out):
        if resume:
            raise StudyFolderError(
                f"{out} holds results but no {RUN_FILE} of a thresholds study to resume: "
                "choose another folder"
            )
        raise StudyFolderError(
            f"{out} already holds a study's results: add --resume to finish or reuse it, "
            "or choose another folder"
        )
    if previous is not None and previous.get("code") != code_version():
        raise StudyFolderError(
            f"the analyser's code has changed since the study in {out} began, and resuming "
            "would mix the numbers of two versions: run it again in another folder"
        )
    if previous is not None:
        stored = {key: previous.get(key) for key in wanted}
        if stored != wanted:
            differ = ", ".join(
                f"{k} {stored[k]} (asked {wanted[k]})" for k in wanted if stored[k] != wanted[k]
            )
            raise StudyFolderError(
                f"{out} holds a study with other parameters ({differ}): resume it with the "
                "same ones, or choose another folder"
            )
    (out / CHUNKS).mkdir(parents=True, exist_ok=True)
    if previous is None:
        write_text(
            out / RUN_FILE,
            json.dumps({**wanted, "code": code_version(), "compute_seconds": 0.0}) + "\n",
        )


def missing_chunks(out: Path, parameters: StudyParameters) -> list[int]:
    """The chunks whose file is not there yet, in order."""
    return [k for k in range(parameters.n_chunks) if not chunk_path(out, k).exists()]


def run_study(
    out: Path,
    parameters: StudyParameters,
    *,
    resume: bool = False,
    jobs: int = 1,
    backend: str | None = None,
    on_chunk: Callable[[int], None] | None = None,
) -> RunOutcome:
    """Compute the missing chunks of the study in ``out``, each written as soon as it is done.

    ``on_chunk`` receives the number of hands done so far (those resumed included). Whatever
    stops the run (an exception, Ctrl-C), the chunks written stay, and the computing time spent
    is added to ``run.json``.
    """
    out.mkdir(parents=True, exist_ok=True)
    prepare_folder(out, parameters, resume=resume)
    todo = missing_chunks(out, parameters)
    done_hands = parameters.hands - sum(parameters.chunk_hands_of(k) for k in todo)
    if on_chunk is not None:
        on_chunk(done_hands)
    start = time.perf_counter()
    computed = 0
    try:
        # Nothing to compute: no workers asked for (a Dask backend may have no client then).
        for index, frame in (
            run_chunks(parameters, todo, jobs=jobs, backend=backend) if todo else ()
        ):
            text = frame.to_csv(index=False, float_format=FLOAT_FORMAT, lineterminator="\n")
            write_text(chunk_path(out, index), text)
            computed += 1
            done_hands += len(frame)
            if on_chunk is not None:
                on_chunk(done_hands)
    finally:
        seconds = time.perf_counter() - start
        if computed:
            run = read_run(out) or parameters.to_dict()
            run["compute_seconds"] = float(run.get("compute_seconds", 0.0)) + seconds
            write_text(out / RUN_FILE, json.dumps(run) + "\n")
    return RunOutcome(computed, parameters.n_chunks - len(todo), seconds if computed else 0.0)


def assemble(out: Path, parameters: StudyParameters) -> pd.DataFrame:
    """Join the chunk files, in order, into ``hands.csv`` and return its table.

    The file is the chunks' text put end to end (one header), so it depends only on them.
    """
    missing = missing_chunks(out, parameters)
    if missing:
        raise StudyFolderError(
            f"{len(missing)} chunk(s) of {parameters.n_chunks} are missing in {out / CHUNKS}: "
            "run again with --resume"
        )
    parts = []
    for index in range(parameters.n_chunks):
        header, body = _chunk_text(out, parameters, index)
        if index == 0:
            parts.append(header + "\n")
        parts.append(body)
    write_text(out / HANDS_FILE, "".join(parts))
    return pd.read_csv(out / HANDS_FILE, keep_default_na=False, na_values=[""])


def _chunk_text(out: Path, parameters: StudyParameters, index: int) -> tuple[str, str]:
    """The header and the rows of chunk ``index``; raises :class:`StudyFolderError`, naming the
    file, when it cannot be read or is not the chunk it should be (the study's columns, one
    whole line a hand). Chunks are written whole, so such a file was damaged afterwards: it is
    not recomputed unasked, nor its hands silently left out."""
    path = chunk_path(out, index)
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        problem = "it is not UTF-8 text"
    except OSError as error:
        raise StudyFolderError(f"cannot read {path}: {error.strerror or error}") from None
    else:
        header, _, body = text.partition("\n")
        rows, wanted = body.count("\n"), parameters.chunk_hands_of(index)
        if not text:
            problem = "it is empty"
        elif header != ",".join(columns(parameters.players)):
            problem = "its header is not the study's columns"
        elif rows != wanted or not body.endswith("\n"):
            problem = f"it holds {rows} whole line(s) of hands, not {wanted}"
        else:
            return header, body
    raise StudyFolderError(
        f"{path} is damaged ({problem}): delete it and run again with --resume to compute it again"
    )
