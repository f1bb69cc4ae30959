"""The README tells the truth: its Python examples run as shown, and it names the games the
registry has."""

from __future__ import annotations

import contextlib
import io
import re
from pathlib import Path

import pytest

README = (Path(__file__).resolve().parent.parent / "README.md").read_text()
BLOCKS = re.findall(r"```python\n(.*?)```", README, flags=re.DOTALL)


@pytest.mark.parametrize("number", range(len(BLOCKS)))
def test_python_examples_run(number: int) -> None:
    """Each ``python`` block of the README runs without error."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(BLOCKS[number], f"README block {number + 1}", "exec"), {})
    assert out.getvalue()


def test_the_error_example() -> None:
    """``.rule`` is the rule ID and ``str(err)`` the message, as the README says."""
    from copa_ref.core import IllegalActionError
    from copa_ref.kala import Sow, apply, new_game

    with pytest.raises(IllegalActionError) as caught:
        apply(new_game(), Sow(0, ((0, 0), (0, 1), (1, 1), (1, 2))))
    assert f'`"{caught.value.rule}"`' in README
    assert f'`"{caught.value}"`' in README


def test_six_games() -> None:
    """The README speaks of six games, never of seven."""
    assert "six games" in README
    assert "seven" not in README.lower()


def test_the_readme_explains_what_a_newcomer_meets() -> None:
    """The README says how to build the wheel it installs, what the browser test needs,
    and why the ``play`` example prints ``kopa None``."""
    assert "python -m build" in README and "dist/copa_ref-0.1.0-py3-none-any.whl" in README
    assert "chromium chromium-driver" in README
    assert "`kopa None`" in README and "KOPA-Q14" in README


def test_what_changed_in_2_0_0_names_bonus_all_cards() -> None:
    """The corpus README's list of 2.0.0 changes names the new Copas field."""
    corpus_readme = (Path(__file__).resolve().parent.parent / "conformance" / "README.md")
    text = corpus_readme.read_text()
    section = text.split("## What changed in 2.0.0")[1].split("\n## ")[0]
    assert "`bonus_all_cards`" in section
