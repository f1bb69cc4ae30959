"""What every game's picture shares: an SVG drawing with its accessible text and its theme.

Each game draws its positions in ``copa_ref.<game>.svg`` (``svg(state, seat=None) -> str``)
with the small :class:`Drawing` below, built on :mod:`xml.etree.ElementTree` alone. A picture
is pure and deterministic: the same state gives the same text, byte for byte.

A drawing is readable on a light and on a dark page. Shapes carry CSS classes (``ink``,
``paper``, ``cup``, ...), never colours; the ``<style>`` inside the picture maps the classes
to colours through custom properties, with a light palette, a dark one under
``prefers-color-scheme: dark``, and the same two under a page's explicit
``data-theme="light"``/``"dark"`` (the theme switch of the rule book). Every class name is
prefixed with ``copa-`` so that a picture placed inline in a page styles nothing else.

The ``<title>`` (the first child) names the position in a few words; the ``<desc>`` says in
words what the picture shows, for a reader who cannot see it.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET

__all__ = ["PALETTE", "STYLE", "Drawing"]

_SVG_NS = "http://www.w3.org/2000/svg"

PALETTE: dict[str, tuple[str, str]] = {
    "ink": ("#1f2328", "#e6edf3"),
    "muted": ("#59636e", "#9198a1"),
    "paper": ("#ffffff", "#161b22"),
    "board": ("#f3ead7", "#2d2a24"),
    "cup": ("#fbf7ee", "#3b3730"),
    "rim": ("#8a6d3b", "#c9a66b"),
    "dark": ("#3b2f63", "#8f7fe0"),
    "light": ("#c9772b", "#f0a35e"),
    "mark": ("#1a7f37", "#3fb950"),
    "red": ("#cf222e", "#ff7b72"),
    "card": ("#ffffff", "#f6f8fa"),
    "cardink": ("#1f2328", "#1f2328"),
}
"""Each colour role as ``(light, dark)``."""


def _properties(index: int) -> str:
    return " ".join(f"--copa-{role}: {pair[index]};" for role, pair in PALETTE.items())


_RULES = " ".join(
    [
        ".copa-ink { fill: var(--copa-ink); }",
        ".copa-muted { fill: var(--copa-muted); }",
        ".copa-paper { fill: var(--copa-paper); }",
        ".copa-board { fill: var(--copa-board); stroke: var(--copa-rim); }",
        ".copa-cup { fill: var(--copa-cup); stroke: var(--copa-rim); stroke-width: 1.5; }",
        ".copa-dark { fill: var(--copa-dark); }",
        ".copa-light { fill: var(--copa-light); }",
        ".copa-ring-dark { fill: none; stroke: var(--copa-dark); stroke-width: 5; }",
        ".copa-ring-light { fill: none; stroke: var(--copa-light); stroke-width: 5; }",
        ".copa-mark { fill: none; stroke: var(--copa-mark); stroke-width: 3;"
        " stroke-dasharray: 5 3; }",
        ".copa-line { fill: none; stroke: var(--copa-muted); stroke-width: 2; }",
        ".copa-red { fill: var(--copa-red); }",
        ".copa-card { fill: var(--copa-card); stroke: var(--copa-muted); stroke-width: 1; }",
        ".copa-cardink { fill: var(--copa-cardink); }",
        ".copa-back { fill: var(--copa-dark); stroke: var(--copa-muted); stroke-width: 1; }",
        "text { font-family: system-ui, sans-serif; }",
    ]
)

STYLE = (
    f"svg.copa-svg {{ {_properties(0)} }} "
    f"@media (prefers-color-scheme: dark) {{ svg.copa-svg {{ {_properties(1)} }} }} "
    f"body[data-theme='light'] svg.copa-svg {{ {_properties(0)} }} "
    f"body[data-theme='dark'] svg.copa-svg {{ {_properties(1)} }} "
    f"{_RULES}"
)
"""The style sheet every picture carries."""


def _number(value: float) -> str:
    """A coordinate as short, stable text (``12``, ``12.5``)."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


class Drawing:
    """One SVG picture being drawn: shapes are added in order, later ones on top.

    :param width: the picture's width in user units.
    :param height: its height.
    :param title: a few words naming the position (the ``<title>``).
    :param desc: the position in words (the ``<desc>``).
    """

    def __init__(self, width: float, height: float, *, title: str, desc: str) -> None:
        self.root = ET.Element(
            "svg",
            {
                "xmlns": _SVG_NS,
                "class": "copa-svg",
                "viewBox": f"0 0 {_number(width)} {_number(height)}",
                "width": _number(width),
                "height": _number(height),
                "role": "img",
            },
        )
        ET.SubElement(self.root, "title").text = title
        ET.SubElement(self.root, "desc").text = desc
        ET.SubElement(self.root, "style").text = STYLE
        ET.SubElement(self.root, "rect", self._attrs(
            {"class": "copa-paper", "x": 0, "y": 0, "width": width, "height": height}))

    @staticmethod
    def _attrs(values: dict[str, object]) -> dict[str, str]:
        return {
            key.rstrip("_").replace("_", "-"): _number(v) if isinstance(v, int | float) else str(v)
            for key, v in values.items()
        }

    def add(self, tag: str, /, **attributes: object) -> ET.Element:
        """Add one shape (``rect``, ``circle``, ``line``, ``path`` ...); ``class_`` is the
        CSS class without its ``copa-`` prefix."""
        if "class_" in attributes:
            attributes["class_"] = f"copa-{attributes['class_']}"
        return ET.SubElement(self.root, tag, self._attrs(attributes))

    def text(self, x: float, y: float, words: str, *, size: float = 14, cls: str = "ink",
             anchor: str = "middle", bold: bool = False) -> ET.Element:
        """Add a line of text centred (by default) on ``x``, its baseline at ``y``."""
        element = self.add("text", x=x, y=y, class_=cls, font_size=size, text_anchor=anchor)
        if bold:
            element.set("font-weight", "bold")
        element.text = words
        return element

    def to_string(self) -> str:
        """The picture as SVG text (no XML declaration, so it can stand inline in HTML)."""
        return ET.tostring(self.root, encoding="unicode")
