"""The Copas JSON converter: the shared strict converter, with the action union tagged.

Cards are enums whose values are their two-character codes, so the shared converter already
encodes them as codes (``"Qc"``); an unknown code fails to decode with
:class:`~copa_ref.core.errors.MalformedInputError` (COPAS-Q10).
"""

from __future__ import annotations

import cattrs

from copa_ref.copas.state import Action
from copa_ref.core import make_converter, register_union

__all__ = ["converter"]


def _make() -> cattrs.Converter:
    conv = make_converter()
    register_union(conv, Action)
    return conv


converter: cattrs.Converter = _make()
"""The strict converter of Copas states, actions, configs and observations."""
