"""The conformance schemas resolve ``$ref`` from the shipped files only: a remote reference
is refused, and no connection is ever tried."""

from __future__ import annotations

import json
import socket
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from copa_ref.conformance.corpus import CORPUS_DIR
from copa_ref.conformance.schemas import validator


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
