"""The one writer of files from outside data: the minimal cases of ``explore --out`` and
``merge --out`` (a corpus folder), the report of ``merge --report`` and the report of
``explore --report``.

Every write goes through :class:`Folder`: the folder given (which may itself be reached
through a link: the user chose it) is opened once, and every folder and file under it is
reached from that descriptor by plain names only (no ``/``, no ``.`` or ``..``, no NUL), each
folder opened with ``O_NOFOLLOW``: a symbolic link, a FIFO or a device anywhere the write
would go through is refused, never followed. A file is written to a fresh temporary file in
its own folder and then moved over the old one with :func:`os.replace`, so a reader sees the
old file or the new one, never half of one (but ``explore --report``, written line by line
as the exploration goes, so that it can be followed and an interrupted run keeps its
lines: :meth:`Folder.open_text`). Names taken from report data (a case's ``game``
and ``kind``) are checked against the corpus schema's pattern and enum first.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import stat
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType
from typing import IO, Any

from copa_ref.conformance.location import CORPUS_DIR
from copa_ref.conformance.observables import CORPUS_VERSION
from copa_ref.core.codec import clip

__all__ = ["Folder", "WriteError", "check_case_names", "open_report", "write_cases",
           "write_report"]


class WriteError(ValueError):
    """A file or folder that cannot be written where asked: the message says why, in one
    line."""


_DIRECTORY = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC
_STREAM = os.O_WRONLY | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
_TEMPORARY = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
MAX_NAME = 255


def _plain(name: str) -> str:
    """*name* when it names one entry of a folder (not empty, ``.``, ``..``; no ``/`` or
    NUL; at most :data:`MAX_NAME` characters)."""
    if (type(name) is not str or name in ("", ".", "..") or "/" in name or "\x00" in name
            or len(name) > MAX_NAME):
        msg = f"{clip(repr(name), 100)} is not a plain file name"
        raise WriteError(msg)
    return name


def _kind(parent: int, name: str) -> str:
    """What *name* in *parent* is when it is not a plain folder or file ('' if missing)."""
    try:
        mode = os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode
    except OSError:
        return ""
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a file"
    return "a special file"


class Folder:
    """A folder files are written under, never through a link (see the module docs).

    :param root: the folder (made with its parents when *make*); it may be a link itself.
    :raises WriteError: when *root* is not a folder or cannot be opened.
    """

    def __init__(self, root: Path, *, make: bool = True) -> None:
        self.root = root
        if root.exists() and not root.is_dir():
            msg = f"{clip(str(root), 200)} exists and is not a folder"
            raise WriteError(msg)
        try:
            if make:
                root.mkdir(parents=True, exist_ok=True)
            self._fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
        except (OSError, ValueError) as exc:
            msg = f"{clip(str(root), 200)}: {getattr(exc, 'strerror', None) or exc}"
            raise WriteError(clip(msg)) from None

    def close(self) -> None:
        """Close the folder's descriptor."""
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> Folder:
        return self

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()

    def _enter(self, parent: int, name: str, shown: Path) -> int:
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, 0o777, dir_fd=parent)
        try:
            return os.open(name, _DIRECTORY, dir_fd=parent)
        except OSError as exc:
            kind = _kind(parent, name)
            msg = (f"{clip(str(shown), 200)} is {kind}, not a folder" if kind
                   else f"{clip(str(shown), 200)}: {exc.strerror}")
            raise WriteError(msg) from None

    def open_text(self, name: str) -> IO[str]:
        """The regular file *name* in the folder, made or emptied, open to write text into
        as it is made (not atomic: a reader sees it grow).

        :raises WriteError: for a name that is not plain, or a link, FIFO, device or folder
            there (refused, never followed or opened for writing).
        """
        shown = self.root / _plain(name)
        kind = _kind(self._fd, name)
        if kind not in ("", "a file"):
            msg = f"{clip(str(shown), 200)} is {kind}; only regular files are written"
            raise WriteError(msg)
        try:  # non-blocking: a FIFO put there meanwhile is refused, not waited on
            fd = os.open(name, _STREAM, 0o666, dir_fd=self._fd)
        except OSError as exc:
            kind = _kind(self._fd, name)
            msg = (f"{clip(str(shown), 200)} is {kind}; only regular files are written"
                   if kind not in ("", "a file") else f"{clip(str(shown), 200)}: {exc.strerror}")
            raise WriteError(msg) from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            msg = f"{clip(str(shown), 200)} is a special file; only regular files are written"
            raise WriteError(msg)
        os.set_blocking(fd, True)
        os.ftruncate(fd, 0)
        return os.fdopen(fd, "w", encoding="utf-8", errors="backslashreplace")

    def write(self, parts: tuple[str, ...], data: bytes) -> Path:
        """Write *data* to the file *parts* (folder names, then the file's) under the
        folder, made or replaced atomically; the path written.

        :raises WriteError: for a name that is not plain, or a link, FIFO, device or folder
            where a folder or the file belongs.
        """
        for part in parts:
            _plain(part)
        if not parts:
            raise WriteError("no file name")
        shown = self.root.joinpath(*parts)
        fds = [self._fd]
        try:
            for depth, part in enumerate(parts[:-1], 1):
                fds.append(self._enter(fds[-1], part, self.root.joinpath(*parts[:depth])))
            _replace(fds[-1], parts[-1], data, shown)
        finally:
            for fd in fds[1:]:
                os.close(fd)
        return shown


def _replace(parent: int, name: str, data: bytes, shown: Path) -> None:
    """Write *data* as the regular file *name* in *parent*: a temporary file beside it,
    then :func:`os.replace`; a link, FIFO, device or folder there is refused."""
    kind = _kind(parent, name)
    if kind not in ("", "a file"):
        msg = f"{clip(str(shown), 200)} is {kind}; only regular files are written"
        raise WriteError(msg)
    temporary = f".{name[:200]}.{secrets.token_hex(8)}.tmp"
    try:
        fd = os.open(temporary, _TEMPORARY, 0o666, dir_fd=parent)
    except OSError as exc:
        msg = f"{clip(str(shown), 200)}: {exc.strerror}"
        raise WriteError(msg) from None
    try:
        with os.fdopen(fd, "wb") as sink:
            sink.write(data)
            sink.flush()
            os.fsync(sink.fileno())
        os.replace(temporary, name, src_dir_fd=parent, dst_dir_fd=parent)
    except OSError as exc:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=parent)
        msg = f"{clip(str(shown), 200)}: {exc.strerror or exc}"
        raise WriteError(clip(msg)) from None
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary, dir_fd=parent)
        raise


def _name_rules() -> tuple[re.Pattern[str], frozenset[str]]:
    """The corpus schema's pattern of game names and enum of case kinds (the shipped
    schema: the folders and files of a corpus are named by them)."""
    from copa_ref.conformance import schemas

    corpus = schemas.schema("corpus.schema.json")
    return (re.compile(corpus["$defs"]["game"]["pattern"]),
            frozenset(corpus["properties"]["kind"]["enum"]))


def check_case_names(game: Any, kind: Any) -> None:
    """Refuse a case whose *game* does not match the corpus schema's pattern (matched
    whole: no ``/``, ``..``, NUL or line break) or whose *kind* is not in its enum.

    :raises WriteError: as above.
    """
    pattern, kinds = _name_rules()
    if type(game) is not str or len(game) > 64 or pattern.fullmatch(game) is None:
        msg = f"a case's game {clip(repr(game), 100)} is not a game name of the corpus schema"
        raise WriteError(msg)
    if type(kind) is not str or kind not in kinds:
        msg = f"a case's kind {clip(repr(kind), 100)} is not a kind of the corpus schema"
        raise WriteError(msg)


def corpus_file(game: str, kind: str, cases: list[dict[str, Any]]) -> str:
    """The text of one corpus file: one case a line, keys sorted, compact."""
    head = json.dumps({"corpus_version": CORPUS_VERSION, "game": game, "kind": kind},
                      sort_keys=True, separators=(",", ":"))[:-1]
    lines = [json.dumps(c, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
             for c in cases]
    return head + ',"cases":[\n' + ",\n".join(lines) + "\n]}\n"


def write_cases(out: Path, differences: Iterable[dict[str, Any]]) -> dict[str, int]:
    """Write the minimal case of each difference line under *out* as a corpus
    (``VERSION``, ``schema/``, ``cases/<game>/<kind>s.json``) that ``copa-ref conformance
    run --corpus OUT`` replays; the number of cases by game.

    :raises WriteError: for a case named outside the schema, or a path under *out* that is
        a link, FIFO or device (nothing is written then, when the names are at fault).
    """
    by_file: dict[tuple[str, str], list[Any]] = {}
    for line in differences:
        case = line["case"]
        check_case_names(case.get("game"), case.get("kind"))
        by_file.setdefault((case["game"], case["kind"]), []).append(case)
    counts: Counter[str] = Counter()
    with Folder(out) as folder:
        folder.write(("VERSION",), (CORPUS_VERSION + "\n").encode())
        for path in sorted((CORPUS_DIR / "schema").glob("*.json")):
            folder.write(("schema", path.name), path.read_bytes())
        for (game, kind), cases in sorted(by_file.items()):
            cases.sort(key=lambda c: str(c["id"]))
            text = corpus_file(game, kind, cases)
            folder.write(("cases", game, f"{kind}s.json"),
                         text.encode("utf-8", "backslashreplace"))
            counts[game] += len(cases)
    return dict(counts)


def write_report(path: Path, text: str) -> None:
    """Write the report *text* to *path* atomically; *path*'s folder is the user's (it
    may be reached through a link), the file itself must be missing or a regular file.

    :raises WriteError: as :meth:`Folder.write`.
    """
    with Folder(path.parent, make=False) as folder:
        folder.write((path.name,), text.encode("utf-8", "backslashreplace"))


def open_report(path: Path) -> IO[str]:
    """Open the report *path* to write JSON lines into as they are made (``explore
    --report``): *path*'s folder is the user's (it may be reached through a link), the file
    itself must be missing or a regular file (it is emptied).

    :raises WriteError: as :meth:`Folder.open_text`, or when the folder cannot be opened.
    """
    with Folder(path.parent, make=False) as folder:
        return folder.open_text(path.name)
