"""The Kopa JSON converter: the shared strict converter, with the action union tagged.

Cards are enums whose values are their codes, so the shared converter already encodes them
as codes (``"S7"``); an unknown code fails to decode with
:class:`~copa_ref.core.errors.MalformedInputError` (KOPA-Q17).
"""

from __future__ import annotations

import cattrs

from copa_ref.core import make_converter, register_union
from copa_ref.kopa.state import Action

__all__ = ["converter"]


def _make() -> cattrs.Converter:
    conv = make_converter()
    register_union(conv, Action)
    return conv


converter: cattrs.Converter = _make()
"""The strict converter of Kopa states, actions, configs and observations."""
