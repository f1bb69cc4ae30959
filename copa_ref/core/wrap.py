"""Wrapping the demos' told lines (shared by the match games' demos)."""

from __future__ import annotations

import re
import textwrap

__all__ = ["wrap_told"]


def wrap_told(line: str, width: int) -> list[str]:
    """*line* wrapped at *width* characters, its continuation lines indented three more
    than the line, never breaking between "seat" and its number."""
    indent = line[:len(line) - len(line.lstrip())]
    kept = re.sub(r"\bseat (\d)", "seat\u00a0\\1", line)
    return [part.replace("\u00a0", " ")
            for part in textwrap.wrap(kept, width, subsequent_indent=indent + "   ",
                                      break_long_words=False, break_on_hyphens=False)]
