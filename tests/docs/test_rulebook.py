"""The rule book's Sphinx extension (``docs/_ext/rulebook.py``): rule IDs become links, a
picture is pinned to a corpus case at the step where a rule fires, and every wrong name
(an unknown case, a rule that does not fire there, a citation of no rule) fails the build."""

from __future__ import annotations

from contextlib import redirect_stderr
from pathlib import Path

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
