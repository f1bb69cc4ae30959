"""DA CAPO's diagnosis code: the predicates and contexts its rule entries (:mod:`.rules`)
refer to, the findings on a differing outcome, and ``legal_rule``.

A view rule's ``when`` is a predicate on the divergence; the ``round`` ladder's checks read
a :class:`Round` (the round re-derived from the reported bids and winner), the
``raw_winner`` ladder's a :class:`RawWinner` (the winner of a view that does not decode).
Rule IDs refer to ``specs/da_capo.md``.
"""

from __future__ import annotations

import functools
import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import attrs

from copa_ref.conformance.vocabulary import Divergence, Finding
from copa_ref.core import JSON
from copa_ref.da_capo import Action, Bids, Config, State, outcome
from copa_ref.da_capo.rules import filled, last_player_step, line_length, round_winner, settle_round
from copa_ref.da_capo.state import LastStep, TargetReached

__all__ = ["RawWinner", "Round", "legal_rule", "outcome_findings"]

DaCapoDivergence = Divergence[State, Action, Config, State]


def _last_step(d: DaCapoDivergence) -> bool:
    """The last-player step happens at this step, in the reference or as reported."""
    reported = d.reported_view
    return (d.expected.last_step is not None and d.before.last_step is None) or (
        reported is not None and reported.last_step is not None and d.before.last_step is None)


def _played(d: DaCapoDivergence) -> tuple[int | None, ...]:
    return d.expected.rounds[-1].bids if len(d.expected.rounds) > len(d.before.rounds) else ()


def _tied_top(d: DaCapoDivergence) -> bool:
    """The highest bid of the round is tied."""
    counts = Counter(b for b in _played(d) if b is not None)
    return bool(counts) and counts[max(counts)] > 1


def _nobody(d: DaCapoDivergence) -> bool:
    return bool(_played(d)) and d.expected.rounds[-1].winner is None


def _ended(d: DaCapoDivergence) -> bool:
    reported = d.reported_view
    return d.expected.finisher is not None or (reported is not None
                                               and reported.finisher is not None)


def _top_tied(bids: tuple[int | None, ...]) -> bool:
    counts = Counter(b for b in bids if b is not None)
    return bool(counts) and counts[max(counts)] > 1


def _winner_says(bids: tuple[int | None, ...], right: int | None, has: str) -> str:
    return (f"bids {list(bids)}: {'nobody' if right is None else f'seat {right}'} advances; "
            f"the engine has {has}")


@attrs.frozen
class RawWinner:
    """A round's winner read from the reported JSON itself (a view that does not decode),
    where it is not the winner of the bids: what the raw-winner ladder
    (:data:`RAW_WINNER`) names by the rule that decides who advances."""

    bids: tuple[int | None, ...]
    right: int | None
    """The winner of the bids (``None``: nobody advances)."""
    winner: JSON
    """The engine's winner, as it reported it."""


def _raw_round(d: DaCapoDivergence) -> RawWinner | None:
    """The raw-winner ladder's context: a round of bids whose report does not decode but
    records the round's bids, with a winner other than the bids' winner."""
    if d.reported_view is not None:
        return None
    if not isinstance(d.action, Bids) or not isinstance(d.reported.public, dict):
        return None
    rounds = d.reported.public.get("rounds")
    if not isinstance(rounds, list) or len(rounds) != len(d.before.rounds) + 1:
        return None
    played = rounds[-1]
    bids = d.action.bids
    if not isinstance(played, dict) or played.get("bids") != list(bids):
        return None
    right = round_winner(bids, d.config.tie_resolution)
    winner = played.get("winner")
    if (winner is None and right is None) or (type(winner) is int and winner == right):
        return None
    return RawWinner(bids, right, winner)


def _raw_tied(w: RawWinner) -> bool:
    return _top_tied(w.bids)


def _raw_nobody(w: RawWinner) -> bool:
    return w.right is None


def _raw_highest(w: RawWinner) -> bool:
    return w.right is not None


def _raw_says(w: RawWinner) -> str:
    return _winner_says(w.bids, w.right, f"{json.dumps(w.winner)} as the winner")


class Round:
    """A round as the reference settles it from the engine's own reported winner, beside
    what the engine reports: what the round ladder (:data:`ROUND`) compares."""

    def __init__(self, d: DaCapoDivergence, seen: State, bids: tuple[int | None, ...]) -> None:
        self.d, self.seen, self.bids, self.before = d, seen, bids, d.before
        self.done = len(d.before.rounds)
        self.players = len(d.before.reserves)
        self.right = round_winner(bids, d.config.tie_resolution)

    @property
    def winner(self) -> int | None:
        """The engine's winner (checked against :attr:`right` before the beans are)."""
        return self.seen.rounds[-1].winner

    @functools.cached_property
    def settled(self) -> tuple[Any, ...]:
        """The reserves, lines, target and box after the round, from the engine's winner."""
        return settle_round((self.before.reserves, self.before.lines, self.before.target,
                             self.before.box), self.bids, self.winner)

    @functools.cached_property
    def finisher(self) -> int | None:
        d, winner = self.d, self.winner
        reach = line_length(self.players) + (
            1 if d.config.target_reached_when is TargetReached.TARGET_CUP else 0)
        return winner if winner is not None and filled(
            self.before.lines[winner]) + 1 == reach else None

    @functools.cached_property
    def left(self) -> list[int]:
        """The seats with beans after the round."""
        return [s for s, r in enumerate(self.settled[0]) if r]

    @functools.cached_property
    def last(self) -> int | None:
        """The last seat with beans, whose last-player step follows (``None``: none)."""
        return self.left[0] if self.finisher is None and len(self.left) == 1 else None

    @functools.cached_property
    def others(self) -> list[int]:
        return [s for s in range(self.players) if s != self.last]

    @functools.cached_property
    def returned(self) -> list[int]:
        """The seats whose losing bid the engine gives back."""
        reserves, seen = self.settled[0], self.seen
        return [s for s in self.others if self.bids[s] is not None and s != self.winner
                and seen.reserves[s] == self.before.reserves[s] != reserves[s]]

    @functools.cached_property
    def reserve_wrong(self) -> int | None:
        return next((s for s in self.others if self.seen.reserves[s] != self.settled[0][s]),
                    None)

    @functools.cached_property
    def line_wrong(self) -> int | None:
        return next((s for s in self.others if self.seen.lines[s] != self.settled[1][s]), None)

    @functools.cached_property
    def last_step(self) -> tuple[Any, ...]:
        """The reserves, lines, target and box after the last player's step."""
        assert self.last is not None
        return last_player_step(self.settled, self.last)


def _round(d: DaCapoDivergence) -> Round | None:
    """The round ladder's context: a round of bids with a decoded report."""
    seen = d.reported_view
    if seen is None or not isinstance(d.action, Bids):
        return None
    return Round(d, seen, d.action.bids)


def _rounds_recorded(r: Round) -> bool:
    return len(r.seen.rounds) != r.done + 1


def _shape_differs(r: Round) -> bool:
    return len(r.seen.reserves) != r.players or len(r.seen.lines) != r.players


def _bids_revealed(r: Round) -> bool:
    return r.seen.rounds[-1].bids != r.bids


def _wrong(r: Round) -> bool:
    return r.winner != r.right


def _tied_cancel(r: Round) -> bool:
    return _wrong(r) and _top_tied(r.bids)


def _nobody_advances(r: Round) -> bool:
    return _wrong(r) and not _top_tied(r.bids) and r.right is None


def _highest_advances(r: Round) -> bool:
    return _wrong(r) and not _top_tied(r.bids) and r.right is not None


def _winner_not_a_bidder(r: Round) -> bool:
    winner = r.winner
    return winner is not None and not (0 <= winner < r.players and r.bids[winner] is not None)


def _winner_has(r: Round) -> str:
    return _winner_says(r.bids, r.right, "nobody" if r.winner is None else f"seat {r.winner}")


def _returned_nobody(r: Round) -> bool:
    return bool(r.returned) and r.winner is None


def _returned_losers(r: Round) -> bool:
    return bool(r.returned)


def _returned_says(r: Round) -> str:
    why = "nobody advances and every bid" if r.winner is None else "the bids that lose"
    seat = r.returned[0]
    return f"{why} go to the box; the engine gives seat {seat} its {r.bids[seat]} beans back"


def _reserve(r: Round) -> bool:
    return r.reserve_wrong is not None


def _into_target(r: Round) -> bool:
    return r.line_wrong is not None and r.settled[2] != r.before.target


def _into_line(r: Round) -> bool:
    return r.line_wrong is not None


def _line_says(r: Round) -> str:
    seat, winner = r.line_wrong or 0, r.winner
    into = "the target cup" if r.settled[2] != r.before.target else "his next empty cup"
    return (f"seat {winner}'s {r.bids[winner] if winner is not None else 0} beans go into "
            f"{into}: seat {seat}'s line is {list(r.settled[1][seat])}; the engine has "
            f"{list(r.seen.lines[seat])}")


def _last_step_wrong(r: Round) -> bool:
    last, seen = r.last, r.seen
    if last is None:
        return False
    reserves, table = r.settled[0], r.last_step
    return (seen.last_step != LastStep(last, reserves[last]) or seen.lines[last] != table[1][
        last] or seen.reserves[last] != 0 or seen.box != table[3] or seen.target != table[2])


def _last_step_says(r: Round) -> str:
    last = r.last or 0
    held, table, seen = r.settled[0][last], r.last_step, r.seen
    return (f"seat {last} is the last with beans ({held}): one into his next cup, {held - 1} "
            f"into the box (box {table[3]}, line {list(table[1][last])}); the engine has box "
            f"{seen.box}, line {list(seen.lines[last])}")


def _no_last_step(r: Round) -> bool:
    return r.last is None and r.seen.last_step != r.before.last_step


def _box(r: Round) -> bool:
    return r.last is None and not _no_last_step(r) and r.seen.box != r.settled[3]


def _target(r: Round) -> bool:
    return r.last is None and not _no_last_step(r) and r.seen.target != r.settled[2]


def _finished(r: Round) -> bool:
    return r.seen.finisher != r.d.expected.finisher


def outcome_findings(d: DaCapoDivergence) -> Iterator[Finding]:
    """A differing outcome named by the rule that decides it."""
    if not (any(p.startswith("outcome") for p in d.differing) or "to_move" in d.differing):
        return
    seen = d.reported_view
    result = outcome(d.expected)
    named = d.reported.outcome.get("rule") if isinstance(d.reported.outcome, dict) else None
    if result is not None and isinstance(named, str) and named != result.rule and (
            named in ("DACAPO-15", "DACAPO-16", "DACAPO-17")):
        yield Finding(named, f"the engine decides the match under {named}; the reference "
                             f"under {result.rule}: it reads {named} otherwise")
    if result is not None and result.rule:
        yield Finding(result.rule, f"the match is over and {result.rule} decides its "
                                   f"outcome: {', '.join(map(str, result.winners))} won")
    elif seen is not None and (
            seen.finisher is not None or not any(seen.reserves)):
        yield Finding("DACAPO-16", "the match is not over: a reserve is left and nobody "
                                   "reached the target cup")


def legal_rule(state: State, action: Action) -> str | None:
    """The rule that makes a legal DA CAPO round legal here: a seat out bids null
    (DACAPO-13); a bid of the whole reserve is allowed by DACAPO-7; any other bid by
    DACAPO-6 (1 to 5 beans)."""
    if not isinstance(action, Bids):
        return None
    bids = action.bids
    if any(bid is None for bid in bids):
        return "DACAPO-13"
    if any(bid == held for bid, held in zip(bids, state.reserves, strict=False)):
        return "DACAPO-7"
    return "DACAPO-6"
