"""The conformance schemas resolve ``$ref`` from the shipped files only: a remote reference
is refused, and no connection is ever tried."""

from __future__ import annotations

import json
import re
import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from copa_ref.conformance.corpus import CORPUS_DIR
from copa_ref.conformance.schemas import (
    rule_patterns,
    schema_text,
    validator,
    with_rule_patterns,
    write_rule_patterns,
)
from copa_ref.games import GAMES


@pytest.fixture
def no_network(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """Record (and refuse) every attempt to connect or open a URL."""
    tried: list[Any] = []

    def refuse(*args: Any, **kwargs: Any) -> Any:
        tried.append(args)
        raise OSError("no network in this test")

    monkeypatch.setattr(socket.socket, "connect", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    return tried


def test_shipped_schemas_validate_offline(no_network: list[Any]) -> None:
    """Every corpus file validates against the shipped schema, with no connection tried."""
    check = validator("corpus.schema.json")
    for path in sorted((CORPUS_DIR / "cases").glob("*/*.json"))[:2]:
        check.validate(json.loads(path.read_text()))
    validator("messages.schema.json", ref="#/$defs/request").validate(
        {"op": "start", "protocol": "1.0"})
    assert no_network == []


def test_a_remote_ref_is_refused_not_fetched(tmp_path: Path, no_network: list[Any]) -> None:
    """A schema that refers to a URL is an error when that part is reached, never a fetch."""
    (tmp_path / "schema").mkdir()
    (tmp_path / "schema" / "corpus.schema.json").write_text(json.dumps({
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://copa-ref.example/conformance/schema/corpus.schema.json",
        "properties": {"x": {"$ref": "http://127.0.0.1:9/evil.json"}}}))
    check = validator("corpus.schema.json", tmp_path)
    with pytest.raises(Exception, match=r"evil\.json"):
        check.validate({"x": 1})
    assert no_network == []


class TestRulePrefixes:
    """The corpus schema's rule ID patterns are the registry's prefixes (written by
    ``copa-ref conformance generate``), never a list kept by hand."""

    def test_the_shipped_schema_is_fresh(self) -> None:
        """The shipped corpus schema is what the registry makes of it, byte for byte."""
        path = CORPUS_DIR / "schema" / "corpus.schema.json"
        contents = json.loads(path.read_text())
        assert path.read_text() == schema_text(with_rule_patterns(contents)), (
            "run 'copa-ref conformance generate'")

    def test_every_registered_prefix_and_no_other_matches(self) -> None:
        """A rule ID of every registered game matches both patterns; an unknown prefix and
        a register entry do not; a protocol section matches only a case's rule."""
        patterns = {name: re.compile(p) for name, p in rule_patterns().items()}
        for game in GAMES.values():
            assert patterns["rule"].match(f"{game.prefix}-1"), game.name
            assert patterns["case_rule"].match(f"{game.prefix}-12"), game.name
        for wrong in ("NOPE-1", "KALA-Q7", "kala-1", "KALA-"):
            assert not patterns["rule"].match(wrong) and not patterns["case_rule"].match(wrong)
        assert patterns["case_rule"].match("P-9") and not patterns["rule"].match("P-9")

    def test_generate_writes_the_patterns(self, tmp_path: Path) -> None:
        """A schema with a stale prefix list is rewritten; a fresh one is left alone."""
        (tmp_path / "schema").mkdir()
        path = tmp_path / "schema" / "corpus.schema.json"
        contents = json.loads((CORPUS_DIR / "schema" / "corpus.schema.json").read_text())
        stale = json.loads(json.dumps(contents))
        stale["$defs"]["rule"]["pattern"] = "^(KALA)-[0-9]+$"
        path.write_text(schema_text(stale))
        assert write_rule_patterns(tmp_path)
        assert path.read_text() == schema_text(with_rule_patterns(contents))
        assert not write_rule_patterns(tmp_path)
