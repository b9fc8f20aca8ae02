"""Bytes the browser search fetches (issue 7), measured in Chromium on a built site: the search page with a
first query (``/busca/?q=goiania``, everything the page loads until the results show), a second query
typed in the same page, a notice number's lookup, and the sizes of the index and of the largest notice
file. Bodies as served, without compression. Needs playwright and Debian's /usr/bin/chromium (as the
browser tests); without them the bench says so and goes on."""

from __future__ import annotations

import functools
import json
import re
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def a_notice(site: Path) -> str | None:
    for shard in sorted((site / "busca" / "autos").glob("*.json")):
        numbers = json.loads(shard.read_text(encoding="utf-8"))
        if numbers:
            return next(iter(numbers.values()))[0]  # pipeline/site/notices.py FIELDS: numero first
    return None


def measure(site: Path, first: str = "goiania", second: str = "brasilia") -> dict | None:
    try:
        from playwright.sync_api import expect, sync_playwright
    except ImportError:
        return None
    if not CHROMIUM.exists():
        return None
    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    finished = []
    done = re.compile("encontrad|não está disponível")
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM))
            page = browser.new_page()
            page.on("requestfinished", lambda request: finished.append(request))

            def taken() -> int:  # the bodies received since the last call
                done_now = finished[:]
                finished.clear()
                return sum(r.sizes()["responseBodySize"] for r in done_now)

            page.goto(f"{url}/busca/?q={first}")
            expect(page.locator("#estado-busca")).to_have_text(done, timeout=60_000)
            page.wait_for_timeout(1000)  # the results' fragments load after the count is shown
            page.wait_for_load_state("networkidle")
            first_bytes = taken()
            page.locator("#q").fill(second)
            page.locator("#q").press("Enter")
            expect(page.locator("#estado-busca")).to_have_text(done, timeout=60_000)
            page.wait_for_timeout(1000)  # the results' fragments load after the count is shown
            page.wait_for_load_state("networkidle")
            second_bytes = taken()
            notice, notice_bytes = a_notice(site), 0
            if notice:
                page.locator("#q").fill(notice)
                page.locator("#q").press("Enter")
                expect(page.locator("#auto-encontrado h2")).to_be_visible(timeout=60_000)
                page.wait_for_timeout(1000)
                page.wait_for_load_state("networkidle")
                notice_bytes = taken()
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    autos = [p.stat().st_size for p in (site / "busca" / "autos").glob("*.json")]
    return {"first": first_bytes, "second": second_bytes, "notice": notice_bytes,
            "largest_notice_file": max(autos, default=0), "index": _folder_bytes(site / "pagefind")}
