"""The built wheel carries every page asset (issue 34, item 7): a wheel is built from this
tree as `pip install .` or pipx would build it, installed into a fresh virtual environment
(the dependencies come from the test's own environment, the code only from the wheel), served
by its own `kiroku` command, and Chromium loads each ruleset's pane script and everything it
imports from it. `kiroku --version` answers from the installed metadata."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import time
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser.audience import Audience
from tests.serverproc import REPO_ROOT, free_port

pytestmark = pytest.mark.slow

PAGES = REPO_ROOT / "api" / "pages"
IGNORED = shutil.ignore_patterns(
    ".venv", ".git", "build", "dist", "*.egg-info", "__pycache__", "node_modules", ".*cache"
)


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
    shutil.copytree(REPO_ROOT, source, ignore=IGNORED)
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
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KIROKU_", "PYTHON"))}
    # The wheel does not carry BCDice's npm package (bcdice/, installed by `npm ci`): an
    # installed Kiroku is pointed at one (docs/how-to/host-a-public-table.md, Packaging).
    env["KIROKU_BCDICE_DIR"] = str(REPO_ROOT / "bcdice")
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
