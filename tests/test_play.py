"""``copa-ref play``: a person plays seats of every game from a scripted stdin; the board as
the demo draws it, the moves numbered, a typed illegal move explained with its rule, undo,
quit, and what a seat may not see kept hidden."""

from __future__ import annotations

import io
import subprocess
import sys

import pytest

from copa_ref.games import GAMES, get_game
from copa_ref.play import VIEWS, play_game


def play(name: str, answers: list[str], seats: tuple[int, ...] = (0,), seed: int = 1
         ) -> tuple[int, str]:
    out = io.StringIO()
    status = play_game(get_game(name), seats, seed=seed, lines=iter(answers), out=out)
    return status, out.getvalue()


def first_move_always(count: int = 5000) -> list[str]:
    return ["1"] * count


def test_every_game_has_a_view() -> None:
    assert set(VIEWS) == set(GAMES)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_a_whole_game_from_stdin(name: str) -> None:
    """Answering "1" at every decision plays the game to its end, with a result line naming
    the rule that ended it; the moves are numbered and the board drawn at each decision."""
    status, text = play(name, first_move_always())
    assert status == 0, text[-2000:]
    last = text.rstrip().splitlines()[-1]
    assert last.startswith("result: ") and f"({get_game(name).prefix}-" in last, last
    assert "   1. " in text and "your move (1-" in text


@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_same_seed_and_answers_play_the_same_game(name: str) -> None:
    assert play(name, first_move_always(), seed=3) == play(name, first_move_always(), seed=3)


def test_a_typed_illegal_move_is_explained_with_its_rule() -> None:
    _, text = play("kala", ["sow [[0,0],[1,0],[2,1],[3,1]]", "sow [[0,0],[0,1]]", "q"])
    assert "illegal: KALA-5:" in text       # not adjacent
    assert "illegal: KALA-4:" in text       # 2 squares, 4 beans
    _, text = play("kala", ["dance 3", "q"])
    assert "not a move: no move 'dance' (the moves: bonus, harvest, place, sow)" in text


def test_a_card_game_refuses_a_card_not_held() -> None:
    _, text = play("copas", ["play Kc", "q"], seats=(1,))
    assert "illegal: COPAS-" in text


def test_undo_takes_back_the_last_own_move() -> None:
    _, once = play("kala", ["2", "q"])
    _, undone = play("kala", ["1", "u", "2", "q"])
    assert "undone: your last move is taken back" in undone
    boards = [part for part in once.split("A to move:") if "stores" in part]
    # after undo, the board at the second decision is the one of the game that chose 2
    assert boards[-1].split("\n\n")[-1] in undone
    _, nothing = play("kala", ["u", "q"])
    assert "nothing to undo yet" in nothing


def test_numbers_out_of_range_and_quit() -> None:
    status, text = play("hopper", ["0", "999", "q"])
    assert status == 1 and text.count("no move ") == 2 and text.rstrip().endswith("quit")


def test_answers_running_out_end_the_game_as_quit() -> None:
    assert play("kala", [])[0] == 1


def test_another_seat_s_hand_and_a_covered_cup_stay_hidden() -> None:
    _, text = play("copas", ["q"], seats=(2,))
    assert "your hand: " in text and "seat 0: " not in text
    _, text = play("ronda", ["q"])
    board = text.split("seat 0 to move:")[0]
    assert "?(" not in board and ":?" in board


def test_the_command_line() -> None:
    """``copa-ref play`` reads stdin; two seats, players and options are accepted."""
    done = subprocess.run([sys.executable, "-m", "copa_ref", "play", "da_capo", "--players",
                           "3", "--seat", "0", "--seat", "2", "--seed", "4"],
                          input="1\n" * 400, capture_output=True, text=True, timeout=120,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert "A to move:" in done.stdout and "C to move:" in done.stdout
    assert done.stdout.rstrip().splitlines()[-1].startswith("result: ")
