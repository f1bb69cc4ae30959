"""An installed copa-ref does its headline job: the wheel carries the corpus and its schemas,
and ``copa-ref conformance run`` passes every case against ``copa-ref engine`` from a fresh
virtual environment, in an empty folder, far from any checkout.

The slow test builds the sdist from a copy of the source tree and the wheel from that sdist
(as ``python -m build`` does), installs the wheel (and only it: the dependencies are borrowed
from the running environment through a ``.pth`` file, so no registry is needed) into a new
virtual environment, and runs the whole corpus there.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import tomllib
import venv
import zipfile
from importlib.metadata import version
from pathlib import Path

import pytest

from copa_ref.conformance.corpus import PACKAGE, PUBLISHED, checkout_root, corpus_dir

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "conformance"
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
SETUPTOOLS = PYPROJECT["tool"]["setuptools"]
IGNORED = shutil.ignore_patterns(".git", ".venv*", "__pycache__", "*.egg-info", "build", "dist",
                                 "_build", ".*_cache", ".hypothesis", ".crosshair*")


def published_files(folder: Path) -> dict[str, bytes]:
    """The published corpus under *folder*: relative path -> bytes."""
    return {path.relative_to(folder).as_posix(): path.read_bytes()
            for pattern in PUBLISHED for path in folder.glob(pattern)}


class TestPackaging:
    def test_every_package_is_listed(self) -> None:
        """``pyproject.toml`` lists every package of the source tree (the list is explicit so
        that the corpus can be mapped in): a new game package must be added there."""
        found = {".".join(p.parent.relative_to(ROOT).parts)
                 for p in (ROOT / "copa_ref").rglob("*.py") if "__pycache__" not in p.parts}
        listed = set(SETUPTOOLS["packages"])
        missing = sorted(found - listed)
        assert not missing, f"add {missing} to [tool.setuptools] packages in pyproject.toml"
        assert listed - found == {PACKAGE}

    def test_corpus_mapped(self) -> None:
        """The data package is the top-level ``conformance/`` folder, with the same files as
        :data:`~copa_ref.conformance.corpus.PUBLISHED` names."""
        assert SETUPTOOLS["package-dir"] == {PACKAGE: "conformance"}
        assert tuple(SETUPTOOLS["package-data"][PACKAGE]) == PUBLISHED

    def test_checkout_found(self) -> None:
        """From the source tree (or an editable install), the corpus is the checkout's."""
        assert checkout_root() == ROOT
        assert corpus_dir() == CORPUS


def run(*args: str | Path, cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=timeout, check=False)


def build(tmp: Path) -> tuple[Path, Path]:
    """The sdist (built from a copy of the tree) and the wheel (built from the sdist)."""
    tree = tmp / "tree"
    shutil.copytree(ROOT, tree, ignore=IGNORED)
    backend = ("import sys; from setuptools import build_meta as b; "
               "print(getattr(b, sys.argv[1])(sys.argv[2]))")
    done = run(sys.executable, "-c", backend, "build_sdist", tmp / "dist", cwd=tree)
    assert done.returncode == 0, done.stderr
    sdist = tmp / "dist" / done.stdout.split()[-1]
    with tarfile.open(sdist) as archive:
        archive.extractall(tmp / "unpacked", filter="data")
    unpacked = next((tmp / "unpacked").iterdir())
    done = run(sys.executable, "-c", backend, "build_wheel", tmp / "dist", cwd=unpacked)
    assert done.returncode == 0, done.stderr
    return sdist, tmp / "dist" / done.stdout.split()[-1]


def fresh_venv(where: Path) -> Path:
    """A new virtual environment whose only borrowed packages are the dependencies; returns
    its ``bin`` folder."""
    venv.create(where, with_pip=False)
    bin_dir = where / "bin"
    purelib = Path(run(bin_dir / "python", "-c",
                       "import sysconfig; print(sysconfig.get_paths()['purelib'])",
                       cwd=where).stdout.strip())
    (purelib / "dependencies.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return bin_dir


@pytest.mark.slow
@pytest.mark.skipif(int(version("setuptools").split(".")[0]) < 77,
                    reason="needs setuptools>=77 (pip install -e '.[dev]')")
def test_installed_wheel_runs_the_corpus(tmp_path: Path) -> None:
    """The sdist holds the corpus folder; the wheel built from it holds ``py.typed``, the
    licence, the corpus and its schemas as ``copa_ref/conformance/published``; installed
    into a fresh environment, it runs (and validates) the whole corpus against its own
    engine from an empty folder, exports the corpus byte for byte (and runs the copy with
    ``--corpus``), plays a demo, and refuses to generate."""
    sdist, wheel = build(tmp_path)
    corpus = published_files(CORPUS)
    assert {"VERSION", "README.md", "schema/corpus.schema.json"} <= corpus.keys()

    with tarfile.open(sdist) as archive:
        names = {n.split("/", 1)[1] for n in archive.getnames() if "/" in n}
    assert {f"conformance/{n}" for n in corpus} <= names
    assert {"LICENSE", "pyproject.toml", "README.md"} <= names

    prefix = "copa_ref/conformance/published/"
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        shipped = {n[len(prefix):]: archive.read(n) for n in names if n.startswith(prefix)}
    assert shipped == corpus
    assert "copa_ref/py.typed" in names
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert not any(n.startswith(("conformance/", "tests/")) for n in names)

    bin_dir = fresh_venv(tmp_path / "venv")
    done = run(sys.executable, "-m", "pip", "--python", bin_dir / "python", "install",
               "--quiet", "--no-deps", "--no-index", wheel, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr

    empty = tmp_path / "empty"
    empty.mkdir()
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    where = run("python", "-c", "import copa_ref; print(copa_ref.__file__)", cwd=empty, env=env)
    assert where.stdout.startswith(str(tmp_path / "venv")), where.stdout + where.stderr

    done = run("copa-ref", "conformance", "run", "--engine", "copa-ref engine", "--validate",
               "--report", "report.jsonl", cwd=empty, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = [json.loads(line) for line in (empty / "report.jsonl").read_text().splitlines()]
    cases = [line for line in lines if line.get("type") == "case"]
    total = sum(len(json.loads(text)["cases"]) for name, text in corpus.items()
                if name.startswith("cases/"))
    assert len(cases) == total > 0
    assert {c["status"] for c in cases} == {"passed"}

    done = run("copa-ref", "conformance", "export", "out", cwd=empty, env=env)
    assert done.returncode == 0, done.stderr
    assert published_files(empty / "out") == corpus

    done = run("copa-ref", "conformance", "run", "--engine", "copa-ref engine", "--corpus",
               "out", "--game", "kala", "--kind", "rejection", cwd=empty, env=env)
    assert done.returncode == 0 and " 0 failed" in done.stdout, done.stdout + done.stderr

    done = run("copa-ref", "demo", "kala", "--seed", "1", cwd=empty, env=env)
    assert done.returncode == 0 and "result: " in done.stdout, done.stderr

    done = run("copa-ref", "conformance", "generate", cwd=empty, env=env)
    assert done.returncode == 2 and "not from a checkout" in done.stderr, done.stderr
    site = Path(where.stdout.strip()).parent.parent
    assert not (site / "conformance").exists()
    assert sorted(p.name for p in empty.iterdir()) == ["out", "report.jsonl"]
