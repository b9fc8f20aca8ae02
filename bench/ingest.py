"""Benchmarks of the adapters, as ratios to baselines measured in the same run.

    .venv/bin/python bench/ingest.py [FILE] [--repeat 5]      # antt-horarios on the real 2021 export vs the csv module
    .venv/bin/python bench/ingest.py --layouts [--scale 1]    # each current layout vs DuckDB's read_csv (issue 23)

With ``--layouts``, each adapter ingests a file of its current layout at the size the regulator publishes
(bench/exports.py, times ``--scale``), and the same file is read by DuckDB's ``read_csv`` (every column as
text, the bare read); both are timed in this process, the median of ``--repeat`` runs, and the time per
million rows and the ratio are printed (target: within 3x of DuckDB).
"""

from __future__ import annotations

import argparse
import csv
import statistics
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

            ours, theirs = best_of(ours_once, repeat), best_of(bare, repeat)
            out.append({"adaptador": adapter, "linhas": rows, "ingest_s": ours, "duckdb_s": theirs,
                        "s_por_milhao": ours / rows * 1e6, "razao": ours / theirs})
    return out


def print_layouts(results: list[dict]) -> None:
    print(f"{'adaptador':<34} {'linhas':>8} {'ingest (s)':>10} {'s/milhão':>9} {'DuckDB (s)':>10} {'razão':>6}")
    for r in results:
        print(f"{r['adaptador']:<34} {r['linhas']:>8} {r['ingest_s']:>10.3f} {r['s_por_milhao']:>9.1f} "
              f"{r['duckdb_s']:>10.3f} {r['razao']:>6.1f}")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", default=str(REAL))
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--layouts", action="store_true", help="each current layout against DuckDB's read_csv")
    p.add_argument("--scale", type=float, default=1.0, help="with --layouts: multiple of the published sizes")
    args = p.parse_args()
    if args.layouts:
        print_layouts(measure_layouts(args.scale, args.repeat))
        return 0
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
