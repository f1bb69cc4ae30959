"""Canonical JSON for states, actions, configs and observations.

Canonical means: keys sorted, compact separators (``","`` and ``":"``), UTF-8 text, enums as
their lower-case string values, tuples as JSON lists, tagged unions with a ``"type"`` field
holding the class name in snake case (``Sow`` -> ``"sow"``). Two equal values always give
byte-identical JSON, so JSON text can be compared directly.

Decoding is strict (protocol P-8): an unknown key, a missing key, an unknown tag, a wrong
JSON type (``"3"``, ``true`` or ``3.0`` where an integer belongs; ``""`` or ``{}`` where a
list belongs) raises :class:`~copa_ref.core.errors.MalformedInputError`; nothing else
escapes. JSON *text* is read by :func:`loads` within :class:`Limits` (size, nesting depth,
integer length), refusing duplicate keys, in time linear in its length. Every message
quotes a bounded :func:`excerpt` of the bad input.
"""

from __future__ import annotations

import enum
import itertools
import json
import math
import re
import reprlib
from collections.abc import Iterable
from itertools import repeat
from typing import Any, TypeVar, get_args, get_origin

import attrs
import cattrs
import cattrs.gen
import cattrs.preconf.json
import cattrs.strategies
import cattrs.v

from copa_ref.core.errors import MalformedInputError

__all__ = [
    "CONTROL",
    "JSON",
    "LIMITS",
    "MAX_INT",
    "SOLVER_OPTION",
    "Limits",
    "canonical_json",
    "clip",
    "escape_controls",
    "escape_strings",
    "excerpt",
    "loads",
    "make_converter",
    "register_union",
    "structure",
    "tag_of",
]

JSON = Any
"""A JSON value as Python builds it: dict, list, str, int, float, bool or None."""

SOLVER_OPTION: dict[str, bool] = {"solver_option": True}
"""The metadata of a ``Config`` field that is a solver variant (protocol P-8): a size the
source text does not name, offered to make a game small enough for exact solvers. Its JSON
key is left out while the field has its default and may be absent (it then has its default),
so configs, states and corpus cases of the sources' own sizes read as they always have."""

T = TypeVar("T")

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")

EXCERPT = 80
"""The longest quotation of bad input in a message, in characters."""

MESSAGE = 600
"""The longest message about a malformed value, in characters."""

MAX_INT = 2**63 - 1
"""The largest magnitude of an integer field (every count, seat and score is far below)."""


@attrs.frozen(kw_only=True)
class Limits:
    """The bounds :func:`loads` reads JSON text within; the defaults suit every game's
    states, actions and protocol messages with room to spare."""

    max_length: int = 1 << 20
    """The longest text, in characters (bytes for ``bytes`` input): 1 MiB."""
    max_depth: int = 32
    """The deepest nesting of lists and objects (a top-level scalar has depth 0)."""
    max_int_digits: int = 18
    """The most digits of an integer (no count, seat or score comes near)."""


LIMITS = Limits()
"""The default limits."""


# -- bounded quotation -----------------------------------------------------------------------


class _Repr(reprlib.Repr):
    def __init__(self) -> None:
        super().__init__()
        self.maxlevel = 3
        self.maxtuple = self.maxlist = self.maxdict = self.maxset = 6
        self.maxstring = self.maxother = EXCERPT
        self.maxlong = 40

    def repr_int(self, x: int, level: int) -> str:
        if x.bit_length() > 128:
            return f"<an integer of about {int(x.bit_length() * math.log10(2)) + 1} digits>"
        return super().repr_int(x, level)


_REPR = _Repr()


def excerpt(value: object, limit: int = EXCERPT) -> str:
    """A short, printable quotation of *value* for a message: at most *limit* characters,
    whatever its size, depth or type (a 4,300-digit integer, a 1 MB string, an object whose
    ``repr`` raises)."""
    try:
        text = value[: limit + 1] if type(value) is str else value
        shown = _REPR.repr(text)
    except Exception:  # a hostile __repr__: name the type only
        shown = f"<a {type(value).__name__}>"
    shown = shown.encode("unicode_escape", "backslashreplace").decode("ascii")
    if len(shown) > limit:
        shown = shown[: limit - 3] + "..."
    return shown


def _bounded(message: str) -> str:
    return message if len(message) <= MESSAGE else message[: MESSAGE - 3] + "..."


CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069"
                      "\ud800-\udfff]")
"""The characters :func:`clip` escapes: C0 and C1 controls, DEL, the bidirectional
overrides and isolates, lone surrogates."""


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def escape_controls(text: str) -> str:
    """*text* with every :data:`CONTROL` character written as an escape (``\\x1b``)."""
    return CONTROL.sub(_escape, text)


def escape_strings(value: JSON) -> JSON:
    """*value* (decoded JSON) with the control characters of every string, keys too,
    written as escapes (:func:`escape_controls`): for an engine's answers and the corpus's
    cases, so that no text from outside reaches a terminal or a report raw."""
    kind = type(value)
    if kind is str:
        return escape_controls(value)
    if kind is list:
        return [escape_strings(v) for v in value]
    if kind is dict:
        return {escape_strings(k): escape_strings(v) for k, v in value.items()}
    return value


def clip(text: str, limit: int = MESSAGE) -> str:
    """*text* made safe to print and bounded: control characters (C0, C1, DEL, the
    bidirectional overrides, lone surrogates) written as escapes (``\\x1b``), and at most
    *limit* characters, the cut marked ``...``. For messages that quote text from outside
    (an engine's name or error, a request)."""
    if type(text) is not str:
        text = excerpt(text, limit)
    cut = len(text) > limit
    shown = escape_controls(text[: limit + 1] if cut else text)
    if cut or len(shown) > limit:
        shown = shown[: max(limit - 3, 0)] + "..."
    return shown


# -- reading JSON text -----------------------------------------------------------------------


def _refuse_constant(name: str) -> float:
    msg = f"{name} is not JSON"
    raise MalformedInputError(msg)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        msg = f"the number {excerpt(text)} is out of range"
        raise MalformedInputError(msg)
    return value


def _pairs(pairs: list[tuple[str, JSON]]) -> dict[str, JSON]:
    result = dict(pairs)
    if len(result) != len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:  # pragma: no branch - a duplicate is there
            if key in seen:
                msg = f"duplicate key {excerpt(key)}"
                raise MalformedInputError(msg)
            seen.add(key)
    return result


def _surrogate(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


def loads(text: str | bytes, limits: Limits = LIMITS, what: str = "JSON") -> JSON:
    """The JSON value of *text*, read strictly and within *limits*.

    Refused, each with a :class:`~copa_ref.core.errors.MalformedInputError` saying why: text
    longer than ``limits.max_length``, bytes that are not UTF-8, invalid JSON, ``NaN`` and
    infinite numbers, duplicate keys in an object, nesting deeper than ``limits.max_depth``,
    integers longer than ``limits.max_int_digits`` digits, strings holding a lone surrogate.
    Time and memory are linear in the length of the text.

    :param what: what the text is, for the message (``"KALA action"``).
    :raises ~copa_ref.core.errors.MalformedInputError: as above.
    """
    if not isinstance(text, str | bytes | bytearray):
        msg = f"{what} must be JSON text, got a {type(text).__name__}"
        raise MalformedInputError(msg)
    if len(text) > limits.max_length:
        unit = "characters" if isinstance(text, str) else "bytes"
        msg = (f"{what} is {len(text)} {unit} long; the limit is {limits.max_length} "
               "(Limits.max_length)")
        raise MalformedInputError(msg)
    if not isinstance(text, str):
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as exc:
            msg = f"{what} is not UTF-8: byte {exc.start} is {text[exc.start:exc.start + 1]!r}"
            raise MalformedInputError(msg) from None
    if not text.isascii() and _surrogate(text):
        msg = f"{what} holds a lone surrogate"
        raise MalformedInputError(msg)
    depth = _depth(text)
    if depth > limits.max_depth:
        msg = (f"malformed {what}: nested {depth} deep; the limit is {limits.max_depth} "
               "(Limits.max_depth)")
        raise MalformedInputError(msg)
    digits = limits.max_int_digits

    def parse_int(token: str) -> int:
        if len(token.lstrip("-")) > digits:
            msg = (f"an integer of {len(token.lstrip('-'))} digits; the limit is "
                   f"{digits} (Limits.max_int_digits)")
            raise MalformedInputError(msg)
        return int(token)

    # Integers are checked one by one only where the text has a long run of digits at all.
    long_digits = re.search(f"[0-9]{{{digits + 1}}}", text) is not None
    try:
        value = json.loads(text, object_pairs_hook=_pairs, parse_constant=_refuse_constant,
                           parse_int=parse_int if long_digits else None,
                           parse_float=_parse_float)
    except MalformedInputError as exc:
        raise MalformedInputError(f"malformed {what}: {exc}") from None
    except RecursionError:
        msg = (f"malformed {what}: nested deeper than {limits.max_depth} "
               "(Limits.max_depth)")
        raise MalformedInputError(msg) from None
    except ValueError as exc:  # json.JSONDecodeError
        pos = getattr(exc, "pos", 0)
        reason = getattr(exc, "msg", str(exc))
        near = excerpt(text[max(0, pos - 20): pos + 20])
        msg = f"{what} is not JSON: {reason} (character {pos}, near {near})"
        raise MalformedInputError(msg) from None
    if _SURROGATE_ESCAPE.search(text):
        _check_strings(value, what)
    return value


_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.DOTALL)
"""A string of JSON text, or an unterminated one running to the end of the text (with or
without a final backslash). Every match attempt at a quote succeeds, never backtracks and
consumes what it reads, so cutting the strings out is linear in the text: a pattern that
could fail at a quote would be retried at every later quote (quadratic on ``"\\"\\"...``)."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]")
_DELTA = {"[": 1, "{": 1, "]": -1, "}": -1}


def _depth(text: str) -> int:
    """The deepest nesting of *text*'s lists and objects, found without parsing (strings
    cut out, brackets counted) in time linear in the text, at C speed."""
    brackets = _NOT_BRACKET.sub("", _STRING.sub("", text))
    return max(itertools.accumulate(map(_DELTA.__getitem__, brackets)), default=0)


def _check_strings(value: JSON, what: str) -> None:
    """No string of *value* holds a lone surrogate (walked without recursion; only for
    text that escapes a surrogate at all)."""
    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        parts = [*node, *node.values()] if kind is dict else node if kind is list else [node]
        for part in parts:
            kind = type(part)
            if kind is list or kind is dict:
                stack.append(part)
            elif kind is str and not part.isascii() and _surrogate(part):
                msg = f"malformed {what}: a string holds a lone surrogate: {excerpt(part)}"
                raise MalformedInputError(msg)


_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""The one encoder of canonical JSON (``json.dumps`` would build one for every call)."""


def canonical_json(value: JSON) -> str:
    """The canonical text of an unstructured JSON value: sorted keys, compact separators."""
    return _CANONICAL.encode(value)


# -- the strict converter --------------------------------------------------------------------


def tag_of(cls: type) -> str:
    """The JSON tag of a union member: its class name in snake case.

    ``PlaceCup`` becomes ``"place_cup"``.
    """
    return _CAMEL.sub("_", cls.__name__).lower()


def _strict_int(value: object, _: type) -> int:
    if type(value) is not int:
        msg = f"expected an integer, got {excerpt(value)}"
        raise TypeError(msg)
    if not -MAX_INT <= value <= MAX_INT:
        msg = f"expected an integer of at most 63 bits, got {excerpt(value)}"
        raise ValueError(msg)
    return value


def _strict_str(value: object, _: type) -> str:
    if type(value) is not str:
        msg = f"expected a string, got {excerpt(value)}"
        raise TypeError(msg)
    return value


def _strict_bool(value: object, _: type) -> bool:
    if type(value) is not bool:
        msg = f"expected true or false, got {excerpt(value)}"
        raise TypeError(msg)
    return value


def _is_tuple(cls: Any) -> bool:
    return cls is tuple or get_origin(cls) is tuple


def _tuple_hook(cls: Any, converter: cattrs.Converter) -> Any:
    """A tuple takes a JSON list only, of the right length for a fixed-size tuple; the first
    bad item stops the decoding, named by its index (bounded cost and message)."""
    args = get_args(cls)
    if not args:
        msg = f"an untyped tuple cannot be decoded strictly: {cls!r}"
        raise TypeError(msg)
    if len(args) == 2 and args[1] is Ellipsis:
        item = args[0]
        hook = converter.get_structure_hook(item)

        def homogeneous(value: object, _: Any) -> tuple[Any, ...]:
            if type(value) is not list:
                msg = f"expected a list, got {excerpt(value)}"
                raise TypeError(msg)
            return _each(zip(repeat(hook), value, repeat(item)))

        return homogeneous
    size = len(args)
    if size == 2 and args == (int, int):
        def pair(value: object, _: Any) -> tuple[Any, ...]:
            if (type(value) is not list or len(value) != 2 or type(value[0]) is not int
                    or type(value[1]) is not int or not -MAX_INT <= value[0] <= MAX_INT
                    or not -MAX_INT <= value[1] <= MAX_INT):
                msg = f"expected a list of 2 integers, got {excerpt(value)}"
                raise TypeError(msg)
            return (value[0], value[1])

        return pair
    if all(a is int for a in args):
        def integers(value: object, _: Any) -> tuple[Any, ...]:
            if type(value) is not list or len(value) != size or not all(
                    type(v) is int and -MAX_INT <= v <= MAX_INT for v in value):
                msg = f"expected a list of {size} integers, got {excerpt(value)}"
                raise TypeError(msg)
            return tuple(value)

        return integers
    hooks = [(converter.get_structure_hook(a), a) for a in args]

    def fixed(value: object, _: Any) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != size:
            msg = f"expected a list of {size}, got {excerpt(value)}"
            raise TypeError(msg)
        return _each((h, v, a) for v, (h, a) in zip(value, hooks, strict=True))

    return fixed


def _each(items: Iterable[tuple[Any, Any, Any]]) -> tuple[Any, ...]:
    """``hook(value, cls)`` for each ``(hook, value, cls)``; the first failure is named by
    its index and stops the decoding."""
    done: list[Any] = []
    append = done.append
    try:
        for hook, value, cls in items:
            append(hook(value, cls))
    except cattrs.BaseValidationError:
        raise
    except Exception as exc:
        msg = f"item {len(done)}: {exc}"
        raise TypeError(msg) from None
    return tuple(done)


def _tuple_unstructure(cls: Any, converter: cattrs.Converter) -> Any:
    """Every tuple becomes a JSON list (fixed-size ones too), so that :meth:`to_json` gives
    exactly what JSON text decodes to."""
    args = get_args(cls)
    if len(args) == 2 and args[1] is Ellipsis:
        hook = converter.get_unstructure_hook(args[0])
        return lambda value: [hook(v) for v in value]
    if args:
        hooks = [converter.get_unstructure_hook(a) for a in args]
        return lambda value: [h(v) for h, v in zip(hooks, value, strict=False)]
    return lambda value: [converter.unstructure(v) for v in value]


def _is_enum(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, enum.Enum)


def _enum_hook(cls: Any, _converter: cattrs.Converter) -> Any:
    kinds = {type(member.value) for member in cls}
    by_value = {member.value: member for member in cls}
    shown = sorted(map(str, by_value))
    listed = ", ".join(shown[:12]) + (", ..." if len(shown) > 12 else "")

    def hook(value: object, _: Any) -> Any:
        if type(value) not in kinds:
            msg = f"expected one of {listed}; got {excerpt(value)}"
            raise TypeError(msg)
        try:
            return by_value[value]
        except KeyError:
            msg = f"expected one of {listed}; got {excerpt(value)}"
            raise ValueError(msg) from None

    return hook


def _attrs_hook(cls: Any, converter: cattrs.Converter) -> Any:
    """An attrs class takes a JSON object with exactly its fields: every field is required
    (a default belongs to the class, not to the decoder) and no other key is allowed."""
    inner = cattrs.gen.make_dict_structure_fn(cls, converter, _cattrs_forbid_extra_keys=True)
    names = frozenset(field.name for field in attrs.fields(cls))
    optional = _solver_defaults(cls)
    required = names - optional.keys()
    title = cls.__name__

    def hook(value: object, _: Any) -> Any:
        if type(value) is not dict:
            msg = f"expected an object ({title}), got {excerpt(value)}"
            raise TypeError(msg)
        if optional and required <= value.keys() <= names:
            value = {**optional, **value}
        if value.keys() != names:
            missing = sorted(required - value.keys())
            extra = sorted(map(str, value.keys() - names))
            parts = []
            if missing:
                parts.append(f"missing {', '.join(missing)}")
            if extra:
                parts.append(f"unknown {excerpt(extra)}")
            msg = f"{title}: {'; '.join(parts)}"
            raise ValueError(msg)
        return inner(value, cls)

    return hook


def _solver_defaults(cls: Any) -> dict[str, Any]:
    """The solver variants of an attrs class (:data:`SOLVER_OPTION`) with their defaults."""
    return {field.name: field.default for field in attrs.fields(cls)
            if field.metadata.get("solver_option")}


def _solver_unstructure(cls: Any, converter: cattrs.Converter) -> Any:
    """An attrs class with solver variants: every field, less the solver variants at their
    default."""
    inner = cattrs.gen.make_dict_unstructure_fn(cls, converter)
    defaults = _solver_defaults(cls)

    def hook(value: Any) -> dict[str, JSON]:
        data: dict[str, JSON] = inner(value)
        for name, default in defaults.items():
            if getattr(value, name) == default:
                del data[name]
        return data

    return hook


def make_converter() -> cattrs.Converter:
    """A fresh strict JSON converter (each game configures its own; none is global).

    Register tagged unions (:func:`register_union`) after any class-specific hook.
    """
    converter = cattrs.preconf.json.make_converter(forbid_extra_keys=True)
    converter.register_structure_hook(int, _strict_int)
    converter.register_structure_hook(str, _strict_str)
    converter.register_structure_hook(bool, _strict_bool)
    converter.register_structure_hook_factory(_is_tuple, _tuple_hook)
    converter.register_unstructure_hook_factory(_is_tuple, _tuple_unstructure)
    converter.register_structure_hook_factory(_is_enum, _enum_hook)
    converter.register_structure_hook_factory(attrs.has, _attrs_hook)
    converter.register_unstructure_hook_factory(
        lambda cls: attrs.has(cls) and bool(_solver_defaults(cls)), _solver_unstructure)
    return converter


def register_union(converter: cattrs.Converter, union: Any) -> None:
    """Encode the members of *union* with a ``"type"`` tag (see :func:`tag_of`)."""
    cattrs.strategies.configure_tagged_union(
        union, converter, tag_name="type", tag_generator=tag_of
    )
    members = {tag_of(cls) for cls in get_args(union)}
    tagged = converter.get_structure_hook(union)

    def strict_union(value: object, cls: Any) -> Any:
        if type(value) is not dict:
            msg = f"expected an object with a \"type\" tag, got {excerpt(value)}"
            raise TypeError(msg)
        tag = value.get("type")
        if type(tag) is not str or tag not in members:
            msg = f"\"type\" must be one of {', '.join(sorted(members))}; got {excerpt(tag)}"
            raise ValueError(msg)
        return tagged(value, cls)

    converter.register_structure_hook(union, strict_union)


def _reason(exc: BaseException, cls: Any) -> str:
    text = str(exc) if isinstance(exc, TypeError | ValueError) and str(exc) else ""
    return _bounded(text) if text else cattrs.v.format_exception(exc, cls)


def structure(converter: cattrs.Converter, data: object, cls: Any, what: str) -> Any:
    """Structure *data* as *cls*; every failure becomes a
    :class:`~copa_ref.core.errors.MalformedInputError` with a bounded message.

    :param what: a short name of the thing decoded, for the message (``"KALA action"``).
    :raises ~copa_ref.core.errors.MalformedInputError: when *data* is not shaped like *cls*.
    """
    try:
        return converter.structure(data, cls)
    except cattrs.BaseValidationError as exc:
        try:
            details = "; ".join(cattrs.transform_error(exc, format_exception=_reason)[:8])
        except Exception:  # pragma: no cover - a message that cannot be built
            details = str(exc)
        msg = _bounded(f"malformed {what}: {details}")
        raise MalformedInputError(msg) from None
    except RecursionError:
        msg = f"malformed {what}: nested too deeply"
        raise MalformedInputError(msg) from None
    except Exception as exc:
        msg = _bounded(f"malformed {what}: {exc}")
        raise MalformedInputError(msg) from None
