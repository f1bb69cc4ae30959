"""How a value enters the rules: checked once at the edge, never again inside.

**The entry policy, the same for all six games.** A state entering any public function of a
game (``apply``, ``legal_actions``, ``to_move``, ``observe``, ``outcome``, ``joint``,
``sample_chance``, ``chance_outcomes``, ``svg``) is checked by the game's whole
``check_state`` (:meth:`StateChecks.enter`: the exact class, the shape of every field, then
every rule in spec order), or carries a mark that only that game's own reference checks
could have written. So every well-typed state is either refused with a rule ID
(:class:`~copa_ref.core.errors.InvalidStateError`) or a
:class:`~copa_ref.core.errors.MalformedInputError`, or handled by every public function
without any other exception. The public functions then hand it to the rules' inner
functions (``_apply``, ``_legal_actions``, ``_to_move``), which assume it checked.

* **The mark.** A state that passes is marked in a slot of the frozen value (the plain slot
  of :class:`Checked`: not a field, invisible to ``==``, ``hash``,
  ``repr``, the codec, ``attrs.evolve``, ``copy`` and ``pickle``), so the next entry costs
  one attribute read. The mark is the key of the checker that wrote it
  (:attr:`StateChecks.key`, one object per :class:`StateChecks` made by a rules module as it
  is imported), not a flag: a misread copy of a rules module
  (:mod:`copa_ref.core.misreading`) runs its own module code and so has its own key, and
  a state its rules built is checked in full when it enters the reference, as an equal
  fresh object is. A memo never changes what a value is.
* **States the rules built** (``new_game``, the public ``apply``) are marked as they leave
  them (:meth:`StateChecks.built`): they are valid by construction (the step invariants and
  the property tests hold the rules to that). The generic loop (:mod:`copa_ref.core.loop`)
  and the adapters pass the mark of a state on to the state the inner ``apply`` built from
  it (:func:`carry_mark`). ``attrs.evolve(state, cups=None)`` is a new, unmarked object: it
  is checked at its first entry and refused with ``MalformedInputError``.
* **An action is checked at the public** ``apply`` (its exact types, then its rule). The
  generic loop calls the game's inner functions (:attr:`~copa_ref.core.game.Game.trusted`)
  with the states it got from them and the actions ``legal_actions`` returned for the same
  state (the same objects, compared by identity; anything else a policy returns goes
  through the public ``apply``), so a loop step pays no exact-type check at all. The rules
  obey the same rule: they call their inner functions with values they produced.

The state checks themselves are written once here (:class:`StateChecks`): a game gives the
shape check of its fields and a flat list of rule checks in the order of its spec, one per
rule (:func:`rule`), as ``chess.Board.status()`` lists its flags; a rules module keeps its
checker as ``_CHECKS`` (the name :mod:`copa_ref.core.misreading` looks for). This module
gives the one exception policy for all of them:

* a value that is not of the state class, or a field not of its exact type or out of the
  bounds the codec reads (a 5,000-digit integer, ``None`` for a tuple, a raising
  ``__eq__``): :class:`~copa_ref.core.errors.MalformedInputError`;
* a well-shaped state that breaks a rule: :class:`~copa_ref.core.errors.InvalidStateError`
  naming the first rule, in spec order, that it breaks;
* never any other exception: a check that raises on a value it did not foresee is turned
  into a ``MalformedInputError`` naming the check (:meth:`StateChecks.check`), so
  ``well_formed`` is total and ``is_legal`` never raises.
"""

from __future__ import annotations

import linecache
import random
from collections.abc import Callable
from typing import Any, Generic, TypeVar

import attrs

from copa_ref.core.codec import excerpt
from copa_ref.core.errors import InvalidStateError, MalformedInputError, RuleViolation

__all__ = [
    "CHECKED",
    "Checked",
    "RuleCheck",
    "StateChecks",
    "carry_mark",
    "check_rng",
    "mark_checked",
    "remember",
    "rule",
    "slot_builder",
    "write_mark",
]

S = TypeVar("S")

CHECKED = "_checked"
"""The memo slot that marks a state checked (every game's state class declares it)."""


class Checked:
    """A base of a frozen attrs state class whose checked mark (:data:`CHECKED`) is a plain
    slot: ``class State(Checked)``.

    The mark is invisible (no attrs field; never compared, encoded or copied: ``copy`` and
    ``pickle`` leave it unset). An unset slot raises ``AttributeError``: read it as
    ``getattr(state, CHECKED, None)``, as :meth:`StateChecks.enter` does. A plain slot, not a
    cached property: for a cached property in a slotted class attrs adds a class
    ``__getattr__``, and with one CPython reads every attribute of every instance by its
    slow path; a state's fields are read at every step of every rule.
    """

    __slots__ = (CHECKED,)


write_mark: Callable[[Any, object], None] = Checked.__dict__[CHECKED].__set__
"""``write_mark(state, key)``: mark a state of a :class:`Checked` class checked by the
checker whose :attr:`StateChecks.key` is *key*, by its slot's own writer (in C). It raises
``TypeError`` for any other class: a hot loop calls it in ``try`` and falls back to
:func:`mark_checked`; anything else calls :func:`mark_checked` or :func:`carry_mark`."""


def mark_checked(state: object, key: object) -> None:
    """Mark *state* checked by the checker whose :attr:`StateChecks.key` is *key*, whatever
    its class (the :class:`Checked` slot by :data:`write_mark`, or a memo slot named
    :data:`CHECKED`)."""
    try:
        write_mark(state, key)
    except TypeError:  # a state class without the plain slot
        object.__setattr__(state, CHECKED, key)


def carry_mark(before: object, after: object) -> None:
    """Mark *after*, a state the inner ``apply`` built from *before*, as *before* is marked:
    checked by the same checker, or not at all (the mark written by :data:`write_mark` at
    once, as a hot loop writes it: every adapter step carries one)."""
    key = getattr(before, CHECKED, None)
    try:
        write_mark(after, key)
    except TypeError:  # a state class without the plain slot
        mark_checked(after, key)


def slot_builder(cls: type[S]) -> Callable[..., S]:
    """``cls(...)`` without the class's ``__init__``, for the rules, which build a state at
    every step (every game's rules module builds its states with one): a function that takes
    every field of the frozen, slotted attrs class *cls* as its ``__init__`` does (by position
    or, for a keyword-only field, by keyword; a default filled in as the class fills it) and
    returns the object the class's own ``__init__`` makes (equal, the same hash and text,
    every field the very value given, no checked mark), its slots written by their own
    descriptors, in C. A frozen class's ``__init__`` writes each field through a bound
    ``object.__setattr__`` and its name; what it may do besides (a default factory, a
    validator, a converter, a hook) a class here must not have, so there is nothing to
    skip: states are checked where they enter (:class:`StateChecks`), not where the rules
    build them.

    :raises TypeError: for a class that is not a slotted attrs class, or has a field with a
        validator, a converter, a default factory or ``init=False``, or an
        ``__attrs_pre_init__`` or ``__attrs_post_init__``.
    """
    if not attrs.has(cls) or "__slots__" not in cls.__dict__:
        msg = f"{cls.__qualname__} is not a slotted attrs class"
        raise TypeError(msg)
    fields = attrs.fields(cls)
    odd = [f.name for f in fields if f.validator is not None or f.converter is not None
           or not f.init or isinstance(f.default, attrs.Factory)]  # type: ignore[arg-type]
    hooks = [h for h in ("__attrs_pre_init__", "__attrs_post_init__") if hasattr(cls, h)]
    if odd or hooks:
        msg = f"{cls.__qualname__}'s __init__ does more than set its fields: {odd + hooks}"
        raise TypeError(msg)
    space: dict[str, Any] = {"_new": object.__new__, "_cls": cls}

    def parameter(i: int, field: attrs.Attribute[Any]) -> str:
        if field.default is attrs.NOTHING:
            return field.name
        space[f"_default{i}"] = field.default  # a value: a factory is refused above
        return f"{field.name}=_default{i}"

    names = [parameter(i, f) for i, f in enumerate(fields) if not f.kw_only]
    keywords = [parameter(i, f) for i, f in enumerate(fields) if f.kw_only]
    signature = ", ".join(names + (["*", *keywords] if keywords else []))
    lines = [f"def build({signature}):", "    new = _new(_cls)"]
    for i, field in enumerate(fields):
        # the field's slot: in the class, or in the base that declared the field
        slot = next(k.__dict__[field.name] for k in cls.__mro__ if field.name in k.__dict__)
        space[f"_set{i}"] = slot.__set__
        lines.append(f"    _set{i}(new, {field.name})")
    lines.append("    return new")
    # As attrs makes __init__: the fields' names in the text, and the text registered in
    # linecache under a file name of its own, so tracebacks and debuggers show its lines.
    source = "\n".join(lines) + "\n"
    filename = f"<copa_ref slot_builder {cls.__module__}.{cls.__qualname__}>"
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), space)
    build: Callable[..., S] = space["build"]
    build.__qualname__ = build.__name__ = f"build_{cls.__name__}"
    build.__doc__ = f"``{cls.__qualname__}(...)``, its slots written directly."
    return build


def remember(value: S, name: str, fact: object) -> S:
    """Store *fact* in the memo slot *name* of the frozen *value*; return *value*.

    Only the rules call this, with a fact that is a pure function of *value* (who moves,
    that it passed its checks), so the value stays immutable in every observable way."""
    object.__setattr__(value, name, fact)
    return value


@attrs.frozen
class RuleCheck:
    """One check of a state, under the rule whose sentence it enforces."""

    rule: str
    """The rule ID (``"KALA-18"``)."""
    test: Callable[[Any], str | None]
    """The problem with a well-shaped state, in words, or ``None`` when the rule holds."""


def rule(rule_id: str) -> Callable[[Callable[[Any], str | None]], RuleCheck]:
    """Decorate a state check with its rule: ``@rule("KALA-18")`` over a function returning
    ``None`` or what is wrong."""
    def wrap(test: Callable[[Any], str | None]) -> RuleCheck:
        return RuleCheck(rule_id, test)
    return wrap


@attrs.frozen
class StateChecks(Generic[S]):
    """A game's state checks: its class, the shape of its fields, its rules in spec order.

    :meth:`check` is the game's ``check_state``, :meth:`well_formed` its ``well_formed``
    and :meth:`enter` the first line of each of its public entry points.
    """

    cls: type[S]
    """The state class (an exact match: a subclass could override anything)."""
    what: str
    """What the class is in a message (``"a KALA state"``)."""
    shape: Callable[[Any], None]
    """Raises ``MalformedInputError`` naming the first field not of its exact type and
    bounds (see :mod:`copa_ref.core.fields`); after it the rules may index and add freely.
    It may raise ``InvalidStateError`` for a config that breaks its rule (a player count)."""
    rules: tuple[RuleCheck, ...]
    """The rule checks, in the order of the spec. A check may also raise
    ``InvalidStateError`` itself, where one replay names several rules (DA CAPO)."""
    key: object = attrs.field(factory=object, eq=False, repr=False)
    """The mark this checker writes on a state it checked or its rules built: a fresh object
    for every checker a module makes (a misread copy of a rules module makes its own), kept
    by ``attrs.evolve`` (a checker with its rules or shape test replaced marks as before)."""

    def check(self, state: object) -> None:
        """Raise the precise error for *state*, or return: the game's ``check_state``.

        :raises MalformedInputError: not of the class, or a field not shaped right.
        :raises InvalidStateError: the first rule, in spec order, the state breaks.
        """
        if type(state) is not self.cls:
            msg = f"expected {self.what}, got {excerpt(state)}"
            raise MalformedInputError(msg)
        try:
            self.shape(state)
        except (MalformedInputError, RuleViolation):  # a config's rule (DACAPO-1) is named
            raise
        except Exception as exc:  # a field no check foresaw: not a state, never a crash
            msg = f"{self.what} with a field not shaped right ({type(exc).__name__})"
            raise MalformedInputError(msg) from exc
        for check in self.rules:
            try:
                problem = check.test(state)
            except RuleViolation:
                raise
            except Exception as exc:
                msg = (f"{self.what} that the check of {check.rule} cannot read "
                       f"({type(exc).__name__})")
                raise MalformedInputError(msg) from exc
            if problem is not None:
                raise InvalidStateError(check.rule, problem)

    def well_formed(self, state: object) -> bool:
        """Whether *state* passes :meth:`check`: pure and total, it never raises."""
        try:
            self.check(state)
        except (MalformedInputError, RuleViolation):
            return False
        return True

    def problem(self, state: object) -> RuleViolation | MalformedInputError | None:
        """The error :meth:`check` would raise, or ``None``."""
        try:
            self.check(state)
        except (MalformedInputError, RuleViolation) as exc:
            return exc
        return None

    def enter(self, state: object) -> None:
        """The entry check of a public function: *state* is of the class and, unless this
        checker checked it (or its rules built it) before, passes :meth:`check`, once per
        object.

        :raises MalformedInputError: or ``InvalidStateError``, as :meth:`check`.
        """
        if type(state) is not self.cls:
            msg = f"expected {self.what}, got {excerpt(state)}"
            raise MalformedInputError(msg)
        if getattr(state, CHECKED, None) is not self.key:
            self.check(state)
            mark_checked(state, self.key)

    def built(self, state: S) -> S:
        """Mark a state the rules built as checked by this checker; return it."""
        mark_checked(state, self.key)
        return state


def check_rng(rng: object, what: str = "rng") -> None:
    """*rng* is a :class:`random.Random` (the generator ``sample_chance`` draws from).

    :raises MalformedInputError: otherwise (not a bare ``AttributeError`` later).
    """
    if not isinstance(rng, random.Random):
        msg = f"{what} must be a random.Random, got {excerpt(rng)}"
        raise MalformedInputError(msg)
