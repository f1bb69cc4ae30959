"""The adapters' pages: their examples run, their action-id lines are the games' ids, and
each game's tensor layout table is the encoder's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copa_ref.adapters import action_space
from copa_ref.adapters.tensors import ActionIds, encoder
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


def test_the_action_ids_are_the_games() -> None:
    text = (PAGES / "openspiel.md").read_text()
    lines = re.findall(r"- \*\*.*?\*\* \(`(\w+)`\): (\d+) ids; 0 is `(.*?)`, (\d+) is `(.*?)`",
                       text)
    assert {line[0] for line in lines} == set(GAMES)
    for name, count, first, last_index, last in lines:
        game = GAMES[name]
        config = game.default_config()
        ids = ActionIds(action_space(game, config), game.num_players(config),
                        encoder(game, config))
        assert int(count) == len(ids) == int(last_index) + 1
        assert (ids.names[0], ids.names[-1]) == (first, last)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_layout_tables_are_the_encoders(name: str) -> None:
    text = (PAGES / "openspiel.md").read_text()
    game = GAMES[name]
    coder = encoder(game, game.default_config())
    assert coder.observation.table() in text
    if coder.information is not None and coder.information is not coder.observation:
        assert coder.information.table(len(coder.observation.segments)) in text


@pytest.mark.parametrize(("page", "table"), [("pettingzoo.md", "pettingzoo"),
                                             ("openspiel.md", "openspiel")])
def test_each_page_has_one_current_cost_table(page: str, table: str) -> None:
    """One cost table per adapter page, in the shape ``bench/adapters.py --table`` prints
    it, one row per game (the figures are that command's output; history is in the
    CHANGELOG)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("bench_adapters",
                                                  PAGES.parents[1] / "bench" / "adapters.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    text = (PAGES / page).read_text()
    header = ("| game | plain loop, decisions per CPU second (median) | "
              + " | ".join(f"{head}, min / median / max" for _, head in bench.TABLES[table])
              + " |")
    assert text.count("decisions per CPU second (median) |") == 1
    assert header in text
    rows = text[text.index(header):].split("\n\n")[0].splitlines()[2:]
    assert sorted(row.split(" | ")[0].strip("| ") for row in rows) == sorted(
        game.title for game in GAMES.values())
    assert "--table " + table in text
