"""DA CAPO: which rule decides which part of the public view (the whole state, DACAPO-8).

Rule IDs refer to ``specs/da_capo.md``. The order is from the most specific rule to the
most general: the bean conservation of DACAPO-3 comes last.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator

from copa_ref.conformance.vocabulary import Divergence, Finding, ViewRule
from copa_ref.da_capo import Action, Bids, Config, State, outcome
from copa_ref.da_capo.rules import filled, last_player_step, line_length, round_winner, settle_round
from copa_ref.da_capo.state import LastStep, TargetReached

__all__ = ["VIEW_RULES", "diagnose", "legal_rule"]

DaCapoDivergence = Divergence[State, Action, Config, State]
DaCapoView = ViewRule[State, Action, Config, State]


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


def _start(d: DaCapoDivergence) -> bool:
    """The initial position (step 0)."""
    return d.step == 0


VIEW_RULES: tuple[DaCapoView, ...] = (
    ViewRule(part="public.lines", rule="DACAPO-2", when=_start,
             says="each player's line of cups (4 cups with 2-3 players, 3 with 4-5), empty"),
    ViewRule(part="public.target", rule="DACAPO-2", when=_start,
             says="the target cup starts empty"),
    ViewRule(part="public", rule="DACAPO-3", when=_start,
             says="sixteen beans in each player's hand, none in the box"),
    ViewRule(part="to_move", rule="DACAPO-4", when=_start,
             says="a round is simultaneous: every player bids at once"),
    ViewRule(part="public", rule="DACAPO-14", when=_last_step,
             says="the last player with beans puts one into his next cup, the rest into "
                  "the box"),
    ViewRule(part="public.rounds.winner", rule="DACAPO-11", when=_tied_top,
             says="tied bids cancel; the next level down bid by one player advances"),
    ViewRule(part="public.rounds.winner", rule="DACAPO-12", when=_nobody,
             says="with no single highest bid nobody advances"),
    ViewRule(part="public.rounds.winner", rule="DACAPO-9",
             says="the single highest bid advances"),
    ViewRule(part="public.finisher", rule="DACAPO-15",
             says="an advance into the target cup wins at once"),
    ViewRule(part="public.target", rule="DACAPO-15",
             says="the advance after a full line puts the beans into the target cup"),
    ViewRule(part="public.lines", rule="DACAPO-15", when=_ended,
             says="an advance into the target cup wins at once"),
    ViewRule(part="public.lines", rule="DACAPO-9",
             says="the winning bid fills the winner's next empty cup"),
    ViewRule(part="public.box", rule="DACAPO-10", says="the other bids go to the box"),
    ViewRule(part="public.reserves", rule="DACAPO-7",
             says="a bid comes from the bidder's reserve"),
    ViewRule(part="public.rounds", rule="DACAPO-8", says="the bids are revealed together"),
    ViewRule(part="outcome", rule="DACAPO-16",
             says="when every reserve is used up the furthest advance wins"),
    ViewRule(part="to_move", rule="DACAPO-13",
             says="a player with no beans is out; every other player bids"),
    ViewRule(part="legal", rule="DACAPO-6", says="a bid is 1 to 5 beans"),
    ViewRule(part="public", rule="DACAPO-3", says="the beans are conserved"),
)
"""Which rule decides which part of DA CAPO's public view, most specific first."""


def _wrong_winner(bids: tuple[int | None, ...], right: int | None, has: str) -> Finding:
    """The rule that decides who advances on *bids*, which the engine's winner (*has*, in
    words) breaks: tied top bids cancel (DACAPO-11), no single highest bid (DACAPO-12), the
    single highest bid (DACAPO-9)."""
    counts = Counter(b for b in bids if b is not None)
    top_tied = bool(counts) and counts[max(counts)] > 1
    rule = "DACAPO-11" if top_tied else ("DACAPO-12" if right is None else "DACAPO-9")
    return Finding(rule, f"bids {list(bids)}: {'nobody' if right is None else f'seat {right}'}"
                         f" advances; the engine has {has}")


def _raw_winner(d: DaCapoDivergence) -> Iterator[Finding]:
    """The round's winner read from the reported JSON itself, for a view that does not
    decode (a winner that is no seat, say both tied seats): a wrong winner is named by the
    rule that decides it, before the generic P-8 of an undecodable view."""
    if not isinstance(d.action, Bids) or not isinstance(d.reported.public, dict):
        return
    rounds = d.reported.public.get("rounds")
    if not isinstance(rounds, list) or len(rounds) != len(d.before.rounds) + 1:
        return
    played = rounds[-1]
    bids = d.action.bids
    if not isinstance(played, dict) or played.get("bids") != list(bids):
        return
    right = round_winner(bids, d.config.tie_resolution)
    winner = played.get("winner")
    if (winner is None and right is None) or (type(winner) is int and winner == right):
        return
    yield _wrong_winner(bids, right, f"{json.dumps(winner)} as the winner")


def _round_findings(d: DaCapoDivergence, seen: State) -> Iterator[Finding]:
    """The round's record and the beans it moves, re-derived from the reported winner."""
    if not isinstance(d.action, Bids):
        return
    bids = d.action.bids
    done = len(d.before.rounds)
    players = len(d.before.reserves)
    if len(seen.rounds) != done + 1 or len(seen.reserves) != players or len(
            seen.lines) != players:
        if len(seen.rounds) != done + 1:
            yield Finding("DACAPO-8", f"the round's bids are revealed and recorded: the "
                                      f"engine records {len(seen.rounds)} rounds, not "
                                      f"{done + 1}")
        return
    played = seen.rounds[-1]
    if played.bids != bids:
        yield Finding("DACAPO-8", f"the bids revealed are {list(bids)}; the engine records "
                                  f"{list(played.bids)}")
        return
    right = round_winner(bids, d.config.tie_resolution)
    winner = played.winner
    if winner != right:
        yield _wrong_winner(bids, right, 'nobody' if winner is None else f'seat {winner}')
        return
    if winner is not None and not (0 <= winner < players and bids[winner] is not None):
        return
    # The beans of the round, from the engine's own (right) winner.
    reach = line_length(players) + (
        1 if d.config.target_reached_when is TargetReached.TARGET_CUP else 0)
    finisher = winner if winner is not None and filled(d.before.lines[winner]) + 1 == reach \
        else None
    reserves, lines, target, box = settle_round(
        (d.before.reserves, d.before.lines, d.before.target, d.before.box), bids, winner)
    left = [s for s, r in enumerate(reserves) if r]
    last = left[0] if finisher is None and len(left) == 1 else None
    others = [s for s in range(players) if s != last]
    returned = [s for s in others if bids[s] is not None and s != winner
                and seen.reserves[s] == d.before.reserves[s] != reserves[s]]
    if returned:
        rule = "DACAPO-12" if winner is None else "DACAPO-10"
        why = "nobody advances and every bid" if winner is None else "the bids that lose"
        yield Finding(rule, f"{why} go to the box; the engine gives seat "
                            f"{returned[0]} its {bids[returned[0]]} beans back")
        return
    for seat in others:
        if seen.reserves[seat] != reserves[seat]:
            yield Finding("DACAPO-7", f"seat {seat} bid {bids[seat]} from a reserve of "
                                      f"{d.before.reserves[seat]}: {reserves[seat]} left; the "
                                      f"engine has {seen.reserves[seat]}")
            return
    for seat in others:
        if seen.lines[seat] != lines[seat]:
            into = "the target cup" if target != d.before.target else "his next empty cup"
            rule = "DACAPO-15" if target != d.before.target else "DACAPO-9"
            yield Finding(rule, f"seat {winner}'s {bids[winner] if winner is not None else 0}"
                                f" beans go into {into}: seat {seat}'s line is "
                                f"{list(lines[seat])}; the engine has {list(seen.lines[seat])}")
            return
    if last is not None:
        table = last_player_step((reserves, lines, target, box), last)
        step_target, step_box = table[2], table[3]
        if (seen.last_step != LastStep(last, reserves[last]) or seen.lines[last] != table[1][
                last] or seen.reserves[last] != 0 or seen.box != step_box
                or seen.target != step_target):
            yield Finding("DACAPO-14", f"seat {last} is the last with beans ({reserves[last]}):"
                                       f" one into his next cup, {reserves[last] - 1} into the "
                                       f"box (box {step_box}, line {list(table[1][last])}); the "
                                       f"engine has box {seen.box}, line "
                                       f"{list(seen.lines[last])}")
            return
    elif seen.last_step != d.before.last_step:
        yield Finding("DACAPO-14", f"{len(left)} seats still hold beans: no last-player step")
        return
    else:
        if seen.box != box:
            yield Finding("DACAPO-10", f"the bids that do not advance go to the box: box "
                                       f"{box}; the engine has {seen.box}")
            return
        if seen.target != target:
            yield Finding("DACAPO-15", f"the target cup holds {target}; the engine has "
                                       f"{seen.target}")
            return
    if seen.finisher != d.expected.finisher:
        yield Finding("DACAPO-15", f"reaching the target cup wins at once: the finisher is "
                                   f"{d.expected.finisher}; the engine has {seen.finisher}")


def diagnose(d: DaCapoDivergence) -> Iterator[Finding]:
    """DA CAPO's own findings: the round re-derived from the reported bids and winner (who
    advances, the reserves, the lines, the box, the last-player step, the finisher), then a
    differing outcome named by the rule that decides it."""
    seen = d.reported_view
    if seen is not None:
        yield from _round_findings(d, seen)
    else:
        yield from _raw_winner(d)
    if any(p.startswith("outcome") for p in d.differing) or "to_move" in d.differing:
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
