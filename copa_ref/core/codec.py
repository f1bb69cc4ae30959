"""Canonical JSON for states, actions, configs and observations.

Canonical means: keys sorted, compact separators (``","`` and ``":"``), UTF-8 text, enums as
their lower-case string values, tuples as JSON lists, tagged unions with a ``"type"`` field
holding the class name in snake case (``Sow`` -> ``"sow"``). Two equal values always give
byte-identical JSON, so JSON text can be compared directly.

Decoding is strict: an unknown key, an unknown tag, a wrong type (``"3"`` or ``true`` where
an integer belongs) or a missing field raises :class:`~copa_ref.core.errors.MalformedInputError`;
nothing else escapes.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeVar

import cattrs
import cattrs.preconf.json
import cattrs.strategies

from copa_ref.core.errors import MalformedInputError

__all__ = [
    "JSON",
    "canonical_json",
    "make_converter",
    "register_union",
    "structure",
    "tag_of",
]

JSON = Any
"""A JSON value as Python builds it: dict, list, str, int, float, bool or None."""

T = TypeVar("T")

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


def tag_of(cls: type) -> str:
    """The JSON tag of a union member: its class name in snake case.

    ``PlaceCup`` becomes ``"place_cup"``.
    """
    return _CAMEL.sub("_", cls.__name__).lower()


def _strict_int(value: object, _: type) -> int:
    if type(value) is not int:
        msg = f"expected an integer, got {value!r}"
        raise TypeError(msg)
    return value


def _strict_str(value: object, _: type) -> str:
    if type(value) is not str:
        msg = f"expected a string, got {value!r}"
        raise TypeError(msg)
    return value


def _strict_bool(value: object, _: type) -> bool:
    if type(value) is not bool:
        msg = f"expected true or false, got {value!r}"
        raise TypeError(msg)
    return value


def make_converter() -> cattrs.Converter:
    """A fresh strict JSON converter (each game configures its own; none is global)."""
    converter = cattrs.preconf.json.make_converter(forbid_extra_keys=True)
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(bool, _strict_bool)
    return converter


def register_union(converter: cattrs.Converter, union: Any) -> None:
    """Encode the members of *union* with a ``"type"`` tag (see :func:`tag_of`)."""
    cattrs.strategies.configure_tagged_union(
        union, converter, tag_name="type", tag_generator=tag_of
    )


def structure(converter: cattrs.Converter, data: object, cls: Any, what: str) -> Any:
    """Structure *data* as *cls*; every failure becomes a
    :class:`~copa_ref.core.errors.MalformedInputError`.

    :param what: a short name of the thing decoded, for the message (``"KALA action"``).
    :raises ~copa_ref.core.errors.MalformedInputError: when *data* is not shaped like *cls*.
    """
    try:
        return converter.structure(data, cls)
    except cattrs.BaseValidationError as exc:
        details = "; ".join(cattrs.transform_error(exc))
        msg = f"malformed {what}: {details}"
        raise MalformedInputError(msg) from exc
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as exc:
        msg = f"malformed {what}: {type(exc).__name__}: {exc}"
        raise MalformedInputError(msg) from exc


def canonical_json(value: JSON) -> str:
    """The canonical text of an unstructured JSON value: sorted keys, compact separators."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
