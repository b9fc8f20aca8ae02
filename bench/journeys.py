"""How long the form takes to answer in Chromium (issue 34: a journey with one change under 1 s), against the
answer of a pair a line links, measured in the same run on the same page.

    .venv/bin/python bench/journeys.py SITE [--repeat 5]

SITE is a built site (for the real 2021 export: ``python -m pipeline ingest <export> --out PKG`` then
``python -m pipeline build --data PKG --out SITE``). Each answer is timed from the form's submission until the
answer is whole: for a direct pair its departures table, for a journey every leg's lines (each leg's pair file
fetched); the first submission of a page also loads ``/cidades/index.json`` and ``/busca/regras.json``, so
each answer is timed in a fresh page, cold (the places loaded by that submission) and then warm (the same
answer asked again). Median of ``--repeat``. Needs playwright and Debian's /usr/bin/chromium."""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import threading
import time
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

CHROMIUM = Path("/usr/bin/chromium")
# (from, to, what shows the answer whole); the real export's: a direct pair, one change by one place, by many
ASKED = [
    ("São Paulo", "Rio de Janeiro", "table.partidas tbody tr"),
    ("Manaus", "São Paulo", "section.baldeacoes ul.trecho-linhas"),
    ("Foz do Iguaçu", "Curitiba", "section.baldeacoes ul.trecho-linhas"),
]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def _answered(page, selector: str) -> bool:
    """Whether the answer is whole: for a journey, as many legs' lines as legs."""
    if "baldeacoes" not in selector:
        return page.locator(selector).count() > 0
    legs = page.locator("section.baldeacoes details.trecho").count()
    return legs > 0 and page.locator(selector).count() == legs


def ask(page, de: str, para: str, selector: str) -> float:
    page.locator("#de").fill(de)
    page.locator("#para").fill(para)
    page.evaluate("document.getElementById('resposta').textContent = ''")
    start = time.perf_counter()
    page.locator("#de").press("Enter")
    while not _answered(page, selector):
        time.sleep(0.005)
    return time.perf_counter() - start


def measure(site: Path, repeat: int = 5) -> list[dict]:
    from playwright.sync_api import sync_playwright

    server = ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    out = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=str(CHROMIUM), args=["--no-sandbox"])
            for de, para, selector in ASKED:
                cold, warm = [], []
                for _ in range(repeat):
                    page = browser.new_page()
                    page.goto(url + "/")
                    cold.append(ask(page, de, para, selector))
                    warm.append(ask(page, de, para, selector))
                    page.close()
                out.append({"de": de, "para": para, "frio_s": statistics.median(cold),
                            "quente_s": statistics.median(warm)})
            browser.close()
    finally:
        server.shutdown()
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("site", type=Path)
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
    if not CHROMIUM.exists():
        print(f"{CHROMIUM} ausente: instale o chromium do Debian", file=sys.stderr)
        return 2
    rows = measure(args.site, args.repeat)
    base = rows[0]
    print(f"{'de':<16}{'para':<18}{'frio (s)':>10}{'quente (s)':>12}{'razão frio':>12}{'razão quente':>14}")
    for r in rows:
        print(f"{r['de']:<16}{r['para']:<18}{r['frio_s']:>10.3f}{r['quente_s']:>12.3f}"
              f"{r['frio_s'] / base['frio_s']:>12.2f}{r['quente_s'] / base['quente_s']:>14.2f}")
    print("razões: contra a resposta direta de São Paulo para Rio de Janeiro, na mesma execução (meta: uma baldeação "
          "em menos de 1 s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
