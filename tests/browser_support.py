"""The browser the tests drive, shared by every test module that opens a page (tests/test_browser.py,
tests/test_calculadoras.py): Debian's /usr/bin/chromium through Playwright's Python package, and the
session's fixture site served on 127.0.0.1. Registered once, in conftest.py (``pytest_plugins``), so that
one Playwright session serves every module: a second one, started while the first runs, is refused.

Outside CI these fixtures skip when Chromium or Playwright is missing; with CI set (non-empty) they fail.
"""

from __future__ import annotations

import functools
import os
import threading
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from pathlib import Path

import pytest

try:
    from playwright.sync_api import Error as PlaywrightError  # noqa: F401 - for the modules that catch it
    from playwright.sync_api import Page, expect, sync_playwright
except ImportError:  # pragma: no cover - the lock installs it; only an old venv lacks it
    sync_playwright = None

CHROMIUM = Path("/usr/bin/chromium")
IN_CI = bool(os.environ.get("CI"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 10_000  # every wait is for a condition; this only bounds a failing one


def _unavailable(reason: str) -> None:
    if IN_CI:
        pytest.fail(f"{reason}; CI is set, so the browser tests must run (.ci/run installs chromium)", pytrace=False)
    pytest.skip(reason)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format, *args):  # noqa: A002 - the stdlib's signature
        pass


@pytest.fixture(scope="session")
def browser():
    if not CHROMIUM.exists():
        _unavailable(f"{CHROMIUM} is absent (apt-get install chromium)")
    if sync_playwright is None:
        _unavailable("the playwright package is not installed (pip install -r requirements.lock)")
    expect.set_options(timeout=TIMEOUT_MS)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.fixture(scope="session")
def axe(browser) -> str:
    """axe-core's script (axe-playwright-python ships it), to inject into a page opened with ``bypass_csp``."""
    try:
        return (files("axe_playwright_python") / "axe.min.js").read_text(encoding="utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        _unavailable("axe-playwright-python (which ships axe.min.js) is not installed")


def serious_violations(page, axe: str) -> list:
    """axe-core's serious and critical WCAG 2.1 A and AA findings on ``page`` as it stands: (rule, targets)."""
    page.add_script_tag(content=axe)
    try:
        results = page.evaluate("() => axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa']}, "
                                "resultTypes: ['violations']})")
    except PlaywrightError as exc:  # pragma: no cover - axe itself failing is a test error
        pytest.fail(f"axe-core did not run: {exc}")
    return [(v["id"], [n["target"] for n in v["nodes"]]) for v in results["violations"]
            if v["impact"] in ("serious", "critical")]


def _serve(folder):
    """Serve ``folder`` on 127.0.0.1 for as long as the fixture that yields from this lives."""
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_QuietHandler, directory=str(folder)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="session")
def base_url(site) -> str:
    """``site`` (conftest) is the session's build of tests/fixtures/pacote-minimo as of 2026-06-30."""
    yield from _serve(site)


@pytest.fixture(scope="session")
def real_url(real_only_site) -> str:
    """The build of the real 2021 export (conftest), served on 127.0.0.1 (tests/test_browser.py,
    tests/test_pair_answer_browser.py)."""
    yield from _serve(real_only_site)


@dataclass
class Tab:
    page: Page
    console_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)


def _open(browser, base_url: str, **context_options) -> Tab:
    context = browser.new_context(base_url=base_url, **context_options)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    tab = Tab(page)

    def on_console(msg):
        # Chromium asks for /favicon.ico on its own and the site has none; the page never refers to it.
        if msg.type == "error" and not msg.location.get("url", "").endswith("/favicon.ico"):
            tab.console_errors.append(f"{msg.text} ({msg.location.get('url')})")

    def on_dialog(dialog):
        tab.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("console", on_console)
    page.on("pageerror", lambda exc: tab.console_errors.append(f"uncaught: {exc}"))
    page.on("dialog", on_dialog)
    return tab


@pytest.fixture
def tab(browser, base_url):
    tab = _open(browser, base_url)
    yield tab
    tab.page.context.close()
