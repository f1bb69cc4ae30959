"""``python -m copa_ref``: the ``copa-ref`` command (:mod:`copa_ref.cli`)."""

from __future__ import annotations

import sys

from copa_ref.cli import main

if __name__ == "__main__":
    sys.exit(main())
