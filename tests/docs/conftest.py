"""What the site's tests share: the site built once a session, and one headless Chromium reading it."""

from __future__ import annotations

import fcntl
import importlib.util
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
from browser.devtools import CHROMIUM, DevTools, serve  # noqa: E402

ENV = {**os.environ, "NO_MKDOCS_2_WARNING": "1"}


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site built with ``mkdocs build --strict`` (any warning fails: broken links, anchors, docstrings), once
    a run: pytest-xdist's workers share one build, the first to ask building it while the others wait."""
    missing = [name for name in ("mkdocs", "material", "mkdocstrings") if importlib.util.find_spec(name) is None]
    if missing:
        pytest.fail(f"{', '.join(missing)} missing: the docs extras are needed (pip install -e '.[test,docs]')")
    wanted = os.environ.get("CANASTA_DOCS_SITE_DIR")
    if wanted:
        return _build(ROOT / wanted)
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    out, built = shared / "docs-site", shared / "docs-site.built"
    with (shared / "docs-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not built.exists():
            _build(out)
            built.touch()
    return out


def _build(out: Path) -> Path:
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=ENV,
        timeout=240,
    )
    assert run.returncode == 0, f"mkdocs build --strict failed:\n{run.stdout}\n{run.stderr}"
    assert "WARNING" not in run.stderr, run.stderr
    return out


@pytest.fixture(scope="session")
def browser(site: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[DevTools, str]]:
    if not CHROMIUM.exists():
        pytest.skip("/usr/bin/chromium is absent: apt-get install -y chromium (Debian's package) to run this test")
    work = tmp_path_factory.mktemp("chromium")
    chrome = DevTools(work / "profile", work / "chromium.log")  # started before the server thread (preexec_fn)
    try:
        with serve(site) as base:
            chrome.open_tab()
            yield chrome, base
    finally:
        chrome.close()
