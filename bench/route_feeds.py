"""The pages' feeds of what changed (pipeline/release/routes.py) over three nights of one ingested package:

- night 1: the package with one timetable row in ten dropped (no previous release: no feed);
- night 2: the whole package, night 1 as ``--anterior`` (the dropped departures come back);
- night 3: every departure a minute later, night 2 as ``--anterior`` (every line changes).

For each night: the build's time, how many pages' feeds were written, their bytes and their share of a tar
(the Pages artifact), the index that carries them (``dados/mudancas-por-registro.json``) and the build's
warnings (feeds fitted under their budget). Without the search indexes, which do not read the feeds.

    .venv/bin/python -m pipeline ingest ../shared/data/antt/quadro-de-horarios-2021.csv --out /tmp/real
    .venv/bin/python bench/route_feeds.py /tmp/real [--pasta /tmp/bench-feeds]
"""

from __future__ import annotations

import argparse
import csv
import shutil
import sys
import time
from datetime import date
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def variant(source: Path, target: Path, rows_of) -> Path:
    """A copy of the package ``source`` whose ``horarios.csv`` rows are ``rows_of(rows)``."""
    shutil.rmtree(target, ignore_errors=True)
    shutil.copytree(source, target)
    with open(source / "horarios.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.reader(fh))
    with open(target / "horarios.csv", "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows([rows[0]] + rows_of(rows[1:]))
    return target


def later(row: list[str], at: int) -> list[str]:
    hour, _, minute = row[at].partition(":")
    if not (hour.isdigit() and minute.isdigit()):
        return row
    m = int(minute) + 1
    return row[:at] + [f"{(int(hour) + m // 60) % 24:02d}:{m % 60:02d}"] + row[at + 1:]


def feeds(site: Path) -> tuple[int, int, int]:
    found = [p.stat().st_size for p in site.glob("**/mudancas.atom.xml") if p.parent != site / "feeds"]
    return len(found), sum(found), sum(512 + -(-n // 512) * 512 for n in found)


def main() -> int:
    from pipeline.build import build
    from pipeline.contract.settings import Settings

    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("pacote", type=Path, help="um pacote ingerido com horarios.csv")
    p.add_argument("--pasta", type=Path, default=Path("/tmp/bench-feeds"))
    args = p.parse_args()
    args.pasta.mkdir(parents=True, exist_ok=True)
    header = next(csv.reader(open(args.pacote / "horarios.csv", encoding="utf-8", newline="")))
    at = header.index("horario")
    nights = [("noite1", variant(args.pacote, args.pasta / "dados1", lambda rows: [r for n, r in enumerate(rows) if n % 10])),
              ("noite2", args.pacote),
              ("noite3", variant(args.pacote, args.pasta / "dados3", lambda rows: [later(r, at) for r in rows]))]
    previous = None
    for n, (name, data) in enumerate(nights):
        out = args.pasta / name
        started = time.perf_counter()
        result = build(Settings(data=(data,), out=out, as_of=date(2026, 11, 27 + n), search_index=False,
                                previous=str(previous) if previous else None))
        count, size, tar = feeds(out)
        index = (out / "dados" / "mudancas-por-registro.json").stat().st_size
        print(f"{name}: {time.perf_counter() - started:.1f} s; feeds das páginas: {count:,}, {size / 2**20:.1f} MiB "
              f"({tar / 2**20:.1f} MiB no tar); índice {index / 2**20:.2f} MiB; avisos: {result.warnings or 'nenhum'}")
        previous = out
    return 0


if __name__ == "__main__":
    sys.exit(main())
