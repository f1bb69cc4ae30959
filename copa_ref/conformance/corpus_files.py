"""Where the published conformance corpus is, and whether we run from a checkout.

The source tree keeps the corpus in its top-level ``conformance/`` folder (``VERSION``,
``README.md``, ``schema/``, ``cases/<game>/``). The wheel carries the same folder as the data
package ``copa_ref.conformance.published`` (mapped in ``pyproject.toml``), found with
:mod:`importlib.resources`, so an installed copy runs its corpus from anywhere. From a
checkout (the source tree, or an editable install of it) the folder itself is used, and only
there may ``copa-ref conformance generate`` write it.
"""

from __future__ import annotations

import importlib.resources
import shutil
from pathlib import Path

__all__ = ["PACKAGE", "PUBLISHED", "checkout_root", "corpus_dir", "export_corpus"]

PACKAGE = "copa_ref.conformance.published"
"""The data package the wheel carries the corpus in."""

PUBLISHED = ("VERSION", "README.md", "schema/*.json", "cases/*/*.json")
"""The files of the published corpus, as glob patterns under its folder (``pyproject.toml``
ships the same)."""


def checkout_root() -> Path | None:
    """The root of the source checkout this code runs from, or ``None`` when it runs from an
    installed package (a wheel, not an editable install)."""
    root = Path(__file__).resolve().parent.parent.parent
    if (root / "pyproject.toml").is_file() and (root / "conformance" / "VERSION").is_file():
        return root
    return None


def corpus_dir() -> Path:
    """The folder of the published corpus: the checkout's ``conformance/``, or the one the
    installed package carries.

    :raises FileNotFoundError: when the package is installed without its corpus, or zipped.
    """
    root = checkout_root()
    if root is not None:
        return root / "conformance"
    try:
        version = importlib.resources.files(PACKAGE) / "VERSION"
    except ModuleNotFoundError:
        version = None
    if not isinstance(version, Path) or not version.is_file():
        msg = (f"this copa-ref installation carries no corpus ({PACKAGE} has no VERSION file "
               "on disk); reinstall copa-ref from its wheel, or pass --corpus DIR")
        raise FileNotFoundError(msg)
    return version.parent


def export_corpus(dest: Path, source: Path | None = None) -> list[Path]:
    """Copy the published corpus (:data:`PUBLISHED`) from *source* (default: :func:`corpus_dir`)
    into *dest*, keeping its layout; returns the files written, sorted."""
    source = corpus_dir() if source is None else source
    written: list[Path] = []
    for pattern in PUBLISHED:
        for path in sorted(source.glob(pattern)):
            target = dest / path.relative_to(source)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(path, target)
            written.append(target)
    return sorted(written)
