"""Sphinx configuration for the copa-ref rule spec and API reference."""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

project = "copa-ref"
author = "the copa-ref developers"
copyright = "2026, the copa-ref developers"  # noqa: A001 - Sphinx's name

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
exclude_patterns = ["_build"]

nitpicky = True
nitpick_ignore_regex = [
    # Type variables and typing internals that autodoc cannot resolve.
    (r"py:.*", r"(S|A|C|O|T)"),
    (r"py:class", r"cattrs\..*"),
    (r"py:class", r"attr\..*"),
    (r"py:class", r"random\.Random"),
    (r"py:class", r"fractions\.Fraction"),
    (r"py:class", r"NoneType"),
    (r"py:class", r"copa_ref\.core\.codec\.JSON"),
    (r"py:class", r"JSON"),
]
autodoc_typehints = "description"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
intersphinx_mapping = {"python": ("https://docs.python.org/3", None)}
intersphinx_disabled_reftypes = ["*"]
intersphinx_timeout = 1

html_theme = "furo"
html_title = "copa-ref"
