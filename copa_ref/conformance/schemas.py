"""The conformance schemas, loaded from the shipped files only: no network access, ever.

Every ``$ref`` resolves against the schemas in ``conformance/schema/`` (by their ``$id``, or
by file name relative to one of them) and the JSON Schema metaschemas bundled with
``jsonschema``; any other reference, a remote URL above all, is refused with
:class:`SchemaError` instead of being fetched.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import referencing
import referencing.exceptions
import referencing.jsonschema
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import best_match  # type: ignore[import-untyped]

from copa_ref.conformance.location import CORPUS_DIR
from copa_ref.core.codec import clip

__all__ = ["SchemaError", "problem", "registry", "schema", "validator"]


class SchemaError(Exception):
    """A schema refers to something that is not shipped (a remote ``$ref``), or cannot be
    read."""


def _refuse(uri: str) -> referencing.Resource[Any]:
    msg = f"the schema refers to {uri!r}, which is not a shipped schema (nothing is fetched)"
    raise SchemaError(msg)


def schema(name: str, corpus: Path = CORPUS_DIR) -> dict[str, Any]:
    """The schema *name* (``"corpus.schema.json"``) of the corpus in *corpus*."""
    try:
        loaded: dict[str, Any] = json.loads((corpus / "schema" / name).read_text())
    except (OSError, ValueError) as exc:
        raise SchemaError(f"cannot read schema {name}: {exc}") from None
    return loaded


def registry(corpus: Path = CORPUS_DIR) -> referencing.Registry[Any]:
    """Every shipped schema, under its ``$id`` and its file URI, with a retriever that
    refuses everything else."""
    resources: list[tuple[str, referencing.Resource[Any]]] = []
    for path in sorted((corpus / "schema").glob("*.json")):
        contents = schema(path.name, corpus)
        resource = referencing.Resource.from_contents(
            contents, default_specification=referencing.jsonschema.DRAFT202012)
        resources.append((path.resolve().as_uri(), resource))
        if isinstance(contents.get("$id"), str):
            resources.append((contents["$id"], resource))
    empty: referencing.Registry[Any] = referencing.Registry(retrieve=_refuse)  # type: ignore[call-arg]
    return empty.with_resources(resources)


def validator(name: str = "corpus.schema.json", corpus: Path = CORPUS_DIR,
              ref: str | None = None) -> Any:
    """A Draft 2020-12 validator for the shipped schema *name* (or its ``#/$defs/...``
    part *ref*) that never reaches the network.

    :raises SchemaError: when validating meets a reference that is not shipped.
    """
    root = schema(name, corpus)
    target: dict[str, Any] = root if ref is None else {"$ref": f"{root.get('$id', '')}{ref}"}
    return Draft202012Validator(target, registry=registry(corpus))


PROBLEM = 300
"""The longest :func:`problem` (an engine's value is quoted in it)."""


def problem(check: Any, instance: object) -> str | None:
    """Where *instance* breaks the schema of *check* (a :func:`validator`), naming the field
    (``games.kala.options: 5 is not of type 'array'``, ``features: missing``,
    ``greeting: not a field here``); ``None`` when it follows the schema. Of several
    problems, the one :func:`jsonschema.exceptions.best_match` picks (the highest field);
    at most :data:`PROBLEM` characters, control characters escaped."""
    error = best_match(check.iter_errors(instance))
    if error is None:
        return None
    path = list(error.absolute_path)
    message = str(error.message)
    if error.validator == "required":
        path.append(next(k for k in error.validator_value if k not in error.instance))
        message = "missing"
    elif error.validator == "additionalProperties" and isinstance(error.instance, dict):
        known = error.schema.get("properties", {})
        path.append(next(k for k in sorted(error.instance) if k not in known))
        message = "not a field here"
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" if i else str(p)
                    for i, p in enumerate(path))
    return clip(f"{where or 'the value'}: {message}", PROBLEM)


def rule_patterns() -> dict[str, str]:
    """The patterns of the corpus schema's rule IDs, by the name of their ``$defs`` entry,
    from the registry's rule prefixes (``rule``: a game's rule; ``case_rule``: a game's rule
    or a section of the protocol)."""
    from copa_ref.games import GAMES

    prefixes = "|".join(sorted(game.prefix for game in GAMES.values()))
    return {"rule": f"^({prefixes})-[0-9]+$", "case_rule": f"^(({prefixes})-[0-9]+|P-[0-9]+)$"}


def schema_text(contents: dict[str, Any]) -> str:
    """A shipped schema's file text (two-space indents, a final newline)."""
    return json.dumps(contents, indent=2, ensure_ascii=False) + "\n"


def with_rule_patterns(contents: dict[str, Any]) -> dict[str, Any]:
    """The corpus schema *contents* with its rule ID patterns made from the registry
    (:func:`rule_patterns`)."""
    defs = dict(contents["$defs"])
    for name, pattern in rule_patterns().items():
        defs[name] = {**defs[name], "pattern": pattern}
    return {**contents, "$defs": defs}


def write_rule_patterns(corpus: Path) -> bool:
    """Rewrite the rule ID patterns of *corpus*'s ``schema/corpus.schema.json`` from the
    registry (``copa-ref conformance generate`` does); whether the file changed."""
    path = corpus / "schema" / "corpus.schema.json"
    text = schema_text(with_rule_patterns(schema(path.name, corpus)))
    if path.read_text() == text:
        return False
    path.write_text(text)
    return True
