"""Reading the reports ``copa-ref conformance merge`` merges: outside input (another
machine's shard), so each is read as the corpus is and every line is validated before use.

A report must be a regular file (no FIFO, no device such as ``/dev/zero``) of at most
:data:`~copa_ref.conformance.corpus.MAX_FILE` bytes (all reports together too), UTF-8; each
line is read by :func:`copa_ref.core.codec.loads` (nesting at most :data:`MAX_DEPTH` deep,
no lone surrogate, no duplicate key, no ``NaN``, bounded integers) and validated against
``report.schema.json`` (the definition its ``type`` names), a difference's case against
the corpus schema's case. Whatever is printed from a report goes through
:class:`Printable`: control characters (C0 but the line break, C1, DEL, bidirectional
controls, lone surrogates) escaped, each line and the whole output bounded.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import IO, Any

from copa_ref.conformance.corpus import MAX_FILE, CorpusError, read_corpus_file
from copa_ref.core.codec import Limits, clip, escape_controls, loads
from copa_ref.core.errors import MalformedInputError

__all__ = ["MAX_DEPTH", "BadReport", "Printable", "read_reports"]

MAX_DEPTH = 64
"""The deepest nesting of a report line (a difference line with its case is 9 deep)."""

LINE_LIMITS = Limits(max_length=MAX_FILE, max_depth=MAX_DEPTH, max_int_digits=40)

KINDS = ("explore_header", "explore_game", "difference", "explore_footer")
"""The line types of an exploration's report."""


class BadReport(ValueError):
    """A report that cannot be merged: one printable line says which and why."""


@functools.cache
def _validators() -> dict[str, Callable[[Any], Any]]:
    from copa_ref.conformance import schemas

    result = {kind: schemas.validator("report.schema.json", ref=f"#/$defs/{kind}")
              for kind in KINDS}
    result["case"] = schemas.validator("corpus.schema.json", ref="#/$defs/case")
    return {kind: v.iter_errors for kind, v in result.items()}


def _first_error(kind: str, value: Any) -> str | None:
    for error in _validators()[kind](value):
        where = "/".join(str(p) for p in error.absolute_path) or "the line"
        return f"{clip(where, 80)}: {clip(str(error.message), 160)}"
    return None


def check_line(line: Any) -> str | None:
    """Why *line* (a parsed report line) is not a valid exploration report line, or
    ``None``."""
    if type(line) is not dict:
        return f"a line is a {type(line).__name__}, not an object"
    kind = line.get("type")
    if type(kind) is not str or kind not in KINDS:
        return f"a line's type is {clip(repr(kind), 60)}, not one of {', '.join(KINDS)}"
    why = _first_error(kind, line)
    if why is None and kind == "difference":
        why = _first_error("case", line["case"])
        if why is not None:
            why = f"case: {why}"
        elif line["case"]["kind"] != line["kind"] or line["case"]["game"] != line["game"]:
            why = "case: its kind or game is not the difference's"
    if why is None and kind == "explore_footer":
        for key in ("never_reached", "untested_past_difference"):
            if not set(line[key]) <= set(line["fired"]):
                why = f"{key}: names a game that is not in fired"
    return why


def read_report(path: Path, budget: list[int]) -> list[dict[str, Any]]:
    """The validated lines of the report *path*; *budget* holds the bytes all reports may
    still take (``[bytes]``, reduced by this one).

    :raises BadReport: as the module docs say.
    """
    shown = clip(str(path), 200)
    try:
        text = read_corpus_file(path, min(MAX_FILE, budget[0]))
    except CorpusError as exc:
        raise BadReport(clip(str(exc), 400)) from None
    budget[0] -= len(text)
    lines = []
    for number, raw in enumerate(text.split("\n"), 1):
        if not raw.strip():
            continue
        try:
            line = loads(raw, LINE_LIMITS, what="report line")
        except MalformedInputError as exc:
            msg = f"{shown}, line {number}: {clip(str(exc), 300)}"
            raise BadReport(msg) from None
        why = check_line(line)
        if why is not None:
            msg = f"{shown}, line {number}: not an exploration report line: {why}"
            raise BadReport(clip(msg, 600))
        lines.append(line)
    return lines


def read_reports(paths: list[Path]) -> list[list[dict[str, Any]]]:
    """The validated lines of every report in *paths* (all of them together at most
    :data:`~copa_ref.conformance.corpus.MAX_FILE` bytes).

    :raises BadReport: for the first report that cannot be read or is not valid.
    """
    budget = [MAX_FILE]
    reports = []
    for path in paths:
        if budget[0] <= 0:
            msg = f"the reports together are larger than {MAX_FILE} bytes (MAX_FILE)"
            raise BadReport(msg)
        reports.append(read_report(path, budget))
    return reports


class Printable:
    """A text stream that writes to *out* with every control character but the line break
    escaped, each line cut at *width* characters and the whole cut at *limit*."""

    def __init__(self, out: IO[str], width: int = 4000, limit: int = 4 << 20) -> None:
        self.out = out
        self.width = width
        self.left = limit
        self.column = 0

    def write(self, text: str) -> int:
        if self.left <= 0:
            return len(text)
        pieces = []
        for number, part in enumerate(text.split("\n")):
            if number:
                pieces.append("\n")
                self.column = 0
            room = self.width - self.column
            if room <= 0:
                continue
            shown = escape_controls(part[:room + 1])
            if len(shown) > room:
                shown = shown[:max(room - 3, 0)] + "..."
            self.column += len(shown) if len(shown) < room else self.width
            pieces.append(shown)
        result = "".join(pieces)
        if len(result) > self.left:
            result = result[:self.left] + "\n... (output cut)\n"
        self.left -= len(result)
        self.out.write(result)
        return len(text)

    def flush(self) -> None:
        self.out.flush()
