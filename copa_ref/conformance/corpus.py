"""The conformance corpus: where it is, its version, its cases, and which of them to run.

This module is the one source for all four: the location (:func:`corpus_dir`,
:data:`CORPUS_DIR`), the version (:func:`corpus_version`), loading (:func:`load_corpus`) and
selecting (:class:`Filters`, :func:`select`).

The source tree keeps the corpus in its top-level ``conformance/`` folder (``VERSION``,
``README.md``, ``schema/``, ``cases/<game>/``). The wheel carries the same folder as the data
package ``copa_ref.conformance.published`` (mapped in ``pyproject.toml``), found with
:mod:`importlib.resources`, so an installed copy runs its corpus from anywhere. From a
checkout (the source tree, or an editable install of it) the folder itself is used, and only
there may ``copa-ref conformance generate`` write it.
"""

from __future__ import annotations

import fnmatch
import json
import os
import re
import stat
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import attrs

from copa_ref.conformance.location import CORPUS_DIR, PACKAGE, checkout_root, corpus_dir
from copa_ref.core.codec import CONTROL, clip, escape_strings

__all__ = [
    "CORPUS_DIR",
    "MAX_FILE",
    "PACKAGE",
    "PUBLISHED",
    "Case",
    "CorpusError",
    "ExportError",
    "Filters",
    "NoCheckoutError",
    "checkout_corpus",
    "checkout_root",
    "corpus_dir",
    "corpus_version",
    "export_corpus",
    "load_corpus",
    "read_corpus_file",
    "select",
]

Case = dict[str, Any]
"""One case of the corpus, as its JSON (``conformance/README.md``)."""

PUBLISHED = ("VERSION", "README.md", "schema/*.json", "cases/*/*.json")
"""The files of the published corpus, as glob patterns under its folder (``pyproject.toml``
ships the same)."""


class NoCheckoutError(RuntimeError):
    """The source checkout is needed (to write the corpus) and this is an installed copy."""


def checkout_corpus() -> Path:
    """The checkout's ``conformance/`` folder, the only place ``generate`` writes by default.

    :raises NoCheckoutError: when this code runs from an installed package.
    """
    root = checkout_root()
    if root is None:
        msg = ("copa-ref runs from an installed package, not from a checkout of its source: "
               "generate writes the corpus only into a checkout's conformance/ folder (or "
               "--out DIR). The corpus this copy carries is written out by "
               "'copa-ref conformance export DIR'.")
        raise NoCheckoutError(msg)
    return root / "conformance"


class ExportError(ValueError):
    """The corpus cannot be written where asked: the message says why, in one line."""


def export_corpus(dest: Path, source: Path | None = None) -> list[Path]:
    """Copy the published corpus (:data:`PUBLISHED`) from *source* (default: :func:`corpus_dir`)
    into *dest*, keeping its layout; returns the files written, sorted.

    Written by :class:`copa_ref.conformance.writer.Folder` (each file replaced atomically):
    *dest* (made if missing) may itself be reached through a link, but nothing under it is
    ever written through one: a link, a FIFO or a device where a folder or file of the
    corpus belongs is refused, and so is *dest* when it is a file.

    :raises ExportError: when *dest*, or a folder or file under it, cannot be written.
    """
    from copa_ref.conformance.writer import Folder, WriteError

    source = corpus_dir() if source is None else source
    written: list[Path] = []
    try:
        with Folder(dest) as folder:
            for pattern in PUBLISHED:
                for path in sorted(source.glob(pattern)):
                    relative = path.relative_to(source)
                    written.append(folder.write(relative.parts, path.read_bytes()))
    except WriteError as exc:
        raise ExportError(str(exc)) from None
    return sorted(written)


MAX_FILE = 64 << 20
"""The largest corpus file read, in bytes (the largest published one is under 5 MB)."""


class CorpusError(ValueError):
    """A corpus file that cannot be read: not a regular file, too large, not UTF-8 JSON."""


def read_corpus_file(path: Path, limit: int = MAX_FILE) -> str:
    """The text of the regular file *path*, at most *limit* bytes: a FIFO, a device
    (``/dev/zero``), a folder or a larger file is refused, without blocking or reading it
    whole.

    :raises CorpusError: as above, or when it is not UTF-8.
    """
    shown = clip(str(path), 200)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError as exc:
        msg = f"{shown}: {exc.strerror}"
        raise CorpusError(msg) from None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        msg = f"{shown} is not a regular file"
        raise CorpusError(msg)
    with os.fdopen(fd, "rb") as source:
        data = source.read(limit + 1)
    if len(data) > limit:
        msg = f"{shown} is larger than {limit} bytes (MAX_FILE)"
        raise CorpusError(msg)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        msg = f"{shown} is not UTF-8 (byte {exc.start})"
        raise CorpusError(msg) from None


_STRAY = re.compile(CONTROL.pattern.replace("\x00-\x1f", "\x00-\x08\x0b\x0c\x0e-\x1f"))
"""The :data:`~copa_ref.core.codec.CONTROL` characters but the line breaks and tabs of JSON
text: in text :func:`json.loads` read, those are whitespace between values (a string holds
them only escaped), so a text without a backslash and without these holds no string with a
control character."""


def corpus_version(corpus: Path = CORPUS_DIR) -> str:
    """The version of the corpus in *corpus* (its ``VERSION`` file), printable."""
    return clip(read_corpus_file(corpus / "VERSION", 1 << 10).strip(), 100)


def load_corpus(corpus: Path = CORPUS_DIR, *, validate: bool = False) -> list[Case]:
    """Every case of the corpus in *corpus*, in file order (games, then kinds).

    Only regular files of at most :data:`MAX_FILE` bytes are read
    (:func:`read_corpus_file`); the control characters of every string (case IDs, rules,
    expected values) are escaped as an engine's are, for a corpus that holds any.

    :param validate: also validate each file against ``schema/corpus.schema.json``.
    :raises CorpusError: for a file that cannot be read (see :func:`read_corpus_file`).
    """
    validator = None
    if validate:
        from copa_ref.conformance import schemas

        validator = schemas.validator("corpus.schema.json", corpus)
    cases: list[Case] = []
    for path in sorted((corpus / "cases").glob("*/*.json")):
        text = read_corpus_file(path)
        data = json.loads(text)
        if validator is not None:
            validator.validate(data)
        if "\\" in text or _STRAY.search(text):
            data = escape_strings(data)  # (else no string can hold a control character)
        cases.extend(data["cases"])
    return cases


@attrs.frozen
class Filters:
    """Which cases to run; every given filter must match (``None``: any)."""

    game: str | None = None
    case: str | None = None
    """A case ID or a glob pattern over IDs (``kala/rejection/*``)."""
    rule: str | None = None
    """A rule ID the case covers."""
    kind: str | None = None

    def matches(self, case: Case) -> bool:
        """Whether *case* passes every filter."""
        if self.game is not None and case["game"] != self.game:
            return False
        if self.kind is not None and case["kind"] != self.kind:
            return False
        if self.case is not None and not (case["id"] == self.case
                                          or fnmatch.fnmatchcase(case["id"], self.case)):
            return False
        return self.rule is None or self.rule in case["rules"] or case.get("rule") == self.rule

    def as_json(self) -> dict[str, str]:
        """The filters given, as JSON."""
        return {k: v for k, v in attrs.asdict(self).items() if v is not None}


def select(cases: Iterable[Case], filters: Filters) -> list[Case]:
    """The cases that pass *filters*."""
    return [case for case in cases if filters.matches(case)]
