"""HOPPER's diagnosis code: the predicates and the context its rule entries (:mod:`.rules`)
refer to, ``config_rule`` and ``legal_rule``.

A view rule's ``when`` is a predicate on the divergence; the ``report`` ladder's checks read
a :class:`Reported` (the step's decoded report). Rule IDs refer to ``specs/hopper.md``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

from copa_ref.conformance.predicates import action_is, reaches
from copa_ref.conformance.vocabulary import Divergence, ViewRule, part_of
from copa_ref.hopper import Action, Config, Land, Phase, Shoot, State
from copa_ref.hopper.rules import shoot_out
from copa_ref.hopper.state import BLACK, CUP_BEANS

__all__ = ["Reported", "config_rule", "legal_rule", "report_context"]

HopperDivergence = Divergence[State, Action, Config, State]
HopperView = ViewRule[State, Action, Config, State]


_landing = action_is(Land)


def _foursome(d: HopperDivergence) -> bool:
    """The bean of this step lands in a cup holding 3."""
    return (isinstance(d.action, Land) and d.action.cup is not None
            and dict(d.before.tray).get(d.action.cup) == CUP_BEANS)


def _into_cup(d: HopperDivergence) -> bool:
    return (isinstance(d.action, Land) and d.action.cup is not None
            and dict(d.before.tray).get(d.action.cup, CUP_BEANS) < CUP_BEANS)


def _outside(d: HopperDivergence) -> bool:
    return isinstance(d.action, Land) and d.action.cup is None


def _black_joins(d: HopperDivergence) -> bool:
    """The black cup joins at this step, in the reference or as reported."""
    reported = d.reported_view
    joined = shoot_out(d.expected) or (reported is not None and any(
        cup == BLACK for cup, _ in reported.tray))
    return joined and not shoot_out(d.before)


def _shoot_out(d: HopperDivergence) -> bool:
    return shoot_out(d.expected)


def _replenished(d: HopperDivergence) -> bool:
    """A shot by an empty-handed seat (or one started by itself after a landing)."""
    if isinstance(d.action, Shoot):
        return d.before.hands[d.action.seat] == 0
    return d.expected.phase is Phase.LAND and d.expected.loose == 0 and d.before.loose > 0


_over = reaches(Phase.OVER)


def _end_1(d: HopperDivergence) -> bool:
    return _over(d) and d.config.ending.value == "end_1"


def _end_2(d: HopperDivergence) -> bool:
    return _over(d) and d.config.ending.value == "end_2"


def _skip(d: HopperDivergence) -> bool:
    """The reference's next turn skips a seat."""
    before, after = d.before, d.expected
    return (isinstance(d.action, Land) and before.turn is not None and after.turn is not None
            and after.turn != (before.turn + 1) % len(before.hands))


def _shot_started(d: HopperDivergence) -> bool:
    """The engine and the reference disagree on whether a shot has started: one reports a
    bean in the air (``land``) where the other waits for a shot (``aim``)."""
    reported = d.reported_view
    return reported is not None and {reported.phase, d.expected.phase} == {Phase.AIM,
                                                                           Phase.LAND}


def _listed_seats(d: HopperDivergence) -> list[int]:
    """The seats the engine reports as able to shoot: those in its ``to_move`` (when it
    differs) and the shooters of its legal shots (when those differ)."""
    seats: list[int] = []
    if "to_move" in d.differing:
        mover = d.reported.to_move
        if isinstance(mover, dict) and mover.get("kind") in ("seat", "any"):
            seats += [s for s in mover.get("seats", ()) if type(s) is int]
    if "legal" in d.differing:
        for actions in d.reported.legal.values():
            seats += [a["seat"] for a in actions
                      if isinstance(a, dict) and a.get("type") == "shoot"
                      and type(a.get("seat")) is int]
    return list(dict.fromkeys(seats))


def _stray_aims(d: HopperDivergence, view: State) -> list[str]:
    """The aims of the engine's legal shots that its own reported tray does not explain:
    with aiming on, every cup in the tray and nothing else; with aiming off, none."""
    if "legal" not in d.differing or view.phase is not Phase.AIM:
        return []
    cups: set[int | None] = {cup for cup, _ in view.tray} if view.config.aiming else {None}
    stray: list[str] = []
    for actions in d.reported.legal.values():
        aims: set[int | None] = set()
        for a in actions:
            if isinstance(a, dict) and a.get("type") == "shoot":
                aim = a.get("aim")
                if aim is None or type(aim) is int:
                    aims.add(aim)
        if aims:
            stray += sorted(str(x) for x in aims ^ cups)
    return stray


def _empty_handed(view: State, seats: list[int]) -> list[int]:
    """The *seats* that, in *view*, hold no beans while none are loose (HOPPER-11)."""
    if view.loose != 0:
        return []
    return [s for s in seats if 0 <= s < len(view.hands) and view.hands[s] == 0]


class Reported:
    """A step's decoded report, with what the report ladder (:data:`REPORT`) compares it
    with: the engine's own legal shots and movers, the beans before the step."""

    def __init__(self, d: HopperDivergence, seen: State,
                 views: tuple[HopperView, ...]) -> None:
        self.d, self.seen, self.views = d, seen, views

    @functools.cached_property
    def stray(self) -> list[str]:
        return _stray_aims(self.d, self.seen)

    @functools.cached_property
    def empty(self) -> list[int]:
        return _empty_handed(self.seen, _listed_seats(self.d))

    @functools.cached_property
    def beans(self) -> tuple[int, int]:
        """The beans in play before the step and as reported after it."""
        before, seen = self.d.before, self.seen
        return (sum(before.hands) + sum(b for _, b in before.tray) + before.loose,
                sum(seen.hands) + sum(b for _, b in seen.tray) + seen.loose)


def report_context(views: tuple[HopperView, ...],
                   ) -> Callable[[HopperDivergence], Reported | None]:
    """The report ladder's context over the view table *views*: a step with a decoded
    report."""
    def _reported(d: HopperDivergence) -> Reported | None:
        return None if d.reported_view is None else Reported(d, d.reported_view, views)
    return _reported


def _overfull_cup(r: Reported) -> bool:
    return any(beans > CUP_BEANS for _, beans in r.seen.tray)


def _stray(r: Reported) -> bool:
    return bool(r.stray)


def _empty_shooter(r: Reported) -> bool:
    return bool(r.empty)


def _beans_differ(r: Reported) -> bool:
    before, after = r.beans
    return r.d.step > 0 and after != before and not _more_specific(r.d, r.views)


def _more_specific(d: HopperDivergence, views: tuple[HopperView, ...]) -> bool:
    """Whether a view rule other than the conservation of HOPPER-19 decides a differing
    part at this step (a bean landing outside lies loose, HOPPER-7; a seat that runs out
    takes the loose beans, HOPPER-10: a rule of a part that holds beans,
    :data:`_BEAN_PARTS`). The spec names conservation last, only when nothing more specific
    explains the difference; the runner names those view rules after the diagnosis."""
    parts = [part_of(p) for p in d.differing]
    return any(view.rule != "HOPPER-19" and any(view.covers(p) for p in parts)
               and (view.when is None or view.when(d)) for view in views
               if view.part in _BEAN_PARTS)


_BEAN_PARTS = ("public.hands", "public.loose", "public.tray")
"""The parts of the view that hold beans: a rule deciding one of them decides where the
beans go, more specifically than their conservation."""


_DEFAULT = Config()

_OPTION_RULES = (("shot_model", "HOPPER-6"), ("aiming", "HOPPER-5"), ("remainder", "HOPPER-3"),
                 ("total_beans", "HOPPER-3"), ("ending", "HOPPER-13"),
                 ("first_player", "HOPPER-4"), ("players", "HOPPER-1"))
"""Each config option with the rule that admits its values, the least usual first."""


def config_rule(config: Config) -> str:
    """The rule that admits *config*: that of its least usual option that differs from the
    default (a per-seat shot model: HOPPER-6; End 2: HOPPER-13; three players: HOPPER-1),
    HOPPER-1 for the default config."""
    for option, rule in _OPTION_RULES:
        if getattr(config, option) != getattr(_DEFAULT, option):
            return rule
    return "HOPPER-1"


def legal_rule(state: State, action: Action) -> str:
    """The rule that makes a legal *action* legal in *state*: a landing anywhere in the tray
    or outside (HOPPER-6); a shot by an empty-handed seat with beans loose (HOPPER-10); an
    aim at any cup in the tray (HOPPER-5); with aiming off, the shooter's right to shoot now
    (HOPPER-15 in the shoot-out, HOPPER-4 in turn play)."""
    if isinstance(action, Land):
        return "HOPPER-6"
    if state.hands[action.seat] == 0:
        return "HOPPER-10"
    if action.aim is not None:
        return "HOPPER-5"
    return "HOPPER-15" if state.turn is None else "HOPPER-4"
