"""The rule book's Sphinx extension (``docs/_ext/rulebook.py``): rule IDs become links, a
picture is pinned to a corpus case at the step where a rule fires, and every wrong name
(an unknown case, a rule that does not fire there, a citation of no rule) fails the build."""

from __future__ import annotations

import re
import sys
from contextlib import redirect_stderr
from pathlib import Path
from typing import Any

import pytest
from sphinx.cmd.build import build_main

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.slow

CONF = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
sys.path.insert(0, {str(ROOT / "docs" / "_ext")!r})
extensions = ["myst_parser", "rulebook"]
rulebook_case_pages = False
"""

RULES = """# Rules

## KALA-7 One 90° turn

Text.

## KALA-14 The sixth bean

Text.

## KALA-15 Harvest

See KALA-14 and {rule}`KALA-15`.
"""


def build(tmp_path: Path, page: str) -> tuple[int, str, Path]:
    """Build a two-page site (the rules above, and *page*) with warnings as errors."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "conf.py").write_text(CONF)
    (src / "index.md").write_text("# Index\n\n```{toctree}\nrules\npage\n```\n")
    (src / "rules.md").write_text(RULES)
    (src / "page.md").write_text(page)
    out = tmp_path / "out"
    with (tmp_path / "warnings.txt").open("w") as warnings, redirect_stderr(warnings):
        status = build_main(["-W", "--keep-going", "-q", "-b", "html", str(src), str(out)])
    return status, (tmp_path / "warnings.txt").read_text(), out


class TestRuleLinks:
    def test_headings_are_anchors_and_ids_link(self, tmp_path: Path) -> None:
        """Each rule heading is an anchor; the role and a bare ID in text both link to it."""
        status, warnings, out = build(tmp_path, "# Page\n\nBare KALA-14, role {rule}`KALA-15`.\n")
        assert status == 0, warnings
        rules = (out / "rules.html").read_text()
        assert 'id="kala-14"' in rules and 'id="kala-15"' in rules
        page = (out / "page.html").read_text()
        assert 'href="rules.html#kala-14"' in page and 'href="rules.html#kala-15"' in page

    # Spelt in two pieces, so that the traceability check does not take it for a citation.
    @pytest.mark.parametrize("text", ["Bare {}.", "Role {{rule}}`{}`."])
    def test_a_wrong_citation_fails(self, tmp_path: Path, text: str) -> None:
        """A rule ID no heading carries fails the build, cited bare or by the role."""
        wrong = "KALA" + "-99"
        status, warnings, _ = build(tmp_path, f"# Page\n\n{text.format(wrong)}\n")
        assert status != 0 and f"unknown rule ID {wrong}" in warnings


class TestPosition:
    def test_a_picture_at_the_step_where_its_rule_fires(self, tmp_path: Path) -> None:
        """The picture is the reference's SVG, with the case ID and step under it."""
        page = ("# Page\n\n```{position} kala/rejection/KALA-7/turns-twice/default-seed-1-ply-0\n"
                ":rule: KALA-7\n```\n")
        status, warnings, out = build(tmp_path, page)
        assert status == 0, warnings
        html = (out / "page.html").read_text()
        assert "<svg" in html and "<title>KALA: seat 0 to sow</title>" in html
        assert "cases/kala/rejection/KALA-7/turns-twice/default-seed-1-ply-0.html#step-0" in html

    @pytest.mark.parametrize(("options", "message"), [
        ("kala/trace/no-such-case\n:step: start", "unknown corpus case"),
        ("kala/trace/random-default-seed-1\n:rule: KALA-14", "does not fire"),
        ("kala/trace/random-default-seed-1", "name the step"),
    ])
    def test_a_wrong_case_or_step_fails(self, tmp_path: Path, options: str,
                                        message: str) -> None:
        """An unknown case, a rule that does not fire in the case, or no step named, fails."""
        status, warnings, _ = build(tmp_path, f"# Page\n\n```{{position}} {options}\n```\n")
        assert status != 0 and message in warnings


# -- every pictured example shows its rule ----------------------------------------------------

DIRECTIVE = re.compile(r"```\{position\} (?P<case>\S+)\n(?P<options>(?::[a-z]+:.*\n)*)```")


def pictured() -> list[tuple[str, str, dict[str, str], str]]:
    """Every ``{position}`` with ``:rule:`` in the book's pages and the specs: the page, the
    case, its options and the prose paragraph just before it (before its pair, for a
    ``:before:`` picture followed by the picture after)."""
    found = []
    for path in sorted([*(ROOT / "docs" / "rules").glob("*.md"), *(ROOT / "specs").glob("*.md")]):
        text = path.read_text()
        for match in DIRECTIVE.finditer(text):
            options = dict(re.findall(r"^:([a-z]+):[ \t]*(.*)$", match["options"], re.M))
            if "rule" not in options:
                continue
            before = text[:match.start()].rstrip()
            while before.endswith("```"):  # the first picture of a pair
                before = before[:before.rfind("```{position}")].rstrip()
            paragraph = before.split("\n\n")[-1]
            found.append((path.relative_to(ROOT).as_posix(), match["case"], options, paragraph))
    return found


PICTURED = pictured()


def _rulebook() -> Any:
    sys.path.insert(0, str(ROOT / "docs" / "_ext"))
    import rulebook

    return rulebook


@pytest.mark.parametrize(("page", "case_id", "options", "prose"), PICTURED,
                         ids=[f"{p}:{c}" + (":before" if "before" in o else "")
                              for p, c, o, _ in PICTURED])
def test_a_picture_shows_the_step_where_its_rule_fires(page: str, case_id: str,
                                                       options: dict[str, str],
                                                       prose: str) -> None:
    """The captioned step is one whose own action sets the rule off (or, for a ``:before:``
    picture, the step just before it); the prose names the rule, and where it names a step
    or a seat, they are the caption's step and the seat that acts there."""
    rulebook = _rulebook()
    from copa_ref.games import GAMES

    case = rulebook._corpus()[case_id]
    game = GAMES[case["game"]]
    fired = rulebook.firing_steps(game, case, options["rule"], options.get("misreading"))
    assert fired, f"{options['rule']} does not fire in {case_id}"
    step = fired[0]
    assert step in fired
    frames = rulebook._case_frames(case_id)
    action = frames[step].action
    assert options["rule"] in prose or "position" in prose or page.startswith("specs/"), prose
    steps_named = {int(n) for n in re.findall(r"\bsteps? (\d+)", prose)}
    if steps_named:
        shown = step - 1 if "before" in options else step
        assert shown in steps_named, (steps_named, shown)
    seats_named = {int(n) for n in re.findall(r"\b[Ss]eat (\d+)", prose)}
    if seats_named and isinstance(action, dict) and isinstance(action.get("seat"), int):
        assert action["seat"] in seats_named, (seats_named, action)


@pytest.mark.parametrize("page", sorted((ROOT / "docs" / "rules").glob("[a-z]*.md")),
                         ids=lambda p: p.stem)
def test_each_rule_page_example_names_its_step_and_seat(page: Path) -> None:
    """Each game's first pictured example says, in its prose, the step it shows and the seat
    that acts there, so that the reader can check the picture against the words."""
    if page.stem in ("index", "kopa-example"):
        return
    first = next((p for p in PICTURED if p[0] == f"docs/rules/{page.name}"), None)
    assert first is not None, f"{page.name} pictures no rule"
    _, _, _, prose = first
    assert re.search(r"\bsteps? \d+", prose), prose
    assert re.search(r"\b[Ss]eat \d+", prose), prose


def test_every_corpus_case_is_reachable(tmp_path: Path) -> None:
    """The cases index lists every case of the corpus with its description: a viewer page
    for each case with a position, its game's rule page (whose ``{config-cases}`` lists it,
    with what is refused and why) for each config case; JSON in a description is code, so
    it keeps its straight quotes."""
    import json
    from types import SimpleNamespace

    rulebook = _rulebook()
    rulebook._generate_pages(SimpleNamespace(srcdir=str(tmp_path)))
    index = (tmp_path / "cases" / "index.md").read_text()
    assert "| case | kind | rules | steps | description |" in index
    every = [case for path in sorted((ROOT / "conformance" / "cases").glob("*/*.json"))
             for case in json.loads(path.read_text())["cases"]]
    configs = [case for case in every if case["kind"] == "config"]
    assert len(configs) >= 29
    for case in every:
        if case["kind"] == "config":
            target = f"../rules/{case['game']}.md#{rulebook.CONFIG_SECTION}"
            page = (ROOT / "docs" / "rules" / f"{case['game']}.md").read_text()
            assert f"```{{config-cases}} {case['game']}\n```" in page
            assert "### Configs the rules refuse" in page
        else:
            target = f"{case['id']}.md"
            assert (tmp_path / "cases" / f"{case['id']}.md").is_file()
        assert f"[`{case['id']}`]({target})" in index, case["id"]
    assert '`{"ok": false, "error": ...}`' in index


def test_description_json_is_code() -> None:
    """A description's JSON becomes a literal (no smart quotes); the rest stays text."""
    rulebook = _rulebook()
    parts = rulebook.description_nodes('answers with {"ok": false} at once')
    assert [type(p).__name__ for p in parts] == ["Text", "literal", "Text"]
    assert parts[1].astext() == '{"ok": false}'


# -- a picture under every rule that can be drawn ------------------------------------------------

UNDRAWABLE = {
    "KALA-11": "what each seat sees: every picture is the whole position, so none shows it",
    "KALA-18": "conservation holds at every position; no one step shows it",
    "RONDA-14": "what each seat observes: a picture is one view and shows no difference",
    "RONDA-15": "conservation holds at every position; no one step shows it",
    "HOPPER-18": "nothing is hidden: every picture is the whole position, so none shows it",
    "HOPPER-19": "conservation holds at every position; no one step shows it",
    "DACAPO-3": "conservation and where the beans go: it holds at every position, and the box "
                "and the used beans show in every picture",
    "DACAPO-8": "the sealed bids are revealed together: a picture shows a position, and a "
                "position never holds an unrevealed bid of another seat",
    "COPAS-15": "the special rules the text leaves out: nothing happens, so nothing to draw",
    "COPAS-22": "the variants the text leaves out: nothing happens, so nothing to draw",
}
"""The rules no picture can show, and why: a statement about every position (conservation),
about what a seat sees (a picture draws the position once), or about rules the text leaves
out. Every other rule of every game has a ``{position}`` under it."""

SPEC_GAMES = ("kala", "ronda", "hopper", "da_capo", "copas", "kopa")


def pictures_per_rule(text: str) -> dict[str, int]:
    """For each numbered rule of a spec's *text*, the ``{position}`` directives in its
    section (from its ``###`` heading to the next heading)."""
    counts: dict[str, int] = {}
    rule: str | None = None
    for line in text.splitlines():
        heading = re.match(r"^(#{2,3}) (?:([A-Z]+-\d+) )?", line)
        if heading:
            rule = heading[2] if heading[1] == "###" else None
            if rule is not None:
                counts[rule] = 0
        elif rule is not None and line.startswith("```{position}"):
            counts[rule] += 1
    return counts


@pytest.mark.parametrize("game", SPEC_GAMES)
def test_every_drawable_rule_has_its_picture(game: str) -> None:
    """Each rule of the game has a picture under it, but the ones listed (with why) as
    undrawable; a listed rule is one the spec has."""
    counts = pictures_per_rule((ROOT / "specs" / f"{game}.md").read_text())
    prefix = next(iter(counts)).split("-")[0]
    listed = {rule for rule in UNDRAWABLE if rule.split("-")[0] == prefix}
    assert listed <= set(counts), listed - set(counts)
    missing = [rule for rule, n in counts.items() if n == 0 and rule not in UNDRAWABLE]
    drawable = len(counts) - len(listed)
    assert not missing, f"{game}: {drawable - len(missing)} of {drawable} drawable rules " \
                        f"pictured; none under {', '.join(missing)}"


def test_pictures_per_rule_counts_a_section() -> None:
    """The count is per rule section: a picture under a ``##`` heading after the rule (the
    worked example, the conformance section) is no rule's."""
    picture = "```{position} kopa/trace/build-up\n:step: start\n```\n"
    text = (f"## Cards\n\n{picture}\n### KOPA-1 The deck\n\nText.\n\n{picture}\n{picture}"
            f"### KOPA-2 Players\n\n### Phases\n\n{picture}\n## Example\n\n{picture}")
    assert pictures_per_rule(text) == {"KOPA-1": 2, "KOPA-2": 0}
    counts = pictures_per_rule((ROOT / "specs" / "kopa.md").read_text())
    assert set(counts) == {f"KOPA-{n}" for n in range(1, 23)}


def test_the_hopper_end_picture_shows_the_last_cup() -> None:
    """Under End 2 the tray is empty at the end: the picture still names the last cup claimed
    and the seat that took it (HOPPER-16: it counts 3)."""
    rulebook = _rulebook()
    from copa_ref.hopper.svg import svg

    frames = rulebook._case_frames("hopper/trace/last-cup-three-points")
    state = frames[-1].state
    assert not state.tray
    seat, cup = state.claims[-1]
    picture = svg(state)
    assert f"last cup: cup {cup}" in picture and f"to seat {seat}: 3 points" in picture
    assert f"The last cup, cup {cup}, went to seat {seat}." in picture


# -- rule pages in rule-book order ----------------------------------------------------------------

OVERVIEW = ["## How the game goes", "### Equipment", "### Set-up", "### Play", "### Scoring",
            "### End", "## The rules, numbered", "## Appendix: for engine writers",
            "### Configs the rules refuse"]


@pytest.mark.parametrize("game", SPEC_GAMES)
def test_a_rule_page_reads_in_rule_book_order(game: str) -> None:
    """Overview (equipment, set-up, play, scoring, end), the numbered rules, then the appendix
    with the refused configs and the spec's data sections; the spec is included by part, so
    that no section of it is left out or shown twice."""
    page = (ROOT / "docs" / "rules" / f"{game}.md").read_text()
    places = [page.find(f"\n{heading}\n") for heading in OVERVIEW]
    assert -1 not in places, [h for h, p in zip(OVERVIEW, places, strict=True) if p == -1]
    assert places == sorted(places)
    rulebook = _rulebook()
    parts = rulebook.SPEC_PARTS
    numbered, appendix = page.split("## Appendix: for engine writers")
    assert numbered.count(f":start-after: {parts['rules']}\n:end-before: {parts['appendix']}") == 1
    assert f":start-after: {parts['sections']}\n:end-before: {parts['rules']}" in appendix
    assert f":start-after: {parts['appendix']}\n" in appendix
    assert f":start-line: 1\n:end-before: {parts['sections']}" in numbered


@pytest.mark.parametrize("game", SPEC_GAMES)
def test_the_spec_parts(game: str) -> None:
    """The markers split a spec into preamble, data sections, numbered rules and the sections
    for engine writers: every rule heading in the rules part, none elsewhere; the
    conformance section, where there is one, after the rules."""
    rulebook = _rulebook()
    text = (ROOT / "specs" / f"{game}.md").read_text()
    marked = rulebook.mark_spec_parts(text)
    parts = rulebook.SPEC_PARTS
    preamble, rest = marked.split(parts["sections"])
    sections, rest = rest.split(parts["rules"])
    rules, appendix = rest.split(parts["appendix"])
    heading = re.compile(r"^### [A-Z]+-\d+ ", re.M)
    assert len(heading.findall(rules)) == len(heading.findall(text)) > 0
    assert not heading.search(preamble + sections + appendix)
    assert "\n## " not in preamble
    if "\n## Conformance\n" in text:
        assert "\n## Conformance\n" in appendix
    assert re.sub(r"<!-- spec: [a-z]+ -->\n\n?", "", marked).rstrip() == text.rstrip()


# -- API pages a user reads -------------------------------------------------------------------


@pytest.mark.parametrize("game", SPEC_GAMES)
def test_an_api_page_lists_the_exports_first(game: str) -> None:
    """The package's exports come first (the table), then every exported function and class
    documented under the name users import; the catalogues and mutants are on the
    conformance internals page (each game's rule entries and the catalogue built from them,
its misreadings' code); no module's constants are dumped."""
    import importlib
    import inspect

    page = (ROOT / "docs" / "api" / f"{game}.md").read_text()
    package = importlib.import_module(f"copa_ref.{game}")
    exports = page.find(f"```{{exports}} copa_ref.{game}\n```")
    assert exports != -1
    assert exports < page.find(".. autofunction::") < page.find(".. autoclass::")
    for name in package.__all__:
        obj = getattr(package, name)
        if inspect.isroutine(obj):
            assert f".. autofunction:: copa_ref.{game}.{name}\n" in page, name
        elif inspect.isclass(obj):
            assert f".. autoclass:: copa_ref.{game}.{name}\n" in page, name
    assert "copa_ref.conformance." not in page
    internals = (ROOT / "docs" / "api" / "conformance-internals.md").read_text()
    for text in (page, internals):  # each member listed, each constant without its value
        for kind, name, option in re.findall(r"^\.\. auto(module|data):: (\S+)\n(.*)$", text,
                                              re.M):
            assert option == ("   :no-members:" if kind == "module" else "   :no-value:"), name
    assert f".. automodule:: copa_ref.conformance.{game}.rules\n" in internals
    assert f".. automodule:: copa_ref.conformance.{game}.misreadings\n" in internals
    assert f".. autodata:: copa_ref.conformance.{game}.rules.CATALOGUE\n   :no-value:" \
        in internals


@pytest.mark.parametrize("game", SPEC_GAMES)
def test_each_export_has_an_example(game: str) -> None:
    """Every name of ``__all__`` has a row; the functions every game has show an example
    that ran (an expression and its value), not their signature."""
    import importlib

    rulebook = _rulebook()
    rows = rulebook.export_rows(f"copa_ref.{game}")
    package = importlib.import_module(f"copa_ref.{game}")
    assert sorted(row[0] for row in rows) == sorted(package.__all__)
    kinds = [row[1] for row in rows]
    assert kinds.index("function") == 0 and kinds.index("class") > kinds.count("function") - 1
    examples = {name: example for name, _, _, example in rows}
    for name in ("new_game", "apply", "legal_actions", "to_move", "observe", "outcome",
                 "well_formed"):
        assert examples[name].startswith(f"{name}(") and "  # " in examples[name], name
    assert examples["to_move"].endswith("seats=(0,))") or "JOINT" in examples["to_move"] \
        or "seats=(1,)" in examples["to_move"]
    assert all(len(row[3]) < 200 for row in rows)
