"""The built wheel carries every page asset (issue 34, item 7): a wheel is built from this
tree as `pip install .` or pipx would build it, installed into a fresh virtual environment
(the dependencies come from the test's own environment, the code only from the wheel), served
by its own `kiroku` command, and Chromium loads each ruleset's pane script and everything it
imports from it. `kiroku --version` answers from the installed metadata. The wheel carries
BCDice (setup.py; docs/reference/dice.md, "An installed Kiroku"): the installed server lists
BCDice's systems and rolls in one with nothing pointed at the checkout."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any, cast

import httpx
import pytest
from fastapi.testclient import TestClient

from tests.browser.audience import Audience
from tests.serverproc import REPO_ROOT, free_port
from tests.table import Table

pytestmark = pytest.mark.slow

PAGES = REPO_ROOT / "api" / "pages"
CARRIED = "domain/adapters/bcdice_js"  # BCDice's Node.js project inside the wheel (setup.py)
TOP_IGNORED = shutil.ignore_patterns(".venv", ".git", "build", "dist", "*.egg-info", "*.db*")
EVERYWHERE_IGNORED = shutil.ignore_patterns("__pycache__", ".*cache")


def ignored(folder: str, names: list[str]) -> set[str]:
    """What the copy of the checkout leaves out: its environments and builds at the top (not a
    `dist` inside bcdice/node_modules, which `make bcdice` installed and the wheel carries)."""
    found = set(EVERYWHERE_IGNORED(folder, names))
    if Path(folder) == REPO_ROOT:
        found |= set(TOP_IGNORED(folder, names))
    return found


def page_assets() -> set[str]:
    """Every file the pages serve or render, as a path inside the wheel."""
    found = set()
    for folder in (PAGES / "static", PAGES / "templates"):
        for path in folder.rglob("*"):
            if path.is_file() and path.suffix != ".md":
                found.add(path.relative_to(REPO_ROOT).as_posix())
    return found


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    work = tmp_path_factory.mktemp("wheel")
    source = work / "src"
    shutil.copytree(REPO_ROOT, source, ignore=ignored)
    build = [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(work / "dist")]
    built = subprocess.run(
        [*build, str(source)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert built.returncode == 0, built.stdout + built.stderr
    (path,) = (work / "dist").glob("kiroku-*.whl")
    return path


@pytest.fixture(scope="module")
def installed(wheel: Path) -> Path:
    """A fresh virtual environment with the wheel installed; returns its bin folder."""
    venv = wheel.parent.parent / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    install = [sys.executable, "-m", "pip", "--python", str(python), "install", "-q"]
    done = subprocess.run(
        [*install, "--no-deps", str(wheel)], capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stdout + done.stderr
    # The dependencies: this environment's, as a plain path (its .pth files, the editable
    # install of this tree among them, are not processed from there).
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    (Path(site) / "kiroku-test-deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    return venv / "bin"


@pytest.fixture(scope="module")
def served(installed: Path) -> Iterator[str]:
    port = free_port()
    home = installed.parent
    # Nothing points at the checkout: no KIROKU_BCDICE_DIR, BCDice is the wheel's own.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIROKU_", "PYTHON"))}
    log = (home / "serve.log").open("wb")
    process = subprocess.Popen(
        [str(installed / "kiroku"), "serve", "--port", str(port), "--db", str(home / "k.db")],
        cwd=home,  # not this checkout: only the wheel's code can be imported
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, (home / "serve.log").read_text()
            try:
                if httpx.get(base + "/healthz", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, (home / "serve.log").read_text()
            time.sleep(0.1)
        yield base
    finally:
        process.terminate()
        process.wait(timeout=20)
        log.close()


def test_the_wheel_carries_every_page_asset(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
    missing = page_assets() - names
    assert not missing, f"not in the wheel: {sorted(missing)}"
    assert any(name.startswith("api/pages/static/panes/chojin_locke/") for name in names)


WHEEL_MIB_AT_MOST = 10  # 4.8 MiB on 2026-11-28, BCDice 3.7 of it


def test_the_wheel_carries_bcdice_as_locked_and_stays_small(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        lock = json.loads(archive.read(f"{CARRIED}/package-lock.json"))
    assert f"{CARRIED}/helper.mjs" in names
    for where in lock["packages"]:
        if where:  # every package of the lock, with its licence
            assert f"{CARRIED}/{where}/package.json" in names, where
            assert any(n.startswith(f"{CARRIED}/{where}/LICENSE") for n in names), where
    game_systems = f"{CARRIED}/node_modules/bcdice/lib/bcdice/game_system/"
    assert f"{game_systems}Cthulhu7th.js" in names
    assert sum(n.startswith(game_systems) and n.endswith(".js") for n in names) > 250
    assert not [n for n in names if n.endswith((".map", ".d.ts", "test_data.json"))]
    size = wheel.stat().st_size / (1 << 20)
    print(f"wheel {wheel.name}: {size:.1f} MiB")
    assert size <= WHEEL_MIB_AT_MOST


def test_the_installed_command_knows_its_version_and_serves_from_the_wheel(
    installed: Path,
) -> None:
    version = subprocess.run(
        [str(installed / "kiroku"), "--version"], capture_output=True, text=True, check=True
    )
    assert version.stdout.strip() == "kiroku 0.1.0"
    where = subprocess.run(
        [str(installed / "python"), "-c", "import api.pages; print(api.pages.__file__)"],
        cwd=installed.parent,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(installed.parent) in where and str(REPO_ROOT) not in where


LOAD_PANE = """async (src) => {
  const module = await import(src);
  return Object.keys(module).length;
}"""


def test_chromium_loads_every_ruleset_pane_from_the_installed_wheel(
    browser: Any, served: str
) -> None:
    panes = sorted(p.stem for p in (PAGES / "static" / "panes").glob("*.js"))
    assert {"chojin_locke", "mech_d20", "ninja_slayer"} <= set(panes)
    reader = Audience.open(browser, "reader")
    try:
        reader.page.goto(served + "/")
        for pane in panes:
            exports = reader.page.evaluate(LOAD_PANE, f"/static/panes/{pane}.js")
            assert exports > 0, pane
        failed = [r.url for r in reader.responses if r.status >= 400]
        assert not failed, failed
        assert not reader.errors, reader.errors
        loaded = {r.url.removeprefix(served) for r in reader.responses}
        assert "/static/panes/chojin_locke/combat.js" in loaded  # a subfolder's module
    finally:
        reader.close()


def test_the_installed_server_rolls_with_the_bcdice_the_wheel_carries(served: str) -> None:
    with httpx.Client(base_url=served, timeout=30) as http:
        listed = http.get("/systems")
        assert listed.status_code == 200, listed.text
        assert any(s["id"] == "Cthulhu7th" for s in listed.json()["systems"])
        table = Table.create(cast(TestClient, http), seats=["Aki"], system="Cthulhu7th")
        table.join_all()
        table.do("gm", {"type": "start"})
        said = {"type": "say", "text": "CC<=54 目星"}
        (event,) = table.do("seat:1", said)["events"]
        roll = event["public"]["roll"]
        assert roll["system"] == "Cthulhu7th" and roll["bcdice"] == listed.json()["bcdice"]
        assert roll["result"]["explanation"].startswith("(1D100<=54) ボーナス・ペナルティダイス[0]")
