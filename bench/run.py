"""Benchmark of the build: stage timings and peak memory at a large scale, as ratios to a baseline
measured in the same run (the `small` sample), so that machines of different speed compare.

    .venv/bin/python bench/run.py [--scale national] [--seed 952] [--out bench/out]

Each build runs in its own process (peak memory is per process). Prints a table and writes
``bench/out/result.json``. Nothing here is a test: the suite never times anything.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ["leitura", "validação", "derivação", "publicação", "páginas", "índice de busca"]

_CHILD = """
import json, resource, sys, time
from datetime import date
from pathlib import Path
sys.path.insert(0, {root!r})
from pipeline.build import build
from pipeline.progress import LineProgress
from pipeline.settings import Settings
import io
progress = LineProgress(io.StringIO())
start = time.perf_counter()
result = build(Settings(data=(Path({data!r}),), out=Path({out!r}), as_of=date(2026, 11, 29),
                        whoosh_dir=Path({out!r}).with_name("busca-" + Path({out!r}).name)), progress)
timings = dict(result.timings, total=time.perf_counter() - start)
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
print(json.dumps({{"timings": timings, "peak_mb": peak_mb, "pages": result.pages}}))
"""


def measure(data: Path, out: Path) -> dict:
    code = _CHILD.format(root=str(ROOT), data=str(data), out=str(out))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scale", default="national")
    p.add_argument("--seed", type=int, default=952)
    p.add_argument("--out", default=str(ROOT / "bench" / "out"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))
    from pipeline import SAMPLE_DIR
    from pipeline.sample import generate

    data = out / f"data-{args.scale}-{args.seed}"
    if not (data / "datapackage.json").exists():
        t = time.perf_counter()
        counts = generate(args.scale, args.seed, data)
        print(f"generated {args.scale}: {sum(counts.values())} rows in {time.perf_counter() - t:.1f} s")
    baseline = measure(SAMPLE_DIR, out / "site-small")
    target = measure(data, out / f"site-{args.scale}")
    rows = []
    for stage in STAGES + ["total"]:
        b, t = baseline["timings"].get(stage, 0.0), target["timings"].get(stage, 0.0)
        rows.append((stage, b, t, t / b if b else float("nan")))
    print(f"{'stage':<18}{'small (s)':>12}{args.scale + ' (s)':>16}{'ratio':>10}")
    for stage, b, t, r in rows:
        print(f"{stage:<18}{b:>12.2f}{t:>16.2f}{r:>10.1f}")
    print(f"{'peak memory (MB)':<18}{baseline['peak_mb']:>12.0f}{target['peak_mb']:>16.0f}"
          f"{target['peak_mb'] / baseline['peak_mb']:>10.1f}")
    print(f"{'pages':<18}{baseline['pages']:>12}{target['pages']:>16}")
    result = {"scale": args.scale, "seed": args.seed, "baseline": baseline, "target": target}
    (out / "result.json").write_text(json.dumps(result, indent=2), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
