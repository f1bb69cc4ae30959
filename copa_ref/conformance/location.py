"""Where the published corpus is: the checkout's ``conformance/`` folder, or the copy an
installed package carries (:data:`CORPUS_DIR`). A leaf module: the corpus's reader
(:mod:`~copa_ref.conformance.corpus`), its schemas and its writer all start from it.
"""

from __future__ import annotations

import importlib.resources
from pathlib import Path

__all__ = ["CORPUS_DIR", "PACKAGE", "checkout_root", "corpus_dir"]

PACKAGE = "copa_ref.conformance.published"
"""The data package the wheel carries the corpus in."""


def checkout_root() -> Path | None:
    """The root of the source checkout this code runs from, or ``None`` when it runs from an
    installed package (a wheel, not an editable install)."""
    root = Path(__file__).resolve().parent.parent.parent
    if (root / "pyproject.toml").is_file() and (root / "conformance" / "VERSION").is_file():
        return root
    return None


def corpus_dir() -> Path:
    """The folder of the published corpus: the checkout's ``conformance/``, or the one the
    installed package carries (where it should be, if the installation lacks it: reading it
    then fails naming the missing file)."""
    root = checkout_root()
    if root is not None:
        return root / "conformance"
    try:
        version = importlib.resources.files(PACKAGE) / "VERSION"
    except ModuleNotFoundError:
        return Path(__file__).resolve().parent / PACKAGE.rsplit(".", 1)[1]
    if not isinstance(version, Path):
        msg = f"copa-ref must be installed unzipped to read its corpus ({version})"
        raise FileNotFoundError(msg)
    return version.parent


CORPUS_DIR: Path = corpus_dir()
"""The published corpus: the checkout's ``conformance/`` folder, or the copy an installed
package carries."""
