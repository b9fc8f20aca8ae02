"""Start-up of the command-line search (issue 25): the wall time of ``python -m pipeline search QUERY --index DIR``
against a bare ``python -c "import whoosh"`` measured in the same run, each the median of ``--repeat`` new
processes, with the ratio and the absolute seconds (target: an answer in under a second on the real export's
index; it took 4.5 s when the command imported the build: pandas, Frictionless, Pelican).

    .venv/bin/python bench/cli_startup.py [--index DIR] [--repeat 5] [QUERY ...]

Without ``--index`` the index is made in a temporary folder from the regulator's real 2021 timetable export
(../shared/data/antt/quadro-de-horarios-2021.csv: ``ingest`` then ``build``, some half a minute, not timed).
"""

from __future__ import annotations

import argparse
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
REAL = ROOT.parent / "shared" / "data" / "antt" / "quadro-de-horarios-2021.csv"
TARGET_S = 1.0


def wall(command: list[str], repeat: int) -> float:
    """The median wall time of ``repeat`` runs of ``command``, each a new process (its output discarded)."""
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def real_index(folder: Path) -> Path:
    """The Whoosh index of a build of the real export alone, in ``folder``."""
    if not REAL.is_file():
        sys.exit(f"{REAL} não encontrado: dê --index PASTA (o índice de um build)")
    package, index = folder / "antt-horarios", folder / "busca"
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", "ingest", "antt-horarios", str(REAL), "--out", str(package)],
                   cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(package), "--out", str(folder / "site"),
                    "--as-of", "2026-11-29", "--index", str(index)], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    print(f"índice do export real gerado em {time.perf_counter() - started:.0f} s (fora da medida)", file=sys.stderr)
    return index


def measure(index: Path, query: list[str], repeat: int) -> dict:
    search = [sys.executable, "-m", "pipeline", "search", *query, "--index", str(index)]
    check = subprocess.run(search, cwd=ROOT, capture_output=True, text=True)
    if check.returncode not in (0, 1):  # 1: nothing found, still an answer
        sys.exit(f"a busca falhou ({check.returncode}): {check.stderr.strip()}")
    answer = (check.stdout.strip().splitlines() or check.stderr.strip().splitlines() or [""])[-1]
    baseline = wall([sys.executable, "-c", "import whoosh"], repeat)
    target = wall(search, repeat)
    return {"baseline_s": baseline, "search_s": target, "ratio": target / baseline, "answer": answer,
            "command": shlex.join(["python", *search[1:]])}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("query", nargs="*", default=["caldas", "novas"], help="a consulta (padrão: caldas novas)")
    p.add_argument("--index", help="pasta do índice Whoosh (padrão: gerado do export real numa pasta temporária)")
    p.add_argument("--repeat", type=int, default=5, help="processos medidos de cada comando, a mediana (padrão: 5)")
    args = p.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        index = Path(args.index) if args.index else real_index(Path(tmp))
        r = measure(index, args.query, args.repeat)
    print(f"índice: {index}" + ("" if args.index else " (temporário, do export real)"))
    print(f"resposta: {r['answer']}")
    print(f'python -c "import whoosh" (base): {r["baseline_s"]:7.3f} s (mediana de {args.repeat})')
    print(f"{r['command']}: {r['search_s']:7.3f} s (mediana de {args.repeat})")
    print(f"razão: {r['ratio']:.1f}")
    verdict = "ok" if r["search_s"] < TARGET_S else "ACIMA DA META"
    print(f"meta: responder em menos de {TARGET_S:.0f} s: {r['search_s']:.2f} s, {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
