"""The command line's argument types and its refusal, shared by :mod:`copa_ref.cli` and the
conformance subcommands (:mod:`copa_ref.conformance.cli`): a number with its bound, seconds,
a game's registry name, a rule ID, each checked as the command line is read and refused with
the closest match; :class:`CommandError`, a refusal the command prints as one line (exit
status 2).
"""

from __future__ import annotations

import argparse
import difflib
import re
from collections.abc import Callable, Sequence
from typing import Any

from copa_ref.games import GAMES

__all__ = ["SECONDS", "CommandError", "game_name", "number", "rule_count", "rule_id", "suggest"]


class CommandError(Exception):
    """A request the command refuses, with the message the user sees (exit status 2)."""


def number(kind: type[int] | type[float], least: float, what: str) -> Callable[[str], Any]:
    """An argparse type: a number of *kind* no smaller than *least* (*what* names the bound
    in the refusal: "a positive number of seconds"), checked as the command line is read."""

    def parse(text: str) -> Any:
        try:
            value = kind(text)
        except ValueError:
            msg = f"{text!r} is not {what}"
            raise argparse.ArgumentTypeError(msg) from None
        if not value >= least or value != value or value in (float("inf"), float("-inf")):
            msg = f"{text!r} is not {what}"
            raise argparse.ArgumentTypeError(msg)
        return value

    parse.__name__ = kind.__name__   # argparse names the type in its own messages
    return parse


SECONDS = number(float, 1e-3, "a positive number of seconds")
"""``--timeout``, ``--time``: more than zero seconds (a millisecond at least)."""


def suggest(value: str, known: Sequence[str]) -> str:
    """``"; did you mean da_capo?"`` for the closest of *known* to *value*, or ``""``."""
    folded = {k.replace("_", "").replace("-", "").lower(): k for k in known}
    key = value.replace("_", "").replace("-", "").lower()
    if key in folded:
        return f"; did you mean {folded[key]}?"
    near = difflib.get_close_matches(value.lower(), [k.lower() for k in known], n=1,
                                     cutoff=0.6)
    if not near:
        return ""
    return "; did you mean " + next(k for k in known if k.lower() == near[0]) + "?"


def game_name(value: str) -> str:
    """The registry name *value* means (case-insensitive; a title works too), or a refusal
    with the closest name."""
    names = sorted(GAMES)
    lowered = value.lower()
    if lowered in GAMES:
        return lowered
    by_title = {g.title.lower(): n for n, g in GAMES.items()}
    if lowered in by_title:
        return by_title[lowered]
    msg = f"unknown game {value!r}{suggest(value, names)} (the games: {', '.join(names)})"
    raise argparse.ArgumentTypeError(msg)


_RULE_ID = re.compile(r"^([A-Za-z_]+)-(\d+)$")


def rule_id(value: str) -> str:
    """A rule ID, case-insensitive (``kala-7`` is ``KALA-7``); a prefix that is no game's
    is refused with the closest."""
    match = _RULE_ID.match(value.strip())
    prefixes = sorted(g.prefix for g in GAMES.values())
    if not match:
        msg = (f"{value!r} is not a rule ID: a game's prefix, a hyphen and a number, e.g. "
               "KALA-7")
        raise argparse.ArgumentTypeError(msg)
    prefix = match[1].upper()
    if prefix not in prefixes:
        hint = suggest(prefix, prefixes)
        guess = f"{hint[:-1]}-{match[2]}?" if hint else ""
        msg = (f"no game's rules are named {prefix}-n{guess} (the prefixes: "
               f"{', '.join(prefixes)})")
        raise argparse.ArgumentTypeError(msg)
    last = rule_count(prefix)
    if last and not 1 <= int(match[2]) <= last:
        msg = f"{prefix} has rules {prefix}-1 to {prefix}-{last}, not {prefix}-{int(match[2])}"
        raise argparse.ArgumentTypeError(msg)
    return f"{prefix}-{int(match[2])}"


def rule_count(prefix: str) -> int:
    """How many numbered rules the game with rule prefix *prefix* has (its last rule's
    number; 0 for an unknown prefix), read from its conformance catalogue: a mutant for
    every rule, or the reason it has none."""
    from copa_ref.conformance.registry import RECORDS

    for record in RECORDS.values():
        if record.game.prefix == prefix:
            catalogue = record.catalogue
            ids = {m.rule for m in catalogue.mutants} | set(catalogue.unmutatable)
            return max((int(i.rpartition("-")[2]) for i in ids), default=0)
    return 0
