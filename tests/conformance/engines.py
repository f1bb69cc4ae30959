"""Deliberately wrong and deliberately broken engines, for the runner's proof tests.

Wrong engines wrap the reference engine with one rule changed; broken engines crash, hang,
print garbage or answer with the wrong shape. Each runs in-process (``WRONG[name]()``) or as
a command: ``python tests/conformance/engines.py NAME``.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs

if __package__ in (None, ""):  # run as a script: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from copa_ref.conformance.engine import Engine, ReferenceEngine, serve
from copa_ref.copas.state import Suit
from copa_ref.core import JSON, Misreading, misread

Message = dict[str, JSON]


class Wrong(ReferenceEngine):
    """The reference with one rule changed; names itself after the change."""

    label = "wrong"

    def hello(self) -> Message:
        return {**super().hello(), "name": f"wrong:{self.label}"}


# -- KALA ------------------------------------------------------------------------------------


class KalaTurnPerTurn(Wrong):
    """KALA-7 read per turn, not per sowing: a bonus sowing may not turn when the regular
    sowing of the same turn did."""

    label = "kala-90-degrees-per-turn"
    turned = False

    def _forbidden(self, action: Any) -> bool:
        from copa_ref.kala import Phase, Sow
        from copa_ref.kala.paths import turns

        return (self.game.name == "kala" and isinstance(action, Sow)
                and self.state.phase is Phase.BONUS_SOW and self.turned
                and turns(action.path) > 0)

    def legal(self, seat: int | None) -> list[JSON]:
        actions = super().legal(seat)
        if self.game.name != "kala":
            return actions
        return [a for a in actions if not self._forbidden(self.game.action_from_json(a))]

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        if self.game.name == "kala":
            from copa_ref.kala import Phase, Sow
            from copa_ref.kala.paths import turns

            try:
                decoded = self.game.action_from_json(action)
            except ValueError:
                decoded = None
            if self._forbidden(decoded):
                return False, "KALA-7", "only one 90-degree turn per turn"
            if isinstance(decoded, Sow) and self.state.phase is Phase.SOW:
                accepted = super().apply(action)
                if accepted[0]:
                    self.turned = turns(decoded.path) > 0
                return accepted
        return super().apply(action)


class KalaNoBeanIntoOpponentCup(Wrong):
    """KALA-9 broken: a sowing over the opponent's cup drops the bean into the field cup
    beneath instead."""

    label = "kala-no-bean-into-opponent-cup"

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        before = self.state
        result = super().apply(action)
        if result[0] and self.game.name == "kala" and action.get("type") == "sow":
            other = 1 - before.turn
            square = tuple(before.cups[other])
            path = [tuple(s) for s in action["path"]]
            if square in path[1:]:
                row, col = square
                field: Any = self.state.field
                if field and isinstance(field[0], int):  # flat, row by row
                    cells = list(field)
                    cells[4 * row + col] += 1
                    field = tuple(cells)
                else:
                    rows = [list(r) for r in field]
                    rows[row][col] += 1
                    field = tuple(map(tuple, rows))
                beans = list(self.state.cup_beans)
                beans[other] -= 1
                self.state = attrs.evolve(self.state, field=field, cup_beans=tuple(beans))
        return result


class KalaSixthBeanKept(Wrong):
    """KALA-14 broken: the bean no bonus path holds stays with the sower."""

    label = "kala-sixth-bean-kept"

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        from copa_ref.kala import Phase

        before = self.state
        bonus = self.game.name == "kala" and before.phase is Phase.BONUS_SOW
        result = super().apply(action)
        if result[0] and bonus:
            seat, other = before.turn, 1 - before.turn
            excess = before.cup_beans[seat] - len(action["path"])
            if excess:
                stores = list(self.state.stores)
                stores[other] -= excess
                stores[seat] += excess
                self.state = attrs.evolve(self.state, stores=tuple(stores))
        return result


# -- DA CAPO ---------------------------------------------------------------------------------


def _top_bid_wins(bids: tuple[int | None, ...], tie_resolution: Any) -> int | None:
    """DACAPO-11 broken: a tie at the top goes to the first seat with the top bid."""
    top = max((b for b in bids if b is not None), default=None)
    return None if top is None else bids.index(top)


class DaCapoTieAwardsTop(Wrong):
    """DACAPO-11 broken: tied highest bids do not cancel; the first of them wins."""

    label = "da-capo-tie-awards-top-bid"

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        if self.game.name != "da_capo":
            return super().apply(action)
        from copa_ref.da_capo import rules

        with _patched(rules, "round_winner", _top_bid_wins):
            return super().apply(action)


@contextlib.contextmanager
def _patched(module: Any, name: str, value: Any) -> Iterator[None]:
    saved = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, saved)


# -- Copas -----------------------------------------------------------------------------------


def _swap_qj(value: JSON) -> JSON:
    """Every card code with rank Q as J and J as Q."""
    if isinstance(value, str) and len(value) == 2 and value[0] in "QJ" and value[1] in "peco":
        return ("J" if value[0] == "Q" else "Q") + value[1]
    if isinstance(value, list):
        return [_swap_qj(v) for v in value]
    if isinstance(value, dict):
        return {k: _swap_qj(v) for k, v in value.items()}
    return value


class CopasQueenJackSwapped(Wrong):
    """COPAS-2 broken: Q and J change places in the order of the cards (the reference plays
    with every Q and J relabelled, so the J beats the Q)."""

    label = "copas-q-j-swapped"

    def _on(self) -> bool:
        return self.game is not None and self.game.name == "copas"

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        return super().apply(_swap_qj(action) if self._on() else action)

    def legal(self, seat: int | None) -> list[JSON]:
        found = super().legal(seat)
        return [_swap_qj(a) for a in found] if self._on() else found

    def observe(self) -> Message:
        seen = super().observe()
        return {k: _swap_qj(v) for k, v in seen.items()} if self._on() else seen


class CopasRevokeAllowed(Wrong):
    """COPAS-11 broken: a player may play any card of his hand, following suit or not."""

    label = "copas-revoke-allowed"

    def legal(self, seat: int | None) -> list[JSON]:
        found = super().legal(seat)
        if self.game.name != "copas" or not found or found[0].get("type") != "play":
            return found
        mover = found[0]["seat"]
        hand = self.game.to_json(self.state)["hands"][mover]
        return [{"type": "play", "seat": mover, "card": card} for card in hand]

    def apply(self, action: JSON) -> tuple[bool, str | None, str]:
        accepted = super().apply(action)
        if accepted[0] or accepted[1] != "COPAS-11":
            return accepted
        return self._play_anyway(action)

    def _play_anyway(self, action: JSON) -> tuple[bool, str | None, str]:
        from copa_ref.copas import rules

        with _patched(rules, "legal_cards", _any_card):
            return super().apply(action)


def _any_card(hand: Any, *args: Any, **kwargs: Any) -> Any:
    return hand


# -- misread engines: the reference with one rule misread (copa_ref.core.misreading) ---------


class Misread(Wrong):
    """The reference playing a misread copy of one game's rules (the other games as they
    are); the misreadings below are the engine authors' mistakes the diagnosis must name."""

    misreading: Misreading
    game_name: str

    def new_game(self, game: str, config: JSON) -> None:
        super().new_game(game, config)
        if game == self.game_name:
            self.game = misread_game(self.game, self.misreading)
            self.state = self.game.new_game(self.state.config)


_MISREAD: dict[tuple[str, str], Any] = {}


def misread_game(game: Any, misreading: Misreading) -> Any:
    """The misread game, made once per misreading."""
    key = (game.name, misreading.slug)
    if key not in _MISREAD:
        _MISREAD[key] = misread(game, misreading)
    return _MISREAD[key]


def _copas_q_above_j(card: Any, plain: bool) -> int:
    from copa_ref.copas import rules

    rank: int = rules.strength(card, plain)
    if not plain and card.value[0] in "QJ":
        return 11 - rank  # Q (5) and J (6) change places
    return rank


def _copas_every_burst_seat_loses(state: Any) -> Any:
    from copa_ref.copas import rules
    from copa_ref.core import Outcome, Seat

    found = rules.outcome(state)
    if found is None:
        return None
    losers = tuple(Seat(s) for s, score in enumerate(state.scores) if score >= rules.BURST)
    winners = tuple(w for w in found.winners if w not in losers)
    return Outcome(winners=winners, losers=losers, scores=found.scores, rule=found.rule)


def _copas_no_all_cards_taker(hands: Any, tricks: Any) -> None:
    return None


def _copas_hand_ends_when_copas_out(state: Any, action: Any) -> Any:
    from copa_ref.copas import rules

    config = state.config
    early = attrs.evolve(state, config=attrs.evolve(config, end_when_copas_out=True))
    return attrs.evolve(rules._play(early, action), config=config)


def _copas_discard_can_win(trick: Any, plain: bool) -> int:
    from copa_ref.copas import rules

    strengths = [rules.strength(card, plain) for card in trick]
    return strengths.index(max(strengths))


def _kala_place_bonus_above_four(state: Any, square: Any) -> Any:
    from copa_ref.kala import rules
    from copa_ref.kala.state import BonusRule, Phase, State

    seat = state.turn
    cups = (square, state.cups[1]) if seat == 0 else (state.cups[0], square)
    placed = State(state.config, state.field, cups, state.cup_beans, state.stores, state.bank,
                   seat, Phase.PLACE, state.bonus_sowing, None)
    if not state.bonus_sowing and placed.cup_beans[seat] > 4:
        if placed.config.bonus is BonusRule.OPTIONAL:
            return rules._with_phase(placed, Phase.BONUS)
        return rules._start_bonus(placed)
    return rules._end_turn(placed)


def _kala_two_beans_to_the_bank(beans: int) -> tuple[int, int]:
    return 2, beans - 2


def _da_capo_bids_above_reserve(state: Any, seat: int | None = None) -> tuple[Any, ...]:
    from copa_ref.da_capo import Bid, rules

    if seat is None or rules.is_over(state) or not state.reserves[seat]:
        return ()
    return tuple(Bid(seat, b) for b in range(1, 6))


def _da_capo_last_step_all_to_box(table: Any, seat: int) -> Any:
    from copa_ref.da_capo import rules

    reserves, lines, target, box = rules.last_player_step(table, seat)
    return reserves, lines, target, box + 1


def _copas_ouros_taken(tricks: Any, players: int) -> tuple[int, ...]:
    count = [0] * players
    for t in tricks:
        for c in t.cards:
            if c.suit is Suit.OUROS:
                count[t.winner] += 1
    return tuple(count)


def _copas_void_discards_copas(hand: Any, trick: Any) -> Any:
    from copa_ref.copas import rules
    from copa_ref.copas.state import Suit

    found = rules.legal_cards(hand, trick)
    if trick and not any(c.suit is trick[0].suit for c in hand):
        copas = tuple(c for c in hand if c.suit is Suit.COPAS)
        return copas or found
    return found


def _copas_first_dealer_ignored(config: Any = None) -> Any:
    from copa_ref.copas import rules

    state = rules.new_game(config)
    first = rules.new_game(attrs.evolve(state.config, first_dealer=0))
    return attrs.evolve(first, config=state.config)


def _kala_stores_of_27(config: Any = None) -> Any:
    from copa_ref.kala import rules

    state = rules.new_game(config)
    return attrs.evolve(state, stores=(27, 27), bank=2)


def _da_capo_lines_of_three(players: int) -> int:
    return 3


MISREAD: dict[str, tuple[str, Misreading]] = {m.slug: (game, m) for game, m in (
    ("copas", Misreading(rule="COPAS-2", slug="copas-q-above-j",
                         description="the Q ranks above the J",
                         replacements={"strength": _copas_q_above_j})),
    ("copas", Misreading(rule="COPAS-21", slug="copas-every-burst-seat-loses",
                         description="every seat at or over 51 loses",
                         replacements={"outcome": _copas_every_burst_seat_loses})),
    ("copas", Misreading(rule="COPAS-20", slug="copas-burst-at-30",
                         description="the match ends at 30 minus points",
                         replacements={"BURST": 30})),
    ("copas", Misreading(rule="COPAS-19", slug="copas-no-all-tricks-rule",
                         description="no all-the-cards rule",
                         replacements={"_all_cards_taker": _copas_no_all_cards_taker})),
    ("copas", Misreading(rule="COPAS-14", slug="copas-hand-ends-when-copas-out",
                         description="a hand ends as soon as all ten copas are out",
                         replacements={"_play": _copas_hand_ends_when_copas_out})),
    ("copas", Misreading(rule="COPAS-13", slug="copas-discard-can-win",
                         description="the highest card takes the trick, whatever its suit",
                         replacements={"trick_winner": _copas_discard_can_win})),
    ("copas", Misreading(rule="COPAS-3", slug="copas-ouros-are-the-penalty",
                         description="the ouros are the penalty cards",
                         replacements={"copas_taken": _copas_ouros_taken})),
    ("copas", Misreading(rule="COPAS-12", slug="copas-void-discards-copas",
                         description="a seat without the led suit must discard a copa",
                         replacements={"legal_cards": _copas_void_discards_copas})),
    ("copas", Misreading(rule="COPAS-5", slug="copas-first-dealer-ignored",
                         description="seat 0 always deals first",
                         replacements={"new_game": _copas_first_dealer_ignored})),
    ("kala", Misreading(rule="KALA-1", slug="kala-stores-of-27",
                        description="27 beans per store and 2 in the bank",
                        replacements={"new_game": _kala_stores_of_27})),
    ("da_capo", Misreading(rule="DACAPO-2", slug="da-capo-lines-of-three",
                           description="every line has three cups",
                           replacements={"line_length": _da_capo_lines_of_three})),
    ("kala", Misreading(rule="KALA-12", slug="kala-bonus-above-four",
                        description="a bonus at more than 4 beans, not at 4 or more",
                        replacements={"_place": _kala_place_bonus_above_four})),
    ("kala", Misreading(rule="KALA-15", slug="kala-two-beans-to-the-bank",
                        description="a harvest gives two beans to the bank",
                        replacements={"harvest_split": _kala_two_beans_to_the_bank})),
    ("da_capo", Misreading(rule="DACAPO-7", slug="da-capo-bids-above-reserve",
                           description="bids up to 5 are listed whatever the reserve",
                           replacements={"legal_actions": _da_capo_bids_above_reserve})),
    ("da_capo", Misreading(rule="DACAPO-14", slug="da-capo-last-step-one-too-many",
                           description="the last-player step puts one bean too many into "
                                       "the box", replacements={
                               "last_player_step": _da_capo_last_step_all_to_box})),
)}
"""Misread engines by name: (game, misreading)."""


def _misread_engine(name: str) -> type[Engine]:
    game, misreading = MISREAD[name]
    return type(f"Misread_{name}", (Misread,), {"label": name, "misreading": misreading,
                                                 "game_name": game})


WRONG: dict[str, type[Engine]] = {cls.label: cls for cls in (
    KalaTurnPerTurn, KalaNoBeanIntoOpponentCup, KalaSixthBeanKept, DaCapoTieAwardsTop,
    CopasQueenJackSwapped, CopasRevokeAllowed)}
WRONG.update({name: _misread_engine(name) for name in MISREAD})
"""Every wrong engine by name."""


class PlaysAs(Wrong):
    """The reference playing one option at a fixed value whatever the config says (and
    showing the config it was given): an engine that hard-codes one reading."""

    option = ""
    value: JSON = None
    game_name = ""
    given: JSON = None

    def new_game(self, game: str, config: JSON) -> None:
        self.given = config
        if game == self.game_name and isinstance(config, dict):
            config = {**config, self.option: self.value}
        super().new_game(game, config)

    def observe(self) -> Message:
        seen = super().observe()
        public = seen.get("public")
        if isinstance(public, dict) and "config" in public:
            seen["public"] = {**public, "config": self.given}
        return seen


class KalaHarvestAlwaysMandatory(PlaysAs):
    """KALA-15 read as KALA-Q7's other reading: every harvest is taken, without a choice."""

    label = "kala-harvest-always-mandatory"
    game_name, option, value = "kala", "harvest", "mandatory"


WRONG[KalaHarvestAlwaysMandatory.label] = KalaHarvestAlwaysMandatory


class KalaPhaseNamed(Wrong):
    """P-11 misread: the bonus sowing's phase reported under another name."""

    label = "kala-phase-named-bonus"
    name_used = "bonus"

    def observe(self) -> Message:
        seen = super().observe()
        public = seen.get("public")
        if isinstance(public, dict) and public.get("phase") == "bonus_sow":
            seen["public"] = {**public, "phase": self.name_used}
        return seen


class KalaPhaseNamedBonusSowing(KalaPhaseNamed):
    """P-11 misread: the bonus sowing's phase under a name KALA does not have."""

    label = "kala-phase-named-bonus-sowing"
    name_used = "bonus_sowing"


for _cls in (KalaPhaseNamed, KalaPhaseNamedBonusSowing):
    WRONG[_cls.label] = _cls


class KalaMandatoryOnly(ReferenceEngine):
    """Declares that it plays only harvest=mandatory (not the default) in KALA."""

    def hello(self) -> Message:
        return {**super().hello(), "name": "kala-mandatory-only",
                "games": {"kala": {"options": ["*"], "readings": {"harvest": ["mandatory"]}}}}


class Misbehaving(ReferenceEngine):
    """The reference answering one request misshapen (in-process, for the runner's
    robustness tests): *how* names the misbehaviour."""

    how = ""

    def hello(self) -> Message:
        found = super().hello()
        if self.how == "options-not-a-list":
            return {**found, "games": {name: {"options": 5} for name in found["games"]}}
        if self.how == "no-rule-ids":
            return {**found, "features": ["undo"]}
        return found

    def legal(self, seat: int | None) -> list[JSON]:
        found = super().legal(seat)
        if self.how == "bad-seat-legal" and seat is not None and found:
            return [{"type": "bid", "seat": seat, "beans": "five"}, *found[1:]]
        if self.how == "many-legal" and found:
            return [{**found[0], "n": i} for i in range(5000)]
        return found

    def observe(self) -> Message:
        seen = super().observe()
        if self.how == "huge-integer" and isinstance(seen.get("public"), dict):
            seen["public"] = {**seen["public"], "bank": 10 ** 40}
        if self.how == "wrong-outcome-rule" and seen.get("outcome"):
            seen["outcome"] = {**seen["outcome"], "rule": "SOMETHING-1"}
        if self.how == "plays-on" and seen.get("outcome"):
            seen["outcome"] = None
            seen["to_move"] = {"kind": "joint", "seats": [0, 1]}
        return seen


def misbehaving(how: str) -> type[Engine]:
    """A :class:`Misbehaving` engine class for *how*."""
    return type(f"Misbehaving_{how}", (Misbehaving,), {"how": how})


# -- broken engines (command line only) ----------------------------------------------------------


class Broken(ReferenceEngine):
    """The reference, misbehaving in one way as soon as a DA CAPO game is asked for."""

    def __init__(self, how: str) -> None:
        super().__init__()
        self.how = how

    def handle(self, request: Message) -> Message:
        broken = self.game is not None and self.game.name == "da_capo"
        if broken and self.how == "crash" and request.get("op") == "apply":
            sys.exit(3)
        if broken and self.how == "hang" and request.get("op") == "apply":
            time.sleep(3600)
        if broken and self.how == "garbage" and request.get("op") == "observe":
            sys.stdout.write("here is the position, more or less\n")
            sys.stdout.flush()
            return super().handle(request)
        answer = super().handle(request)
        if broken and self.how == "shape" and request.get("op") == "observe":
            return {"ok": True, "to_move": "seat 0", "public": [], "outcome": None}
        return answer


def main(argv: list[str]) -> int:
    name = argv[0]
    if name in WRONG:
        return serve(WRONG[name]())
    if name.startswith("broken-"):
        engine = Broken(name.removeprefix("broken-"))
        if engine.how == "garbage":
            # The garbage line is written before the real answer: serve answers next.
            return serve(engine)
        return serve(engine)
    if name.startswith("misbehaving-"):
        return serve(misbehaving(name.removeprefix("misbehaving-"))())
    if name == "silent":  # starts, then never answers anything
        time.sleep(3600)
        return 0
    if name == "not-json":
        for _ in sys.stdin:
            sys.stdout.write("hello!\n")
            sys.stdout.flush()
        return 0
    sys.stderr.write(f"unknown engine {name}\n")
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
