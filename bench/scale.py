"""Benchmark of the build at the size of Monitriip's eight years (issue 23, "Scale"): the national package
with 94 months of tickets (``generate --scale national-8-years``: some 12 million rows of ``bilhetes``),
built whole, its peak memory (target: under 1.5 GB) and its time, with the table read in batches
(pipeline/build/batches.py) against a bare read of the same file by DuckDB's ``read_csv`` in the same run.

    .venv/bin/python bench/scale.py [--scale national-8-years] [--pasta /tmp/bench-escala] [--manter]

The package is generated into ``--pasta`` unless it is there already (``--manter`` keeps it for the next
run). The build runs in a process of its own: its peak is the larger of that process's and of its largest
child's (the tables read in batches, the downloads, Pagefind), as ``getrusage`` reports them.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import io, json, resource, sys, time
from datetime import date
from pathlib import Path
sys.path.insert(0, {root!r})
from pipeline.build import build
from pipeline.tools.progress import LineProgress
from pipeline.contract.settings import Settings

data, out = Path({data!r}), Path({out!r})
start = time.perf_counter()
result = build(Settings(data=(data,), out=out, as_of=date(2026, 11, 29), search_index=False), LineProgress(io.StringIO()))
print(json.dumps({{
    "total_s": time.perf_counter() - start, "etapas": result.timings,
    "pico_processo_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    "pico_filho_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
    "bilhetes": result.report.accounting["bilhetes"]["mantidas"], "paginas": result.pages,
    "lotes_s": result.report.batches["bilhetes"].seconds}}))
"""


def measure(scale: str, folder: Path, keep: bool) -> dict:
    import duckdb

    package = folder / scale
    if not (package / "datapackage.json").is_file():
        started = time.perf_counter()
        subprocess.run([sys.executable, "-m", "pipeline", "generate", "--scale", scale, "--out", str(package)],
                       cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        print(f"pacote gerado em {time.perf_counter() - started:.0f} s", file=sys.stderr)
    out = folder / f"site-{scale}"
    shutil.rmtree(out, ignore_errors=True)
    child = subprocess.run([sys.executable, "-c", _CHILD.format(root=str(ROOT), data=str(package), out=str(out))],
                           cwd=ROOT, check=True, capture_output=True, text=True)
    result = json.loads(child.stdout.strip().splitlines()[-1])
    tickets = package / "bilhetes.csv"
    started = time.perf_counter()
    with duckdb.connect() as db:
        rows = db.execute("select count(*) from read_csv(?, header=true, all_varchar=true)", [str(tickets)]).fetchone()[0]
    result["duckdb_s"] = time.perf_counter() - started
    result["bilhetes_csv_mb"] = tickets.stat().st_size / 1e6
    assert rows == result["bilhetes"], (rows, result["bilhetes"])
    shutil.rmtree(out, ignore_errors=True)
    if not keep:
        shutil.rmtree(package, ignore_errors=True)
    return result


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scale", default="national-8-years", choices=["national", "national-8-years"])
    p.add_argument("--pasta", default="/tmp/bench-escala")
    p.add_argument("--manter", action="store_true", help="mantém o pacote gerado para a próxima execução")
    args = p.parse_args()
    folder = Path(args.pasta)
    folder.mkdir(parents=True, exist_ok=True)
    r = measure(args.scale, folder, args.manter)
    batched = r["etapas"].get("tabelas em lotes", 0.0)
    per_million = 1e6 / r["bilhetes"]
    print(f"escala {args.scale}: {r['bilhetes']:,} bilhetes ({r['bilhetes_csv_mb']:,.0f} MB de CSV), {r['paginas']:,} páginas")
    print(f"build inteiro: {r['total_s']:.0f} s; pico de memória: {max(r['pico_processo_mb'], r['pico_filho_mb']):,.0f} MB "
          f"(processo {r['pico_processo_mb']:,.0f} MB, maior filho {r['pico_filho_mb']:,.0f} MB; meta < 1.536 MB)")
    print(f"bilhetes lidos, validados, derivados e gravados em lotes (num processo à parte): {r['lotes_s']:.0f} s, "
          f"{r['lotes_s'] * per_million:.1f} s por milhão; o build esperou por eles {batched:.0f} s")
    print(f"DuckDB read_csv do mesmo bilhetes.csv: {r['duckdb_s']:.1f} s ({r['duckdb_s'] * per_million:.2f} s por milhão; "
          f"razão {r['lotes_s'] / r['duckdb_s']:.0f})")
    print("etapas: " + ", ".join(f"{k} {v:.1f} s" for k, v in r["etapas"].items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
