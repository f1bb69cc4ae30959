"""The getting-started page tells the truth: its Python runs as shown, every command it
shows is one the command line has, and the pages it links exist."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

import pytest

from copa_ref.cli import build_parser

ROOT = Path(__file__).resolve().parents[2]
PAGE = (ROOT / "docs" / "getting-started.md").read_text()
PYTHON = re.findall(r"```python\n(.*?)```", PAGE, flags=re.DOTALL)
SHELL = [line.split("#")[0].strip() for block in re.findall(r"```sh\n(.*?)```", PAGE,
                                                             flags=re.DOTALL)
         for line in block.splitlines()]


@pytest.mark.parametrize("number", range(len(PYTHON)))
def test_python_runs(number: int) -> None:
    """Each Python block runs and prints something."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(PYTHON[number], f"getting-started block {number + 1}", "exec"), {})
    assert out.getvalue()


@pytest.mark.parametrize("line", [line for line in SHELL if line.startswith("copa-ref ")])
def test_commands_parse(line: str) -> None:
    """Each ``copa-ref`` command shown is accepted by the parser as written."""
    args = build_parser().parse_args(shlex.split(line)[1:]) if line != "copa-ref --version" \
        else None
    assert args is None or callable(args.func)


def test_links_exist() -> None:
    """Every page the page links to is in the book (the case viewer's pages are written by
    the build itself)."""
    for target in re.findall(r"\]\(([^)#]+\.md)", PAGE):
        assert target.startswith("cases/") or (ROOT / "docs" / target).is_file(), target


def test_in_the_book() -> None:
    """The book's index lists the page and the changelog."""
    index = (ROOT / "docs" / "index.md").read_text()
    assert "\ngetting-started\n" in index and "\nchangelog\n" in index
