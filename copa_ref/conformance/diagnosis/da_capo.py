"""DA CAPO: which rule decides which part of the public view (the whole state, DACAPO-8).

Rule IDs refer to ``specs/da_capo.md``. The order is from the most specific rule to the
most general: the bean conservation of DACAPO-3 comes last.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator

from copa_ref.conformance.scenarios import Divergence, Finding, ViewRule
from copa_ref.da_capo import Action, Config, State

__all__ = ["VIEW_RULES", "diagnose"]

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


VIEW_RULES: tuple[DaCapoView, ...] = (
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


def diagnose(d: DaCapoDivergence) -> Iterator[Finding]:
    """DA CAPO's own findings: a differing outcome is named by the rule that decides it."""
    if any(p.startswith("outcome") for p in d.differing):
        from copa_ref.da_capo import outcome

        result = outcome(d.expected)
        if result is not None and result.rule:
            yield Finding(result.rule, f"the outcome differs; {result.rule} decides it here")
