"""The demos a newcomer can follow without the spec: a legend under the first picture, a
line in plain words for each rule that fires, the result with its reason; seeded, so the
same command always prints the same text (one demo's text is pinned). The games played as a
match of rounds show one round unless asked for more."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from copa_ref.cli import demo_lines, main
from copa_ref.games import GAMES, get_game

DATA = Path(__file__).resolve().parent / "data"

MOVES = {
    "copas": r"^\s+trick \d+: ",
    "da_capo": r"^\s+why: ",
    "hopper": r"^\s+shot \d+: ",
    "kala": r"^\s+sow: ",
    "kopa": r"^\s+seat \d+ (plays|passes|cannot play|keeps)\b",
    "ronda": r"^\s+(lifts place|adds a bean|keeps place|stops|covers both)",
}
"""A line that tells one move (a trick, a round's bids, a shot, a sowing, a card or a pass,
a lift or what follows it), in each game's demo."""

LEGEND_WORDS = {
    "copas": ("Legend:", "paus", "espadas", "copas", "ouros", "discard"),
    "da_capo": ("Legend:", "hand", "cups", "box", "target cup"),
    "hopper": ("Legend:", "tray", "loose", "hand", "black", "foursome"),
    "kala": ("Legend:", "store", "bank", "playing cup", "bonus"),
    "kopa": ("Legend:", "S Sable", "V Vert", "G Gules", "O Or", '"up"', '"down"', "8"),
    "ronda": ("Legend:", "?(3)", "black cup", "out of the game", "supplies"),
}
"""What each legend must explain: the words and signs its pictures use."""

RESULT = re.compile(r"^result: (?:(.+?) (wins|win|share the win)|no winner yet): (.+) "
                    r"\((?:[^()]*; )?(?P<rule>[A-Z]+-\d+)\)\.$")
"""The one form of result line every demo ends with: who wins (or, for a match cut short,
that nobody has won yet), why, and the rule."""

CUT = re.compile(r"^result: no winner yet: cut after (?P<rounds>\d+) rounds?; "
                 r"(minus points|scores) (seat \d+ -?\d+(, )?)+ \((COPAS-16|KOPA-20)\)\.$")
"""The result line of a match cut short: after how many rounds, and the standings."""

MATCHES = {"copas": "COPAS-21", "kopa": "KOPA-22"}
"""The games whose demo plays a match of rounds, and the rule that decides a whole match."""

WIDTH = 100
"""The width the demos wrap a move, a hand or a scoring at."""


def told(lines: list[str]) -> list[str]:
    """A match demo's lines joined with the lines wrapped under them (indented deeper, and
    not a hand or a row of the table)."""
    joined: list[str] = []
    for line in lines:
        indent = len(line) - len(line.lstrip())
        if joined and line.strip() and indent > len(joined[-1]) - len(joined[-1].lstrip()) \
                and not line.lstrip().startswith(("seat ", "Sable", "Vert", "Gules", "Or ")):
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    return joined

SLIPS = re.compile(r"(?<![\d.])1 (beans|cups|points|penalty points|cards|copas|shots|turns)\b"
                   r"|after (round|turn) 0\b")


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_newcomer_can_follow(name: str, seed: int) -> None:
    """Every demo, read as a newcomer reads it: a legend under the first picture that
    explains its signs, every move in words with a rule ID of the game, no singular or
    numbering slip, and the common result line with the rule that decided it."""
    game = get_game(name)
    lines = demo_lines(game, seed)
    legend = next(i for i, line in enumerate(lines) if "Legend:" in line)
    assert legend < 25, "the legend comes under the first picture"
    text = " ".join(lines[legend:legend + 10])
    for word in LEGEND_WORDS[name]:
        assert word in text, (name, word)
    moves = [line for line in (told(lines) if name in MATCHES else lines)
             if re.search(MOVES[name], line)]
    assert len(moves) >= 5
    for line in moves:
        assert re.search(rf"\b{game.prefix}-\d+\b", line), line
    slips = [line for line in lines if SLIPS.search(line)]
    assert not slips
    match = RESULT.match(lines[-1])
    assert match, lines[-1]
    assert match["rule"].startswith(game.prefix + "-")


@pytest.mark.parametrize("name", ["copas", "kopa"])
def test_hands_sorted_by_suit_and_number(name: str) -> None:
    """Each dealt hand is shown sorted: suits in a fixed order, numbers within a suit."""
    lines = demo_lines(get_game(name), 1)
    hands = [line.split(":", 1)[1].split() for line in lines
             if re.match(r"^\s+seat \d+: ", line)]
    assert hands
    if name == "kopa":
        for hand in hands:
            keys = [("SVGO".index(c[0]), int(c[1:])) for c in hand]
            assert keys == sorted(keys), hand
    else:
        order = "23456QJK7A"
        for hand in hands:
            keys = [("peco".index(c[-1]), order.index(c[:-1])) for c in hand]
            assert keys == sorted(keys), hand


def test_ronda_turns_numbered_from_one() -> None:
    """RONDA numbers its turns from 1, one heading a turn, in order."""
    lines = demo_lines(get_game("ronda"), 1)
    numbers = [int(m[1]) for line in lines if (m := re.match(r"^turn (\d+), seat", line))]
    assert numbers == list(range(1, len(numbers) + 1))


def test_kopa_later_rounds_with_their_scoring() -> None:
    """Kopa tells every later round with its scoring arithmetic, not one squashed line."""
    lines = told(demo_lines(get_game("kopa"), 1, rounds=0))
    rounds = [i for i, line in enumerate(lines) if re.match(r"^\s+round \d+: ", line)]
    assert rounds
    for i in rounds:
        assert "(KOPA-19)" in lines[i] and "goes out after" in lines[i]
        assert "a point for each card the others still hold" in lines[i + 1]
        assert "(KOPA-20)" in lines[i + 1]


def test_pinned_text(capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref demo da_capo --seed 1 --players 3`` prints exactly the pinned text
    (regenerate ``tests/data/`` with that command when the demo changes on purpose)."""
    assert main(["demo", "da_capo", "--seed", "1", "--players", "3"]) == 0
    expected = (DATA / "demo-da_capo-seed-1-players-3.txt").read_text()
    assert capsys.readouterr().out == expected


def test_da_capo_bids_once() -> None:
    """DA CAPO prints each round's bids once, and says why the winner advanced."""
    lines = demo_lines(get_game("da_capo"), 4)
    rounds = [line for line in lines if line.startswith("Round ")]
    assert rounds and all("bids" in line for line in rounds)
    assert not any("last round:" in line for line in lines)
    assert sum(line.strip().startswith("why: ") for line in lines) == len(rounds)


def test_kala_harvest_in_plain_words() -> None:
    """KALA tells a harvest with its split: one bean to the bank, the rest to the store."""
    text = "\n".join(demo_lines(get_game("kala"), 1))
    assert re.search(r"harvest: the cup on \d,\d held (\d+) → 1 to the bank, \d+ to [AB]'s "
                     r"store \(KALA-15\)", text)


def test_words_a_player_would_say() -> None:
    """No aside under Kopa's first line; RONDA's stop is a stop, not a missed go; HOPPER's
    claim shows how the other cups close up (HOPPER-9)."""
    kopa = demo_lines(get_game("kopa"), 1)
    assert kopa[1].startswith("-- round 1:"), kopa[1]
    ronda = " ".join(demo_lines(get_game("ronda"), 1))
    assert "misses a go" not in ronda and "stops: covers both cups" in ronda
    hopper = [line for line in demo_lines(get_game("hopper"), 1) if "(HOPPER-9)" in line]
    assert hopper and all("now stand side by side" in line or "at the end" in line
                          for line in hopper), hopper


def printed(lines: list[str]) -> list[str]:
    """The lines as the terminal shows them (a legend or a table is one item of several
    lines)."""
    return "\n".join(lines).splitlines()


@pytest.mark.parametrize("name", sorted(MATCHES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_match_demo_shows_one_round(name: str, seed: int) -> None:
    """By default a match game's demo plays one round, in under 80 lines, and ends with the
    result line of a match cut short: after 1 round, the standings, the scoring rule."""
    lines = demo_lines(get_game(name), seed)
    assert len(printed(lines)) < 80
    match = CUT.match(lines[-1])
    assert match, lines[-1]
    assert match["rounds"] == "1"
    assert "the demo stops after 1 round (--rounds N" in lines[-3]
    assert not any(re.match(r"^(-- round|\s+round) 2\b", line) for line in lines)


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_rounds_two_plays_two(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref demo GAME --rounds 2`` plays two rounds and says so."""
    assert main(["demo", name, "--rounds", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-1] == ""
    assert CUT.match(lines[-2]) and "cut after 2 rounds;" in lines[-2], lines[-2]
    second = [line for line in lines if re.match(r"^(-- round|\s+round) 2\b", line)]
    assert len(second) == 1
    assert not any(re.match(r"^(-- round|\s+round) 3\b", line) for line in lines)


@pytest.mark.parametrize("name", sorted(MATCHES))
def test_rounds_zero_plays_the_whole_match(name: str) -> None:
    """``--rounds 0`` plays the match to its end, with its real result line; the cut result
    and the whole match agree on the scores after the rounds they share."""
    whole = demo_lines(get_game(name), 1, rounds=0)
    match = RESULT.match(whole[-1])
    assert match and match["rule"] == MATCHES[name], whole[-1]
    assert not CUT.match(whole[-1])
    assert len(printed(whole)) > len(printed(demo_lines(get_game(name), 1)))
    cut = demo_lines(get_game(name), 1, rounds=1)
    assert cut == demo_lines(get_game(name), 1)
    assert whole[:len(cut) - 3] == cut[:-3]


@pytest.mark.parametrize("name", sorted(MATCHES))
@pytest.mark.parametrize("players", [3, 4, 5])
def test_wrapped_at_width(name: str, players: int) -> None:
    """Every move, hand, table and scoring line of a match demo fits in 100 characters
    (the first line, which names the players, and the result line stand alone)."""
    lines = printed(demo_lines(get_game(name), 2, players, rounds=3))
    wide = [line for line in lines[1:-1] if len(line) > WIDTH]
    assert not wide


def test_rounds_refused_where_there_are_none(capsys: pytest.CaptureFixture[str]) -> None:
    """``--rounds`` for a game played as one game, or below 0, is refused with status 2;
    without a game it applies to the match games only."""
    assert main(["demo", "kala", "--rounds", "2"]) == 2
    assert "--rounds is for copas and kopa" in capsys.readouterr().err
    assert main(["demo", "copas", "--rounds", "-1"]) == 2
    assert "0 for the whole match" in capsys.readouterr().err


def test_rounds_without_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    """``copa-ref demo --rounds 2`` plays every game, two rounds of each match game."""
    assert main(["demo", "--rounds", "2"]) == 0
    out = capsys.readouterr().out
    assert out.count("result: no winner yet: cut after 2 rounds;") == len(MATCHES)
    assert out.count("\nresult: ") == len(GAMES)
