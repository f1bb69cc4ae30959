"""The conformance vocabulary: the per-game record (:class:`GameRecord`), its misreading
:class:`Catalogue`, and the values the runner names a broken rule with (:class:`Report`,
:class:`Divergence`, :class:`Finding`, :class:`ViewRule`).

Everything the corpus and the runner know of one game is in its folder
``copa_ref/conformance/<game>/``: ``rules.py`` (one
:class:`~copa_ref.conformance.entries.RuleEntry` a rule, ``RULES``, and what is built from
the entries: the view rules, ``diagnose``, the readings, the catalogue ``CATALOGUE``),
``diagnosis.py`` (the predicates the entries refer to, ``check_public``, ``config_rule``,
``legal_rule``), ``misreadings.py`` (the misread functions, the kill matrix's lists by
mutant) and ``record.py`` (the record ``RECORD``: random games, scenarios, counts,
events). Each game of the registry has one :class:`GameRecord`, listed explicitly (by
import, never by module name) in :mod:`copa_ref.conformance.registry`. The record is typed
with the game's own types (``GameRecord[State, Action, Config, Observation]``), so a reader
can follow a call from the runner into the game's rules.

Adding a game means filling one record::

    RECORD: GameRecord[State, Action, Config, Observation] = GameRecord(
        game=GAME,                              # the game's copa_ref.core.Game
        random_games=(RandomGames("default", Config(), (1, 2, 3)),),
        whole_game_rules=("XX-1", "XX-2"),      # what every whole game exercises
        scenarios=(Scenario(...),),             # hand-made traces: a predicate on a step
        counts=(CountSpec(...),),               # perft-style counts
        events=events,                          # the rules one step exercises
        check_public=None,                      # checks of a reported view (hidden info)
        candidates=None,                        # extra actions to try for rejections
        rules=RULES,                            # one entry a rule (<game>/rules.py)
        view_rules=VIEW_RULES,                  # which rule decides which part of the view
        readings=READINGS,                      # Config options reading a rule
        catalogue=CATALOGUE,                    # misreadings and mutants
        diagnose=diagnose,                      # optional: re-derive a rule's consequence
    )

where ``VIEW_RULES``, ``READINGS``, ``CATALOGUE`` and ``diagnose`` are built from ``RULES``
(:mod:`copa_ref.conformance.tables`), and one line in
:mod:`copa_ref.conformance.registry`. What each part is for:

* **The corpus** (:mod:`copa_ref.conformance.generate`): ``random_games`` (whole games from
  fixed seeds, also searched for rejections), ``scenarios`` (the first step of a seeded
  game where a predicate holds, with an optional policy that arranges a deal), ``counts``,
  ``events`` (tags random traces with the rules they exercise), ``candidates`` (game-specific
  refusals to try besides the generic mutations).
* **Naming the broken rule** (:mod:`copa_ref.conformance.runner`). When a report differs at
  a step, the runner knows the reference position before the step (the engine's previous
  report agreed with it), the action, the reference position after it and everything the
  engine reported (a :class:`Divergence`). It names, in this order (the first is the
  *broken rule*, the others are listed with it):

  1. an **explanation** by another reading: the engine's reports up to the failing step
     match the reference played under another value of a ``Config`` option listed in
     ``readings`` ("your engine plays as if harvest=mandatory (KALA-Q7)"), or under an entry
     of ``misreadings`` (common misreadings that are not options, each tagged with its rule;
     see :mod:`copa_ref.core.misreading`);
  2. the game's ``diagnose(divergence)``: findings that re-derive a rule's consequence from
     what the engine itself reported (the Copas trick winner from the reported trick's
     cards, the booking from the reported tricks), most specific first;
  3. when only the legal actions differ: the rule under which the reference refuses an
     extra action the engine lists (at a joint node combined with the other seats' parts);
  4. ``view_rules``: each :class:`ViewRule` whose ``part`` contains a differing path of the
     report and whose ``when`` holds for the step. The list states, beside the game's
     invariants, which rule decides which part of its public view; order it from the most
     specific rule to the most general (conservation last, so that it is named only when no
     more specific rule explains the difference);
  5. the reference's refusal of an extra legal action (when the position differs too), then
     the game's step invariants and state checks on the reported view.

  Steps 2 and 4 are the game's own code judging the engine's data: only the errors that data
  may cause are caught there (:data:`~copa_ref.core.replay.ENGINE_DATA`), so a bug of a
  ``diagnose`` or a ``when`` raises and the case is reported errored, not failed under some
  other rule.

A ``part`` is a dotted path in the observables of a position, list indices left out:
``to_move``, ``legal``, ``outcome``, ``outcome.losers``, ``public.stores``,
``public.tricks.winner``. A differing path ``public.tricks[3].winner`` is contained in the
parts ``public.tricks.winner``, ``public.tricks`` and ``public``.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping
from typing import Any, Generic, TypeVar

import attrs

from copa_ref.conformance.entries import RuleEntry
from copa_ref.core import JSON, Game
from copa_ref.core.misreading import Misreading

__all__ = [
    "Candidates",
    "Catalogue",
    "CountSpec",
    "Diagnose",
    "Divergence",
    "Finding",
    "GameRecord",
    "Policy",
    "PublicCheck",
    "RandomGames",
    "Rare",
    "Reading",
    "Report",
    "Scenario",
    "Step",
    "ViewRule",
    "part_of",
]

S = TypeVar("S")
A = TypeVar("A")
C = TypeVar("C")
O = TypeVar("O")  # noqa: E741 - the conventional name of the observation type

Step = Callable[[S, A, S, tuple[A, ...]], bool]
"""A predicate on one step ``(before, action, after, earlier_actions)`` of a game."""

Policy = Callable[[Game[S, A, C, O], S, random.Random], A | None]
"""``(game, state, rng) -> action or None``: a scenario's own choice at a node (``None``:
random play from the seed)."""

Candidates = Callable[[Game[S, A, C, O], S], Iterable[tuple[str, str, JSON]]]
"""Extra candidate refusals at a position: ``(kind, note, action JSON)`` triples."""

PublicCheck = Callable[[JSON | None, JSON | None, JSON], None]
"""A check of a reported public view ``(before, action JSON or None, after)``, raising
:class:`~copa_ref.core.InvariantViolation`; for hidden-information games."""


@attrs.frozen
class Scenario(Generic[S, A, C, O]):
    """A hand-made trace: the first step of a seeded random game where *fires* holds."""

    slug: str
    """The meaningful part of the case ID (``sixth-bean-to-opponent``)."""
    description: str
    rules: tuple[str, ...]
    """The rule IDs the step exercises."""
    config: C
    fires: Step[S, A]
    extra: int = 0
    """Steps kept after the one that fires (to show what follows)."""
    seeds: range = range(500)
    """The seeds searched, in order."""
    policy: Policy[S, A, C, O] | None = None
    """Chooses actions where it returns one (a deal arranged on purpose, say); random play
    from the seed elsewhere."""


@attrs.frozen
class CountSpec(Generic[S, A, C]):
    """A perft-style count from the position after the first step where *fires* holds
    (the initial position when *fires* is ``None``)."""

    slug: str
    description: str
    rules: tuple[str, ...]
    config: C
    depth: int
    fires: Step[S, A] | None = None
    seeds: range = range(500)


@attrs.frozen
class RandomGames(Generic[C]):
    """Whole random games from fixed seeds under one config."""

    slug: str
    """Names the config in case IDs (``default``, ``harvest-mandatory``)."""
    config: C
    seeds: tuple[int, ...]


@attrs.frozen(kw_only=True)
class Reading:
    """A ``Config`` option that implements readings of the register: the runner replays a
    failing case under each other value of the option to explain the failure."""

    option: str
    """The ``Config`` field (``"harvest"``)."""
    question: str
    """The register entry of ``specs/ambiguities.md`` (``"KALA-Q7"``)."""
    rule: str
    """The rule the option reads (``"KALA-15"``): the rule named when an engine plays as if
    the option had another value."""
    values: tuple[JSON, ...] = ()
    """The JSON values to try; empty: every member of the option's enum, or both values of
    a flag."""


@attrs.frozen(kw_only=True)
class ViewRule(Generic[S, A, C, O]):
    """Which rule decides one part of the observables, at which steps."""

    part: str
    """A dotted path in the observables, list indices left out (``public.stores``,
    ``public.tricks.winner``, ``to_move``, ``outcome.losers``)."""
    rule: str
    """The rule ID named when that part differs."""
    says: str
    """What the rule decides of the part, in words (shown in the failure)."""
    when: Callable[[Divergence[S, A, C, O]], bool] | None = None
    """Whether the rule decides the part at the diverging step (``None``: at every step)."""

    def covers(self, path: str) -> bool:
        """Whether the differing *path* (indices removed, see :func:`part_of`) lies in this
        part."""
        return path == self.part or path.startswith(self.part + ".")


def part_of(path: str) -> str:
    """A differing path with its list indices removed: ``public.tricks[3].winner`` ->
    ``public.tricks.winner``."""
    out: list[str] = []
    depth = 0
    for char in path:
        if char == "[":
            depth += 1
        elif char == "]":
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


@attrs.frozen(kw_only=True)
class Report:
    """What an engine reported in one position, as received (JSON)."""

    to_move: JSON
    public: JSON
    outcome: JSON
    legal: Mapping[int | None, list[JSON]] = attrs.field(factory=dict, eq=False)
    """The legal actions asked for, by seat (``None``: ``legal`` with ``seat: null``)."""
    observed: bool = True
    """Whether ``public`` and ``outcome`` are compared (inside a count only ``to_move`` and
    the legal actions are)."""


@attrs.frozen(kw_only=True)
class Divergence(Generic[S, A, C, O]):
    """A step where an engine's report differs from the reference: what the game's
    ``diagnose`` hook gets."""

    config: C
    step: int
    """0 for the initial position, k for the position after the k-th action."""
    before: S
    """The reference position before the step (the initial position at step 0). The
    engine's previous report agreed with its observables."""
    action: A | None
    """The action of the step (``None`` at step 0)."""
    expected: S
    """The reference position after the step."""
    reported: Report
    """What the engine reported after the step."""
    reported_before: Report | None
    """What the engine reported before the step (``None`` at step 0)."""
    reported_view: O | None
    """The reported public view decoded with the game's strict codec as its observation
    type (the whole state for a perfect-information game); ``None`` when it does not
    decode."""
    differing: tuple[str, ...]
    """The differing paths of the observables (``public.stores[1]``, ``to_move``,
    ``legal``), as :func:`~copa_ref.conformance.checks.json_diff` names them."""


@attrs.frozen
class Finding:
    """A rule the engine breaks, and how the runner knows."""

    rule: str
    message: str


Diagnose = Callable[[Divergence[S, A, C, O]], Iterable[Finding]]
"""A game's own diagnosis of a divergence: the rules whose consequence differs, most
specific first (empty when it cannot tell)."""


@attrs.frozen
class Rare:
    """A kill-matrix mutant that acts in one rare situation only: a combination of player
    count and options the corpus never plays (elsewhere the engine is the reference).
    What an exploration must find beyond the corpus (``tests/conformance/
    test_explore_proof.py`` builds the engines and proves it)."""

    mutant: str
    """The slug of the catalogue's mutant misread there."""
    situation: tuple[tuple[str, JSON], ...]
    """The config values, as JSON (``(("players", 5), ("copas_lead", "broken"))``), under
    which the misreading acts: every one of them holds."""

    @property
    def label(self) -> str:
        """The situation in words: ``players=5,copas_lead=broken``."""
        return ",".join(f"{key}={value if isinstance(value, str) else json.dumps(value)}"
                        for key, value in self.situation)

    def acts(self, config: Mapping[str, JSON]) -> bool:
        """Whether the misreading acts under *config* (a config as JSON)."""
        return all(key in config and config[key] == value for key, value in self.situation)


@attrs.frozen(kw_only=True)
class Catalogue:
    """A game's misreadings: each the reference with one rule read wrongly
    (:class:`~copa_ref.core.misreading.Misreading`). One catalogue a game
    (``CATALOGUE`` in ``copa_ref/conformance/<game>/rules.py``), used by the
    explanations, the kill matrix and the rule book."""

    misreadings: tuple[Misreading, ...] = ()
    """Common misreadings that are not ``Config`` options: the runner replays them to
    explain a failure ("your engine plays as if ...")."""
    mutants: tuple[Misreading, ...] = ()
    """The kill matrix's mutants: one or more for every rule of the spec (the common
    misreadings among them); the corpus must fail each, naming its rule."""
    unmutatable: Mapping[str, str] = attrs.field(factory=dict)
    """Rules with no one-rule mutant, and why."""
    unnamed: Mapping[str, str] = attrs.field(factory=dict)
    """The failing cases of a mutant that cannot name its rule, each with the reason: keyed
    ``"<slug> <case id>"`` (``"queen-of-espadas-counts copas/trace/all-tricks"``); a key of
    a slug alone stands for every failing case of that mutant. The kill matrix requires
    every other failing case of every mutant to name the mutated rule, and every listed
    case to be misnamed still (the list only shrinks)."""

    def excuses(self, slug: str, case_id: str) -> str | None:
        """The reason the failing case *case_id* of the mutant *slug* may name another rule
        (``None``: it must name the mutant's own)."""
        return self.unnamed.get(f"{slug} {case_id}", self.unnamed.get(slug))
    vacuous: Mapping[str, str] = attrs.field(factory=dict)
    """Hand-made cases no mutant of their rules fails, and why."""
    rare: tuple[Rare, ...] = ()
    """Mutants of :attr:`mutants` acting only in a rare situation (three a game): the
    wrong engines an exploration must find and name where the corpus passes them."""
    pictured: tuple[Misreading, ...] = ()
    """Further misreadings the rule book uses to find the step where a rule it pictures
    fires (:func:`~copa_ref.conformance.viewer.rule_step`)."""

    def mutant(self, slug: str) -> Misreading:
        """The mutant called *slug*.

        :raises KeyError: when there is none.
        """
        for mutant in self.mutants:
            if mutant.slug == slug:
                return mutant
        raise KeyError(slug)

    def everything(self) -> tuple[Misreading, ...]:
        """Every misreading of the catalogue, each once (by rule and slug): the rule
        book's, the common ones, the mutants."""
        seen: dict[tuple[str, str], Misreading] = {}
        for misreading in (*self.pictured, *self.misreadings, *self.mutants):
            seen.setdefault((misreading.rule, misreading.slug), misreading)
        return tuple(seen.values())


@attrs.frozen(kw_only=True)
class GameRecord(Generic[S, A, C, O]):
    """Everything game-specific the generator and the runner need about one game."""

    game: Game[S, A, C, O]
    """The game itself (the registry's record)."""
    random_games: tuple[RandomGames[C], ...]
    """Random whole-game traces; also the games searched for rejections."""
    whole_game_rules: tuple[str, ...]
    """The rules every whole game exercises (set-up, turn order, ...)."""
    scenarios: tuple[Scenario[S, A, C, O], ...] = ()
    counts: tuple[CountSpec[S, A, C], ...] = ()
    events: Callable[[S, A, S], frozenset[str]] | None = None
    """The rule IDs one step ``(before, action, after)`` exercises (tags random traces)."""
    check_public: PublicCheck | None = None
    """Checks of a reported public view; for hidden-information games."""
    candidates: Candidates[S, A, C, O] | None = None
    """Game-specific actions to try for rejections (besides the generic mutations)."""
    rejection_games: int = 4
    """How many of the random games (in order) are searched for rejections."""
    rejections_per_rule: int = 3
    """At most this many generic rejection cases per rule ID."""
    rules: tuple[RuleEntry, ...] = ()
    """What the suite declares of each rule, one entry a rule
    (``copa_ref/conformance/<game>/rules.py``): the view rules, the readings, the catalogue
    and the diagnosis ladders below are built from it."""
    view_rules: tuple[ViewRule[S, A, C, O], ...] = ()
    """Which rule decides which part of the public view, most specific first."""
    readings: tuple[Reading, ...] = ()
    """The ``Config`` options that implement readings of the register."""
    catalogue: Catalogue = Catalogue()
    """The game's misreadings (``copa_ref.conformance.<game>.rules``)."""
    diagnose: Diagnose[S, A, C, O] | None = None
    """The game's own diagnosis of a divergence (see :class:`Divergence`)."""
    bad_configs: tuple[Mapping[str, JSON], ...] = ()
    """Configs the rules exclude, as changes to the default config's JSON
    (``{"players": 6}``): each is a ``config`` case that ``new_game`` must refuse (malformed
    configs are made for every game)."""
    config_rule: Callable[[C], str | None] | None = None
    """The rule that admits a config (the player count's rule, say): named when an engine
    refuses a config the rules allow."""
    legal_rule: Callable[[S, A], str | None] | None = None
    """The rule that makes an action legal in a state (a three-player deal's rule, say):
    named when an engine refuses a legal action and no other reading explains it."""

    @property
    def name(self) -> str:
        """The game's registry name."""
        return self.game.name

    @property
    def misreadings(self) -> tuple[Misreading, ...]:
        """The common misreadings the explanations replay (the catalogue's)."""
        return self.catalogue.misreadings

    def view_findings(self, divergence: Divergence[S, A, C, O]) -> list[Finding]:
        """The :attr:`view_rules` that decide a differing part of *divergence*, in the
        order of the list, one finding per rule."""
        found: list[Finding] = []
        parts = [part_of(p) for p in divergence.differing]
        for view in self.view_rules:
            if any(f.rule == view.rule for f in found):
                continue
            hits = [p for p in parts if view.covers(p)]
            if not hits:
                continue
            if view.when is not None and not view.when(divergence):
                continue
            found.append(Finding(view.rule, f"{hits[0]} differs; {view.says}"))
        return found


AnyRecord = GameRecord[Any, Any, Any, Any]
"""A record of any game (what the registry holds)."""

__all__ += ["AnyRecord"]
