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

__all__ = [
    "PACKAGE",
    "PUBLISHED",
    "NoCheckoutError",
    "checkout_corpus",
    "checkout_root",
    "corpus_dir",
    "export_corpus",
]

PACKAGE = "copa_ref.conformance.published"
"""The data package the wheel carries the corpus in."""

PUBLISHED = ("VERSION", "README.md", "schema/*.json", "cases/*/*.json")
"""The files of the published corpus, as glob patterns under its folder (``pyproject.toml``
ships the same)."""


class NoCheckoutError(RuntimeError):
    """The source checkout is needed (to write the corpus) and this is an installed copy."""


def checkout_root() -> Path | None:
    """The root of the source checkout this code runs from, or ``None`` when it runs from an
    installed package (a wheel, not an editable install)."""
    root = Path(__file__).resolve().parent.parent.parent
    if (root / "pyproject.toml").is_file() and (root / "conformance" / "VERSION").is_file():
        return root
    return None


def checkout_corpus() -> Path:
    """The checkout's ``conformance/`` folder, the only place ``generate`` writes by default.

    :raises NoCheckoutError: when this code runs from an installed package.
    """
    root = checkout_root()
    if root is None:
        msg = ("copa-ref runs from an installed package, not from a checkout of its source: "
               "generate writes the corpus only into a checkout's conformance/ folder (or "
               "--out DIR). The corpus this copy carries is written out by "
               "'copa-ref conformance export DIR'.")
        raise NoCheckoutError(msg)
    return root / "conformance"


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
