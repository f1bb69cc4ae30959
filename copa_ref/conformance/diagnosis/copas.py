"""Copas: which rule decides which part of the public view (COPAS-1 … COPAS-21).

The public view shows the finished tricks with their cards and winners, the scores, the
pending seat and the hand sizes; the hands are hidden. Rule IDs refer to ``specs/copas.md``.
The order is from the most specific rule to the most general.
"""

from __future__ import annotations

from collections.abc import Iterator

from copa_ref.conformance.scenarios import Divergence, Finding, ViewRule
from copa_ref.copas import Action, Config, Observation, Phase, Play, State

__all__ = ["VIEW_RULES", "diagnose"]

CopasDivergence = Divergence[State, Action, Config, Observation]
CopasView = ViewRule[State, Action, Config, Observation]


def _round_ended(d: CopasDivergence) -> bool:
    """The step ends a round, in the reference or as reported."""
    reported = d.reported_view
    return d.before.phase is Phase.PLAY and (
        d.expected.phase is not Phase.PLAY
        or (reported is not None and reported.phase is not Phase.PLAY))


def _pending_involved(d: CopasDivergence) -> bool:
    reported = d.reported_view
    return d.before.pending is not None or d.expected.pending is not None or (
        reported is not None and reported.pending is not None)


def _over(d: CopasDivergence) -> bool:
    reported = d.reported_view
    return d.expected.phase is Phase.OVER or (reported is not None
                                              and reported.phase is Phase.OVER)


def _trick_done(d: CopasDivergence) -> bool:
    return isinstance(d.action, Play) and len(d.expected.tricks) > len(d.before.tricks)


VIEW_RULES: tuple[CopasView, ...] = (
    ViewRule(part="public.tricks.winner", rule="COPAS-13",
             says="the highest card of the led suit takes the trick"),
    ViewRule(part="public.phase", rule="COPAS-20", when=_over,
             says="a seat at 51 or more minus points bursts and the match ends"),
    ViewRule(part="outcome", rule="COPAS-21",
             says="the highest total among the burst seats loses, the lowest total wins"),
    ViewRule(part="public.phase", rule="COPAS-14", when=_round_ended,
             says="a round is played out: it ends when every card is played"),
    ViewRule(part="public.pending", rule="COPAS-17",
             says="a seat that takes all ten copas books nothing; its bonus round follows"),
    ViewRule(part="public.scores", rule="COPAS-18", when=_pending_involved,
             says="the bonus round erases the pending ten or books them"),
    ViewRule(part="public.last_round", rule="COPAS-18", when=_pending_involved,
             says="the bonus round erases the pending ten or books them"),
    ViewRule(part="public.scores", rule="COPAS-16", when=_round_ended,
             says="each seat books one minus point per copa taken"),
    ViewRule(part="public.last_round", rule="COPAS-16", when=_round_ended,
             says="each seat books one minus point per copa taken"),
    ViewRule(part="public.leader", rule="COPAS-13", when=_trick_done,
             says="the trick's winner leads the next trick"),
    ViewRule(part="public.dealer", rule="COPAS-7",
             says="the player to the dealer's right deals the next round"),
    ViewRule(part="public.leader", rule="COPAS-8",
             says="the shuffler leads the first trick of a round"),
    ViewRule(part="public.hand_sizes", rule="COPAS-6", says="every seat is dealt a hand"),
    ViewRule(part="public.trick", rule="COPAS-10", says="the card played joins the trick"),
    ViewRule(part="to_move", rule="COPAS-9",
             says="counter-clockwise, one card each, starting with the leader"),
    ViewRule(part="legal", rule="COPAS-11", says="a seat follows suit when it can"),
)
"""Which rule decides which part of the Copas public view, most specific first."""


def diagnose(d: CopasDivergence) -> Iterator[Finding]:
    """Copas' own findings (none beyond its view rules yet)."""
    return iter(())
