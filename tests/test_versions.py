"""The docs show the versions the package has and the commands the command line has: the
getting-started page's ``copa-ref --version``, every protocol version in a handshake of the
conformance README, the wheel's name, and the README's list of commands."""

from __future__ import annotations

import re
from pathlib import Path

from copa_ref import __version__
from copa_ref.cli import build_parser
from copa_ref.conformance.observables import PROTOCOL_VERSION
from tests.test_cli import subcommands

ROOT = Path(__file__).resolve().parent.parent


def test_getting_started_shows_the_version_the_program_says() -> None:
    corpus = (ROOT / "conformance" / "VERSION").read_text().strip()
    shown = f"copa-ref {__version__} (corpus {corpus}, protocol {PROTOCOL_VERSION})"
    page = (ROOT / "docs" / "getting-started.md").read_text()
    assert f"# {shown}" in page
    assert re.findall(r"protocol (\d+\.\d+)", page) == [PROTOCOL_VERSION]


def test_every_handshake_of_the_conformance_readme_is_the_runner_s() -> None:
    text = (ROOT / "conformance" / "README.md").read_text()
    shown = re.findall(r'"protocol":"([^"]*)"', text)
    assert shown and set(shown) == {PROTOCOL_VERSION}


def test_the_wheel_named_in_the_docs_is_this_version() -> None:
    for page in (ROOT / "README.md", ROOT / "docs" / "getting-started.md"):
        for version in re.findall(r"copa_ref-(\d[\w.]*?)(?:-py3|\.tar\.gz)", page.read_text()):
            assert version == __version__, page


def test_the_readme_lists_every_command() -> None:
    text = (ROOT / "README.md").read_text()
    listed = {" ".join(m.split()[:3 if m.startswith("copa-ref conformance") else 2])
              for m in re.findall(r"^- `(copa-ref [^`]*)`", text, flags=re.MULTILINE)}
    commands = {path for path, parser in subcommands(build_parser())
                if path != "copa-ref conformance"}
    # merge is told under explore (its shards), in the same list
    assert commands <= {c.rstrip(":") for c in listed} | {"copa-ref conformance merge"}, (
        commands - listed)
