"""Benchmarks of the adapters, as ratios to baselines measured in the same run.

    .venv/bin/python bench/ingest.py [FILE] [--repeat 5]      # antt-horarios on the real 2021 export vs the csv module
    .venv/bin/python bench/ingest.py --layouts [--scale 1]    # each current layout vs DuckDB's read_csv (issue 23)
    .venv/bin/python bench/ingest.py --meses 12               # 12 Monitriip months into one package vs DuckDB

With ``--layouts``, each adapter ingests a file of its current layout at the size the regulator publishes
(bench/exports.py, times ``--scale``), and the same file is read by DuckDB's ``read_csv`` (every column as
text, the bare read); both are timed in this process, one run of each in turn, the median of ``--repeat``
runs, and the time per million rows and the ratio are printed (target: within 3x of DuckDB). Monitriip's row is its bulk path
(pipeline/adapters/bulk.py).

With ``--meses N``, N monthly Monitriip files of 130,000 rows (times ``--scale``) are ingested together into
one package, in a process of their own, which reports its peak resident memory; DuckDB reads the same N files
in one ``read_csv``.
"""

from __future__ import annotations

import argparse
import csv
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "data" / "antt" / "quadro-de-horarios-2021.csv"


def best_of(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def alternately(ours, theirs, repeat: int) -> tuple[float, float]:
    """The medians of ``repeat`` runs of each, one of ours then one of theirs: the machine's speed, which
    drifts by a fifth from one minute to the next here, weighs on both alike."""
    mine, other = [], []
    for _ in range(repeat):
        for fn, times in ((ours, mine), (theirs, other)):
            start = time.perf_counter()
            fn()
            times.append(time.perf_counter() - start)
    return statistics.median(mine), statistics.median(other)


def measure_layouts(scale: float = 1.0, repeat: int = 3, folder: Path | None = None) -> list[dict]:
    """For each adapter of a current layout: rows, ingest seconds, DuckDB seconds, per million rows, ratio."""
    import duckdb

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from exports import REAL_SIZES, write_export

    from pipeline.adapters import ingest

    out = []
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        for adapter, size in REAL_SIZES.items():
            rows = max(10, round(size * scale))
            path = write_export(adapter, rows, Path(tmp) / f"{adapter}.csv")
            runs = iter(range(10 ** 6))

            def ours_once(adapter=adapter, path=path, runs=runs):
                return ingest(adapter, path, Path(tmp) / f"out-{adapter}-{next(runs)}")

            def bare(path=path):
                with duckdb.connect() as db:
                    return db.execute("select count(*) from read_csv(?, delim=';', header=true, all_varchar=true, "
                                      "encoding='latin-1')", [str(path)]).fetchone()[0]

            ours, theirs = alternately(ours_once, bare, repeat)
            out.append({"adaptador": adapter, "linhas": rows, "ingest_s": ours, "duckdb_s": theirs,
                        "s_por_milhao": ours / rows * 1e6, "razao": ours / theirs})
    return out


MONTHLY = "antt-monitriip-bilhetes"
# the ingest of several files, in a process of its own: its time, and its peak memory before and after
_CHILD = """import json, resource, sys, time
from pathlib import Path
from pipeline.adapters import bulk, ingest  # DuckDB imported, as the bare read has it
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
start = time.perf_counter()
report = ingest(sys.argv[1], [Path(p) for p in sys.argv[3:]], Path(sys.argv[2]))
print(json.dumps({"s": time.perf_counter() - start, "lidas": report.lidas, "rss_imports_kb": before,
                  "rss_kb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def measure_months(months: int, scale: float = 1.0, repeat: int = 1, folder: Path | None = None) -> dict:
    """``months`` monthly Monitriip files of 130,000 rows (times ``scale``), from January 2018, ingested into
    one package (a process of its own: its peak memory) and read by DuckDB's ``read_csv``."""
    import duckdb

    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    from exports import REAL_SIZES, write_export

    rows = max(10, round(REAL_SIZES[MONTHLY] * scale))
    with tempfile.TemporaryDirectory(dir=folder) as tmp:
        paths = []
        for k in range(months):
            year, month = divmod(2018 * 12 + k, 12)
            paths.append(str(write_export(MONTHLY, rows, Path(tmp) / f"venda_passagem_{month + 1:02d}_{year}.csv",
                                          period=(year, month + 1))))
        runs = []
        for n in range(repeat):
            proc = subprocess.run([sys.executable, "-c", _CHILD, MONTHLY, str(Path(tmp) / f"out-{n}"), *paths],
                                  cwd=ROOT, capture_output=True, text=True, check=True)
            runs.append(json.loads(proc.stdout))

        def bare():
            with duckdb.connect() as db:
                return db.execute("select count(*) from read_csv(?, delim=';', header=true, all_varchar=true, "
                                  "encoding='latin-1')", [paths]).fetchall()[0][0]

        theirs = best_of(bare, max(3, repeat))
    ours = statistics.median(r["s"] for r in runs)
    total = runs[0]["lidas"]
    return {"arquivos": months, "linhas": total, "ingest_s": ours, "duckdb_s": theirs,
            "s_por_milhao": ours / total * 1e6, "duckdb_s_por_milhao": theirs / total * 1e6, "razao": ours / theirs,
            "pico_mb": max(r["rss_kb"] for r in runs) / 1024, "importacoes_mb": runs[0]["rss_imports_kb"] / 1024}


def print_months(r: dict) -> None:
    print(f"{r['arquivos']} arquivos mensais do Monitriip, {r['linhas']} linhas, num só pacote")
    print(f"ingest (bulk):       {r['ingest_s']:8.2f} s  {r['s_por_milhao']:6.2f} s/milhão")
    print(f"DuckDB read_csv:     {r['duckdb_s']:8.2f} s  {r['duckdb_s_por_milhao']:6.2f} s/milhão")
    print(f"razão:               {r['razao']:8.1f}")
    print(f"pico de memória:     {r['pico_mb']:8.0f} MB (o processo; {r['importacoes_mb']:.0f} MB antes do ingest)")


def print_layouts(results: list[dict]) -> None:
    print(f"{'adaptador':<34} {'linhas':>8} {'ingest (s)':>10} {'s/milhão':>9} {'DuckDB (s)':>10} {'razão':>6}")
    for r in results:
        print(f"{r['adaptador']:<34} {r['linhas']:>8} {r['ingest_s']:>10.3f} {r['s_por_milhao']:>9.1f} "
              f"{r['duckdb_s']:>10.3f} {r['razao']:>6.1f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", default=str(REAL))
    p.add_argument("--repeat", type=int, help="runs, their median taken (default: 5; with --meses, 1)")
    p.add_argument("--layouts", action="store_true", help="each current layout against DuckDB's read_csv")
    p.add_argument("--scale", type=float, default=1.0, help="with --layouts, --meses: multiple of the published sizes")
    p.add_argument("--meses", type=int, help="N Monitriip monthly files into one package against DuckDB's read_csv")
    args = p.parse_args()
    if args.layouts:
        print_layouts(measure_layouts(args.scale, args.repeat or 5))
        return 0
    if args.meses:
        print_months(measure_months(args.meses, args.scale, args.repeat or 1))
        return 0
    args.repeat = args.repeat or 5
    sys.path.insert(0, str(ROOT))
    from pipeline.adapters import ingest

    path = Path(args.file)

    def read_only():
        with open(path, encoding="latin-1", newline="") as fh:
            return sum(1 for _ in csv.reader(fh, delimiter=";"))

    with tempfile.TemporaryDirectory() as tmp:
        baseline = best_of(read_only, args.repeat)
        target = best_of(lambda: ingest("antt-horarios", path, Path(tmp) / "out"), args.repeat)
    print(f"file: {path} ({read_only() - 1} rows)")
    print(f"csv read only (baseline): {baseline:.3f} s (median of {args.repeat})")
    print(f"ingest antt-horarios:     {target:.3f} s (median of {args.repeat})")
    print(f"ratio:                    {target / baseline:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
