"""The HOPPER JSON converter: the shared strict converter, the action and shot-model unions
tagged, and exact probabilities as ``"p/q"`` strings (protocol P-8).

A probability decodes only from its canonical text: lowest terms, a positive denominator,
no sign or spaces (``"1/2"``, ``"0/1"``, ``"1/1"``); ``"2/4"``, ``"0.5"``, ``"1"`` and the
number ``0.5`` are refused with :class:`~copa_ref.core.errors.MalformedInputError`.
"""

from __future__ import annotations

import re
from fractions import Fraction

import cattrs

from copa_ref.core import make_converter, register_union
from copa_ref.core.codec import excerpt
from copa_ref.hopper.state import Action, ShotModel

__all__ = ["converter", "fraction_text", "parse_fraction"]

_FRACTION = re.compile(r"(0|[1-9][0-9]*)/([1-9][0-9]*)")


def fraction_text(value: Fraction) -> str:
    """The canonical text of an exact probability: ``"p/q"`` in lowest terms."""
    return f"{value.numerator}/{value.denominator}"


def parse_fraction(text: object, _: object = None) -> Fraction:
    """The fraction a canonical ``"p/q"`` string names.

    :raises ValueError: for anything else (cattrs reports it as malformed input).
    """
    if type(text) is not str:
        msg = f"expected a \"p/q\" string, got {excerpt(text)}"
        raise TypeError(msg)
    match = _FRACTION.fullmatch(text)
    if match is None:
        msg = f"expected a \"p/q\" string, got {excerpt(text)}"
        raise ValueError(msg)
    value = Fraction(int(match.group(1)), int(match.group(2)))
    if fraction_text(value) != text:
        msg = f"{excerpt(text)} is not in lowest terms (write {excerpt(fraction_text(value))})"
        raise ValueError(msg)
    return value


def _make() -> cattrs.Converter:
    conv = make_converter()
    conv.register_unstructure_hook(Fraction, fraction_text)
    conv.register_structure_hook(Fraction, parse_fraction)
    register_union(conv, ShotModel)
    register_union(conv, Action)
    return conv


converter: cattrs.Converter = _make()
"""The strict converter of HOPPER states, actions, configs and outcomes."""
