"""One bug, one rule: a rare RONDA bug is named by the rule in force (the option, the cup
or group involved), not by a neighbouring or generic rule (the bean conservation of
RONDA-15)."""

from __future__ import annotations

import functools
from typing import Any

from copa_ref.conformance.channel import InProcessChannel
from copa_ref.conformance.corpus import Case, Filters, load_corpus, select
from copa_ref.conformance.runner import Runner
from copa_ref.core import Misreading, misread
from copa_ref.games import GAMES
from copa_ref.ronda import Config
from tests.conformance.explore_mutants import BuggyEngine


@functools.cache
def corpus() -> list[Case]:
    return load_corpus()


def _six_to_the_middle(beans: int, supply: int, black: int, out: int, config: Config
                       ) -> tuple[int, int, int, int]:
    """Simpler rule 2 misread: a pair of four sends a group of six (five and the bean, as
    without the rule) to the middle."""
    if beans == config.max_beans:
        moved = 6 if config.max_beans == 4 else beans + 1
        if config.penalty_beans and black == 0:
            return 0, supply - 1, black + moved, out
        return 0, supply - 1, black, out + moved
    return beans + 1, supply - 1, black, out


GROUP_OF_SIX = Misreading(rule="RONDA-17", slug="group-of-six-under-rule-2",
                          description="simpler rule 2: two fours send six beans to the "
                          "middle", replacements={"add_bean": _six_to_the_middle})


def _broken_rules(wrong: Any, where: Filters) -> set[str | None]:
    engine = BuggyEngine(wrong)
    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus())
    results = runner.run(select(corpus(), where))
    runner.close()
    return {r.broken_rule for r in results if r.status != "passed"}


def test_group_of_six_under_simpler_rule_2_is_named_by_the_rule() -> None:
    """Two fours sending six beans to the middle under simpler rule 2: the beans no longer
    add up, but the rule broken is RONDA-17, not the conservation of RONDA-15."""
    wrong = misread(GAMES["ronda"], GROUP_OF_SIX)
    assert _broken_rules(wrong, Filters(game="ronda")) == {"RONDA-17"}


class TiedWinnersEngine(BuggyEngine):
    """A DA CAPO engine whose rounds list the tied top bidders as the winner (``[0, 1]``)
    instead of resolving the tie (DACAPO-11): its view is no longer DA CAPO's canonical
    JSON."""

    def __init__(self) -> None:
        super().__init__(GAMES["da_capo"])

    def observe(self) -> dict[str, Any]:
        answer: dict[str, Any] = dict(super().observe())
        public = answer["public"]
        rounds = public.get("rounds") if isinstance(public, dict) else None
        if rounds:
            bids = [b for b in rounds[-1]["bids"] if b is not None]
            tied = [s for s, b in enumerate(rounds[-1]["bids"]) if b == max(bids)]
            if len(tied) > 1:
                played = {**rounds[-1], "winner": tied}
                answer["public"] = {**public, "rounds": [*rounds[:-1], played]}
        return answer


def test_da_capo_tied_winners_named_once_by_the_tie_rule() -> None:
    """Tied top bids reported as the winners: the rule broken is the tie rule DACAPO-11,
    once, not again as P-8 for a view that does not decode."""
    engine = TiedWinnersEngine()
    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus())
    results = runner.run(select(corpus(), Filters(game="da_capo")))
    runner.close()
    assert {r.broken_rule for r in results if r.status != "passed"} == {"DACAPO-11"}


def _explored(engine: BuggyEngine, games: int) -> set[str]:
    from copa_ref.conformance.explore import Explorer, Settings

    runner = Runner(lambda: InProcessChannel(lambda: engine), corpus())
    found = Explorer(runner, Settings(games=games, only=("ronda",), load_state=False),
                     corpus()).explore()
    return set(found.differences)


def test_explore_names_the_again_bug_under_its_rare_config_by_simpler_rule_1() -> None:
    """Simpler rule 1's ``again`` leaving one group open, acting only with three players
    (a config the corpus never plays): explore names RONDA-16, not the penalty beans of
    RONDA-11 nor the conservation of RONDA-15."""
    from copa_ref.conformance.vocabulary import Rare as RareEntry
    from tests.conformance.explore_mutants import Rare, conditional

    bug = Rare("ronda", RareEntry("again-keeps-one-open",
                                  (("players", 3), ("relift_after_match", True))))
    assert _explored(BuggyEngine(conditional((bug,))), 12) == {"RONDA-16"}


def test_explore_names_the_group_of_six_by_simpler_rule_2() -> None:
    """The group of six under simpler rule 2, explored: RONDA-17, not RONDA-15."""
    assert _explored(BuggyEngine(misread(GAMES["ronda"], GROUP_OF_SIX)), 8) == {"RONDA-17"}
