"""``copa_ref.core.entry.slot_builder``: the rules' fast ``State(...)`` gives the object
the class gives, and refuses a class whose ``__init__`` does more than set its fields."""

from __future__ import annotations

import random
from typing import Any

import attrs
import pytest

from copa_ref.core import steps, uniform
from copa_ref.core.entry import CHECKED, Checked, slot_builder
from copa_ref.games import GAMES, get_game


def _fields(state: Any) -> dict[str, Any]:
    return {field.name: getattr(state, field.name) for field in attrs.fields(type(state))}


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_rules_builder_makes_what_the_class_makes(name: str) -> None:
    """Every game's rules build their states with one builder (all games, or none)."""
    game = get_game(name)
    rules = __import__(f"copa_ref.{name}.rules", fromlist=["_state"])
    seen = 0
    rng = random.Random(3)
    while seen < 60:
        for step in steps(game, uniform, rng, max_steps=60 - seen):
            fields = _fields(step.after)
            built, made = rules._state(**fields), type(step.after)(**fields)
            assert type(built) is type(made) and built == made and hash(built) == hash(made)
            assert repr(built) == repr(made)
            assert all(getattr(built, key) is value for key, value in fields.items())
            assert getattr(built, CHECKED, None) is None
            seen += 1
    assert seen == 60
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        built.turn = 0


@attrs.frozen
class Base(Checked):
    a: int
    b: tuple[int, ...]


@attrs.frozen
class Sub(Base):
    c: str = "x"


def test_fields_of_a_base_and_defaults_are_set_as_the_class_sets_them() -> None:
    build = slot_builder(Sub)
    made = build(a=1, b=(2,), c="y")
    assert made == Sub(1, (2,), "y") and build.__name__ == "build_Sub"
    assert build(1, (2,), "y") == Sub(1, (2,), "y")
    assert build(a=1, b=(2,)) == Sub(1, (2,))  # the default, as the class fills it in
    with pytest.raises(TypeError):
        build(a=1, b=(2,), c="y", d=0)
    with pytest.raises(TypeError):
        build(b=(2,))
    keyed = slot_builder(Keyed)
    assert keyed(a=1) == Keyed(a=1)
    with pytest.raises(TypeError):
        keyed(1)  # a keyword-only field, as in the class


@attrs.frozen(kw_only=True)
class Keyed(Checked):
    a: int
    b: int = 2


def test_the_generated_source_is_registered_for_tracebacks() -> None:
    """As attrs registers its generated ``__init__``: ``linecache`` holds the builder's text
    under its code's file name, so a traceback shows its lines and ``inspect`` its source."""
    import inspect
    import linecache

    build = slot_builder(Sub)
    filename = build.__code__.co_filename
    assert "slot_builder" in filename and "Sub" in filename
    assert linecache.getline(filename, 1).startswith("def build(a, b, c=")
    assert inspect.getsource(build).startswith("def build(")
    assert linecache.getline(filename, 3) == "    _set0(new, a)\n"


@attrs.frozen
class Validated:
    a: int = attrs.field(validator=attrs.validators.instance_of(int))


@attrs.frozen
class Converted:
    a: int = attrs.field(converter=int)


@attrs.frozen
class Hidden:
    a: int
    b: int = attrs.field(init=False, default=0)


@attrs.frozen
class Hooked:
    a: int

    def __attrs_post_init__(self) -> None:
        if self.a < 0:  # pragma: no cover - never built here
            raise ValueError(self.a)


@attrs.frozen(slots=False)
class Unslotted:
    a: int


class Plain:
    __slots__ = ("a",)


@pytest.mark.parametrize("cls", [Validated, Converted, Hidden, Hooked, Unslotted, Plain])
def test_a_class_whose_init_does_more_is_refused(cls: type[Any]) -> None:
    with pytest.raises(TypeError, match=cls.__qualname__):
        slot_builder(cls)
