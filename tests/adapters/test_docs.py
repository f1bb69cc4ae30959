"""The adapters' pages: their examples run, and their integer-to-action lines are the
action spaces'."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copa_ref.adapters import action_space
from copa_ref.games import GAMES

PAGES = Path(__file__).parents[2] / "docs" / "adapters"
EXTRA = {"openspiel.md": "pyspiel", "pettingzoo.md": "pettingzoo"}


@pytest.mark.parametrize("page", sorted(EXTRA))
def test_the_example_runs(page: str, capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip(EXTRA[page], reason=f"the {EXTRA[page]} extra is not installed")
    text = (PAGES / page).read_text()
    code = re.search(r"```python\n(.*?)```", text, re.DOTALL)
    assert code is not None
    exec(compile(code.group(1), page, "exec"), {})
    assert capsys.readouterr().out


@pytest.mark.parametrize("page", sorted(EXTRA))
def test_the_action_mapping_is_the_action_space(page: str) -> None:
    text = (PAGES / page).read_text()
    lines = re.findall(r"- \*\*.*?\*\* \(`(\w+)`\): (\d+) actions; 0 is `(.*?)`, (\d+) is `(.*?)`",
                       text)
    assert {line[0] for line in lines} == set(GAMES)
    for name, count, first, last_index, last in lines:
        game = GAMES[name]
        actions = action_space(game, game.default_config())
        assert int(count) == len(actions) == int(last_index) + 1
        assert game.dumps(actions[0]) == first and game.dumps(actions[-1]) == last
