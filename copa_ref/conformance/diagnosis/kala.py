"""KALA: which rule decides which part of the public view (the whole state, KALA-11).

Rule IDs refer to ``specs/kala.md``. The order is from the most specific rule to the most
general: the bean conservation of KALA-18 comes last.
"""

from __future__ import annotations

from collections.abc import Iterator

from copa_ref.conformance.scenarios import Divergence, Finding, ViewRule
from copa_ref.kala import Action, Bonus, Config, Harvest, Phase, Place, Sow, State

__all__ = ["VIEW_RULES", "diagnose"]

KalaDivergence = Divergence[State, Action, Config, State]
KalaView = ViewRule[State, Action, Config, State]


def _phases(d: KalaDivergence) -> set[Phase]:
    """The phases after the step, in the reference and as reported."""
    found = {d.expected.phase}
    if d.reported_view is not None:
        found.add(d.reported_view.phase)
    return found


def _regular_sow(d: KalaDivergence) -> bool:
    return isinstance(d.action, Sow) and d.before.phase is Phase.SOW


def _bonus_sow(d: KalaDivergence) -> bool:
    return isinstance(d.action, Sow) and d.before.phase is Phase.BONUS_SOW


def _excess(d: KalaDivergence) -> bool:
    return (isinstance(d.action, Sow) and _bonus_sow(d)
            and d.before.cup_beans[d.before.turn] > len(d.action.path))


def _harvested(d: KalaDivergence) -> bool:
    """A harvest happened in this step, in the reference or as reported."""
    reported = d.reported_view
    return d.expected.bank != d.before.bank or (reported is not None
                                                and reported.bank != d.before.bank)


def _bonus_started(d: KalaDivergence) -> bool:
    """The step ended a regular sowing's turn part and a bonus is (or is reported) due."""
    return bool(_phases(d) & {Phase.BONUS, Phase.BONUS_SOW}) and not _bonus_sow(d)


def _over_opponent(d: KalaDivergence) -> bool:
    return (isinstance(d.action, Sow)
            and d.before.cups[1 - d.before.turn] in d.action.path[1:])


def _into_opponent(d: KalaDivergence) -> bool:
    return isinstance(d.action, Place) or (
        isinstance(d.action, Sow) and d.action.path[-1] == d.before.cups[1 - d.before.turn])




def _over(d: KalaDivergence) -> bool:
    return Phase.OVER in _phases(d)


def _harvest_phase(d: KalaDivergence) -> bool:
    return Phase.HARVEST in _phases(d) or isinstance(d.action, Harvest)


def _bonus_phase(d: KalaDivergence) -> bool:
    return d.expected.phase is Phase.BONUS_SOW or isinstance(d.action, Bonus)


VIEW_RULES: tuple[KalaView, ...] = (
    ViewRule(part="public.stores", rule="KALA-14", when=_excess,
             says="the beans of a bonus that no path holds go to the opponent's store"),
    ViewRule(part="public", rule="KALA-17", when=_over,
             says="the game ends when a player has fewer than 4 beans for his turn"),
    ViewRule(part="outcome", rule="KALA-17",
             says="once a player cannot finish a turn, the other player wins"),
    ViewRule(part="public", rule="KALA-15", when=_harvested,
             says="a harvested cup gives one bean to the bank and the rest to the store"),
    ViewRule(part="public.phase", rule="KALA-15", when=_harvest_phase,
             says="a cup holding 4 or more beans after the last bean may be harvested"),
    ViewRule(part="public", rule="KALA-12", when=_bonus_started,
             says="4 or more beans in the playing cup after moving give a bonus move"),
    ViewRule(part="legal", rule="KALA-13", when=_bonus_phase,
             says="every bean of the bonus is sown: the path is as long as the beans allow"),
    ViewRule(part="public.cup_beans", rule="KALA-9", when=_over_opponent,
             says="a bean sown on the opponent's playing cup goes into that cup"),
    ViewRule(part="public.field", rule="KALA-9", when=_over_opponent,
             says="the field cup beneath the opponent's playing cup receives nothing"),
    ViewRule(part="public.cups", rule="KALA-10", when=_into_opponent,
             says="the playing cup goes next to the opponent's cup, never onto it"),
    ViewRule(part="public.phase", rule="KALA-10", when=_into_opponent,
             says="the player chooses a neighbouring cup of the opponent's cup"),
    ViewRule(part="public.cups", rule="KALA-8",
             says="the playing cup moves onto the cup that took the last bean"),
    ViewRule(part="public.stores", rule="KALA-4", when=_regular_sow,
             says="a regular sowing takes 4 beans from the store"),
    ViewRule(part="public.cup_beans", rule="KALA-6", when=_regular_sow,
             says="the first bean goes into the own playing cup"),
    ViewRule(part="public.field", rule="KALA-5",
             says="one bean into each cup of the path, cup by cup"),
    ViewRule(part="public.turn", rule="KALA-3", says="the players take turns"),
    ViewRule(part="to_move", rule="KALA-3", says="the players take turns"),
    ViewRule(part="public", rule="KALA-18", says="the 56 beans are conserved"),
)
"""Which rule decides which part of KALA's public view, most specific first."""


def diagnose(d: KalaDivergence) -> Iterator[Finding]:
    """KALA's own findings (none beyond its view rules yet)."""
    return iter(())
