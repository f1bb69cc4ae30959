"""``copa-ref conformance merge`` and the writers against hostile reports and folders: no
path outside ``--out DIR``, nothing written through a link, every bad report refused with
one line and exit status 2 (never a traceback), in bounded time and memory, and no report
text printed raw."""

from __future__ import annotations

import json
import os
import random
import resource
import time
from pathlib import Path
from typing import Any

import pytest

from copa_ref.cli import main
from copa_ref.conformance.corpus import MAX_FILE
from copa_ref.conformance.explore.report import write_cases as explore_write_cases
from copa_ref.conformance.writer import WriteError, write_cases
from tests.fuzz.conftest import TALLY
from tests.fuzz.strategies import LONG, mutate_json, mutate_text

DATA = Path(__file__).resolve().parents[1] / "data" / "explore_reports"
RAW = ("\x1b[2J", "\x1b]0;pwned\x07", "\x00", "\x07", "\x9b31m", "\u202e", "\x85")
CONTROLS = "\x1b\x00\x07\x9b\u202e\x85"


def shards() -> list[list[dict[str, Any]]]:
    """Two shards of one exploration of KALA (the second found KALA-15)."""
    return [[json.loads(t) for t in (DATA / f"p{k}.jsonl").read_text().splitlines()]
            for k in (1, 2)]


def write(path: Path, lines: list[Any]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def merge(capsys: pytest.CaptureFixture[str], *args: str | Path) -> tuple[int, str, str]:
    status = main(["conformance", "merge", *map(str, args)])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def refused(status: int, err: str) -> None:
    assert status == 2, err[-2000:]
    assert len(err.strip().splitlines()) == 1, err[-2000:]
    assert "Traceback" not in err
    assert len(err) < 1200


def test_the_shards_merge(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = merge(capsys, DATA / "p1.jsonl", DATA / "p2.jsonl", "--out",
                             tmp_path / "out", "--report", tmp_path / "all.jsonl")
    assert status == 1, err
    assert "KALA-15" in out
    assert (tmp_path / "out" / "cases" / "kala" / "traces.json").is_file()
    assert json.loads((tmp_path / "all.jsonl").read_text().splitlines()[0])["merged"] == [
        "1/2", "2/2"]


# -- paths from case names -----------------------------------------------------------------

ESCAPES = ["../", "/abs/path", "kala/../..", "../../ESCAPED", "..", "kala\n", "ka\x00la"]


@pytest.mark.parametrize("field", ["game", "kind"])
@pytest.mark.parametrize("value", ESCAPES)
def test_case_names_never_leave_the_folder(field: str, value: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """A difference whose case names a game or kind that is a path: refused (the line is
    not a valid report line), nothing written anywhere."""
    first, second = shards()
    for line in second:
        if line["type"] == "difference":
            line["case"][field] = value
            line[field] = value
    report = write(tmp_path / "p2.jsonl", second)
    inside = tmp_path / "a" / "b" / "out"
    inside.parent.mkdir(parents=True)
    status, _, err = merge(capsys, write(tmp_path / "p1.jsonl", first), report, "--out",
                           inside)
    refused(status, err)
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["a", "b", "p1.jsonl", "p2.jsonl"]
    TALLY["hostile merge paths"] += 1


@pytest.mark.parametrize("value", ESCAPES)
def test_the_writer_checks_names_itself(value: str, tmp_path: Path) -> None:
    """``explore --out`` writes through the same writer, which checks the names itself."""
    for field in ("game", "kind"):
        case = {"game": "kala", "kind": "trace", "id": "x"}
        case[field] = value
        with pytest.raises(WriteError):
            write_cases(tmp_path / "out", [{"case": case}])
    assert list(tmp_path.iterdir()) == []


# -- links already in the folder -----------------------------------------------------------

PLANTS = ["cases file", "VERSION", "schema file", "cases folder"]


def _plant(plant: str, out: Path, outside: Path) -> Path:
    """A link where the write goes; the file it points to (to check it is untouched)."""
    victim = outside / "victim.json"
    victim.write_text("keep")
    (out / "cases" / "kala").mkdir(parents=True)
    (out / "schema").mkdir()
    where = {"cases file": out / "cases" / "kala" / "traces.json",
             "VERSION": out / "VERSION",
             "schema file": out / "schema" / "corpus.schema.json",
             "cases folder": out / "cases"}[plant]
    if plant == "cases folder":
        (out / "cases" / "kala").rmdir()
        where.rmdir()
        where.symlink_to(outside, target_is_directory=True)
    else:
        where.symlink_to(victim)
    return victim


@pytest.mark.parametrize("plant", PLANTS)
def test_merge_never_writes_through_a_link(plant: str, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = _plant(plant, tmp_path / "out", outside)
    status, _, err = merge(capsys, DATA / "p1.jsonl", DATA / "p2.jsonl", "--out",
                           tmp_path / "out")
    refused(status, err)
    assert "symbolic link" in err
    assert sorted(p.name for p in outside.iterdir()) == ["victim.json"]
    assert victim.read_text() == "keep"
    TALLY["hostile merge folders"] += 1


@pytest.mark.parametrize("plant", PLANTS)
def test_explore_out_never_writes_through_a_link(plant: str, tmp_path: Path) -> None:
    """``explore --out`` writes its cases with the same function."""
    outside = tmp_path / "outside"
    outside.mkdir()
    victim = _plant(plant, tmp_path / "out", outside)
    differences = [line for line in shards()[1] if line["type"] == "difference"]
    with pytest.raises(WriteError, match="symbolic link"):
        explore_write_cases(tmp_path / "out", differences)
    assert sorted(p.name for p in outside.iterdir()) == ["victim.json"]
    assert victim.read_text() == "keep"
    TALLY["hostile merge folders"] += 1


def test_merge_report_never_written_through_a_link(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep")
    (tmp_path / "all.jsonl").symlink_to(victim)
    status, _, err = merge(capsys, DATA / "p1.jsonl", "--report", tmp_path / "all.jsonl")
    refused(status, err)
    assert victim.read_text() == "keep"


def test_a_rewrite_replaces_the_files(tmp_path: Path,
                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Writing over an earlier output replaces its files (no temporary file left)."""
    for _ in range(2):
        status, _, err = merge(capsys, DATA / "p1.jsonl", DATA / "p2.jsonl", "--out",
                               tmp_path / "out", "--report", tmp_path / "all.jsonl")
        assert status == 1, err
    assert not [p for p in tmp_path.rglob("*.tmp")]


# -- hostile shapes --------------------------------------------------------------------------


def _shapes() -> dict[str, str]:
    first = shards()[0]
    header, footer = first[0], first[-1]
    game = first[1]
    difference = next(line for line in shards()[1] if line["type"] == "difference")
    named = {**difference, "game": "ka\x00la",
             "case": {**difference["case"], "game": "ka\x00la"}}

    def changed(line: dict[str, Any], **changes: Any) -> str:
        return json.dumps({**line, **changes})

    missing = dict(header)
    del missing["seed"]
    return {
        "a list": "[1, 2]",
        "a number": "3",
        "a missing key": json.dumps(missing),
        "a wrong-typed key": changed(footer, games="8"),
        "shard as a list": changed(header, shard=["1/2"]),
        "200,000-deep nesting": "[" * 200_000 + "]" * 200_000,
        "a NUL in a name": json.dumps(named),
        "a lone surrogate": changed(game, config="\ud800"),
        "an unknown type": changed(game, type="explore_gam"),
        "not UTF-8": "\xff",
        "a footer naming an unplayed game": changed(
            footer, untested_past_difference={"ronda": ["RONDA-1"]}),
    }


@pytest.mark.parametrize("shape", list(_shapes()))
def test_hostile_shapes_are_refused_in_one_line(shape: str, tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    text = _shapes()[shape]
    lines = (DATA / "p1.jsonl").read_text().splitlines()
    lines.insert(2, text)
    path = tmp_path / "bad.jsonl"
    if shape == "not UTF-8":
        path.write_bytes("\n".join(lines).replace("\xff", "").encode() + b"\n\xff\n")
    else:
        path.write_text("\n".join(lines) + "\n", errors="surrogatepass")
    status, _, err = merge(capsys, path)
    refused(status, err)
    assert not [c for c in err if c in CONTROLS]
    TALLY["hostile merge shapes"] += 1


@pytest.mark.parametrize("plant", ["/dev/zero", "fifo", "folder", "200 MB"])
def test_reports_that_are_not_small_regular_files(plant: str, tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Refused at once, without reading them whole or waiting on them."""
    path = tmp_path / "report.jsonl"
    if plant == "/dev/zero":
        path = Path("/dev/zero")
    elif plant == "fifo":
        os.mkfifo(path)
    elif plant == "folder":
        path.mkdir()
    else:
        with path.open("wb") as sink:
            sink.truncate(200 << 20)
    started = time.perf_counter()
    status, _, err = merge(capsys, path)
    refused(status, err)
    assert time.perf_counter() - started < 10
    TALLY["hostile merge files"] += 1


def test_report_text_is_printed_escaped_and_bounded(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Terminal escapes, NUL, C1 and bidirectional controls in every printed field, and a
    20 MB reason: printed escaped, the output a few MB at most."""
    first, second = shards()
    for line in second:
        if line["type"] == "difference":
            line["rule"] = "KALA-15" + "".join(RAW)
            line["explanation"] = "".join(RAW) * 3
            line["reason"] = "".join(RAW) + "x" * (20 << 20)
            line["diff"] = "\n".join(RAW)
    report = write(tmp_path / "p2.jsonl", second)
    status, out, err = merge(capsys, write(tmp_path / "p1.jsonl", first), report)
    assert status == 1, err[-2000:]
    assert "\\x1b[2J" in out
    assert not [c for c in out + err if c in CONTROLS]
    assert len(out) < 5 << 20
    TALLY["hostile merge shapes"] += 1


# -- fuzz ------------------------------------------------------------------------------------

FUZZ = 20_000 if LONG else 300


def test_mutated_reports_never_crash(tmp_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    """Reports with one line mutated (as JSON, or as text): exit status 0, 1 or 2, one line
    on stderr when 2, nothing written outside the output folder; a tenth written out with
    ``--out``."""
    rng = random.Random(32)
    base = shards()
    texts = [[json.dumps(line) for line in lines] for lines in base]
    statuses: dict[int, int] = {}
    started = time.perf_counter()
    for number in range(FUZZ):
        which = rng.randrange(2)
        lines = list(texts[which])
        index = rng.randrange(len(lines))
        if rng.random() < 0.7:
            lines[index] = json.dumps(mutate_json(base[which][index], rng))
        else:
            mutated = mutate_text(lines[index], rng)
            lines[index] = mutated if isinstance(mutated, str) else mutated.decode(
                "utf-8", "replace")
        path = tmp_path / "shard.jsonl"
        path.write_text("\n".join(lines) + "\n")
        other = DATA / f"p{2 - which}.jsonl"
        extra: list[str | Path] = []
        if number % 10 == 0:
            extra = ["--out", tmp_path / "out" / str(number)]
        status, _, err = merge(capsys, path, other, *extra)
        assert status in (0, 1, 2), err
        if status == 2:
            refused(status, err)
        statuses[status] = statuses.get(status, 0) + 1
    assert sorted(p.name for p in tmp_path.iterdir()) in (["shard.jsonl"],
                                                          ["out", "shard.jsonl"])
    TALLY["mutated merge reports"] += FUZZ
    assert statuses.get(2, 0) > FUZZ // 4, statuses
    assert time.perf_counter() - started < FUZZ * 0.5


def test_a_large_valid_report_in_bounded_time_and_memory(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A report near the size bound, every line valid: merged in bounded time and memory."""
    first = shards()[0]
    game = json.dumps(first[1])
    count = (MAX_FILE // 4 if LONG else 2 << 20) // (len(game) + 1)
    path = tmp_path / "big.jsonl"
    with path.open("w") as sink:
        sink.write(json.dumps(first[0]) + "\n")
        for number in range(count):
            sink.write(json.dumps({**first[1], "number": number}) + "\n")
        sink.write(json.dumps({**first[-1], "games": count}) + "\n")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.perf_counter()
    status, _, err = merge(capsys, path, "--report", tmp_path / "all.jsonl")
    seconds = time.perf_counter() - started
    grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    assert status == 0, err[-2000:]
    assert seconds < 120, seconds
    assert grown < 2048, grown
    TALLY["large merge report lines"] += count
