"""Benchmark of `ingest antt-horarios` on the regulator's real export, as a ratio to a baseline
measured in the same run: reading the same file with the csv module and nothing else.

    .venv/bin/python bench/ingest.py [FILE] [--repeat 5]
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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("file", nargs="?", default=str(REAL))
    p.add_argument("--repeat", type=int, default=5)
    args = p.parse_args()
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
