"""copa-ref: the formally specified reference rules for the Copa games, Kopa and Copas.

Each game is a subpackage of pure functions over immutable states
(``copa_ref.kala``, ``copa_ref.copas``, ``copa_ref.da_capo``, …); :mod:`copa_ref.games`
lists them all by name; :mod:`copa_ref.core` holds what they share.
"""

__version__ = "0.1.0"
