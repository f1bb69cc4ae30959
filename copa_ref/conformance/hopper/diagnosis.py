"""HOPPER: which rule decides which part of the public view (the whole state, HOPPER-18).

Rule IDs refer to ``specs/hopper.md`` (its table "Which rule decides which part of the
public view"). The order is from the most specific rule to the most general: the bean
conservation of HOPPER-19 comes last.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator

from copa_ref.conformance.ladder import Check, Ladder
from copa_ref.conformance.predicates import action_is, at_start, reaches
from copa_ref.conformance.vocabulary import Divergence, Finding, ViewRule, part_of
from copa_ref.hopper import Action, Config, Land, Phase, Shoot, State
from copa_ref.hopper.rules import shoot_out
from copa_ref.hopper.state import BLACK, CUP_BEANS

__all__ = ["REPORT", "VIEW_RULES", "config_rule", "diagnose", "legal_rule"]

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


VIEW_RULES: tuple[HopperView, ...] = (
    ViewRule(part="public.hands", rule="HOPPER-3", when=at_start,
             says="the beans are dealt evenly; the remainder goes where Config.remainder says"),
    ViewRule(part="public.loose", rule="HOPPER-3", when=at_start,
             says="the beans are dealt evenly; the remainder goes where Config.remainder says"),
    ViewRule(part="public.tray", rule="HOPPER-2", when=at_start,
             says="the 16 neutral cups start in the tray, empty; the black cup aside"),
    ViewRule(part="public.tray", rule="HOPPER-14", when=_black_joins,
             says="under End 2 the black cup joins, empty, when three cups are left"),
    ViewRule(part="public", rule="HOPPER-12", when=_end_1,
             says="under End 1 the first seat to claim four cups wins at once"),
    ViewRule(part="public.phase", rule="HOPPER-13", when=_end_2,
             says="under End 2 the game ends when the last cup is shot down"),
    ViewRule(part="outcome.scores", rule="HOPPER-16", when=_end_2,
             says="a neutral cup counts 1, the black cup 2, the last cup 3"),
    ViewRule(part="outcome", rule="HOPPER-17", when=_end_2,
             says="the most points win; a tie is a shared win"),
    ViewRule(part="outcome", rule="HOPPER-12", when=_end_1,
             says="under End 1 the first seat to claim four cups wins"),
    ViewRule(part="public.claims", rule="HOPPER-8", when=_foursome,
             says="a bean into a cup holding 3 makes a foursome: the shooter claims the cup"),
    ViewRule(part="public.loose", rule="HOPPER-8", when=_foursome,
             says="a claimed cup's four beans go back into play as loose beans"),
    ViewRule(part="public.tray", rule="HOPPER-9", when=_foursome,
             says="the claimed cup leaves the tray; the others close up, keeping their order"),
    ViewRule(part="public.claims", rule="HOPPER-8", when=_landing,
             says="a cup is claimed only by a foursome"),
    ViewRule(part="public.tray", rule="HOPPER-7", when=_into_cup,
             says="a bean into a cup holding fewer than 3 stays in it"),
    ViewRule(part="public.loose", rule="HOPPER-7", when=_outside,
             says="a bean landing outside the cups lies loose"),
    ViewRule(part="public.hands", rule="HOPPER-10", when=_replenished,
             says="a seat with no beans first takes all the loose beans"),
    ViewRule(part="public.loose", rule="HOPPER-10", when=_replenished,
             says="a seat with no beans first takes all the loose beans"),
    ViewRule(part="public.turn", rule="HOPPER-11", when=_skip,
             says="a seat with no beans, none loose, is skipped"),
    ViewRule(part="to_move", rule="HOPPER-15", when=_shoot_out,
             says="in the shoot-out any seat that may shoot shoots next"),
    ViewRule(part="public.turn", rule="HOPPER-15", when=_shoot_out,
             says="in the shoot-out nobody has the turn"),
    ViewRule(part="legal", rule="HOPPER-15", when=_shoot_out,
             says="in the shoot-out every seat that may shoot, at every cup"),
    ViewRule(part="public.phase", rule="HOPPER-5", when=_shot_started,
             says="a shot is the shooter's decision only when it chooses among aims; with "
                  "aiming off (or one cup) a seat that alone may shoot starts its shot at "
                  "once"),
    ViewRule(part="to_move", rule="HOPPER-5", when=_shot_started,
             says="a shot is the shooter's decision only when it chooses among aims; with "
                  "aiming off (or one cup) a seat that alone may shoot starts its shot at "
                  "once"),
    ViewRule(part="public.turn", rule="HOPPER-4", says="the turn passes clockwise"),
    ViewRule(part="to_move", rule="HOPPER-4", says="the turn passes clockwise"),
    ViewRule(part="public.aim", rule="HOPPER-5", says="a shot is aimed at a cup in the tray"),
    ViewRule(part="public.phase", rule="HOPPER-5", says="every shot is followed by its landing"),
    ViewRule(part="legal", rule="HOPPER-5", says="a shot is aimed at any cup in the tray"),
    ViewRule(part="public.hands", rule="HOPPER-19", when=_landing,
             says="a landing takes one bean from the shooter's hand"),
    ViewRule(part="public", rule="HOPPER-19", says="the beans in play are conserved"),
)
"""Which rule decides which part of HOPPER's public view, most specific first."""


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

    def __init__(self, d: HopperDivergence, seen: State) -> None:
        self.d, self.seen = d, seen

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


def _reported(d: HopperDivergence) -> Reported | None:
    """The report ladder's context: a step with a decoded report."""
    return None if d.reported_view is None else Reported(d, d.reported_view)


def _overfull_cup(r: Reported) -> bool:
    return any(beans > CUP_BEANS for _, beans in r.seen.tray)


def _stray(r: Reported) -> bool:
    return bool(r.stray)


def _empty_shooter(r: Reported) -> bool:
    return bool(r.empty)


def _beans_differ(r: Reported) -> bool:
    before, after = r.beans
    return r.d.step > 0 and after != before and not _more_specific(r.d)


REPORT: Ladder[Reported] = Ladder(context=_reported, checks=(
    Check(rule="HOPPER-8", observable="public.tray", holds=_overfull_cup, go_on=True,
          says=lambda r: f"a cup in the reported tray holds more than {CUP_BEANS} beans: a "
                         "foursome claims the cup"),
    Check(rule="HOPPER-5", observable="legal", holds=_stray, go_on=True,
          says=lambda r: f"the engine's legal shots and its own reported tray disagree on "
                         f"cups {', '.join(map(str, r.stray))}: a shot may be aimed at every "
                         "cup in the tray and no other"),
    Check(rule="HOPPER-11", observable="to_move, legal", holds=_empty_shooter, go_on=True,
          says=lambda r: f"the engine lists seat {r.empty[0]} to shoot, which by its own "
                         "report holds no beans while none are loose: such a seat cannot "
                         "shoot"),
    Check(rule="HOPPER-19", observable="public", holds=_beans_differ, go_on=True,
          says=lambda r: f"{r.beans[1]} beans in play reported, {r.beans[0]} before the "
                         "step"),
))
"""Each check of the decoded report, every one that holds: a reported cup holding 4 or more
beans (HOPPER-8), legal shots aimed otherwise than at the cups of the engine's own reported
tray (HOPPER-5), a seat the engine lists to shoot although its own report gives it no beans
and none loose (HOPPER-11), the beans of the reported view not adding up (HOPPER-19)."""


def diagnose(d: HopperDivergence) -> Iterator[Finding]:
    """HOPPER's own findings: the checks of :data:`REPORT`."""
    yield from REPORT(d)


def _more_specific(d: HopperDivergence) -> bool:
    """Whether a view rule other than the conservation of HOPPER-19 decides a differing
    part at this step (a bean landing outside lies loose, HOPPER-7; a seat that runs out
    takes the loose beans, HOPPER-10: a rule of a part that holds beans,
    :data:`_BEAN_PARTS`). The spec names conservation last, only when nothing more specific
    explains the difference; the runner names those view rules after the diagnosis."""
    parts = [part_of(p) for p in d.differing]
    return any(view.rule != "HOPPER-19" and any(view.covers(p) for p in parts)
               and (view.when is None or view.when(d)) for view in VIEW_RULES
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
