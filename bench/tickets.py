"""Benchmark of the tables read in batches alone (``build.batches.run``: read, validate, derive and write the
tickets), with no other stage beside them, against the same run by the code of another checkout, alternately
(the machine's speed drifts by a quarter within an hour: read the pairs, not the seconds). Each run is a
process of its own writing into a fresh folder; the published files of the two codes are compared byte for
byte (the CSV and the Parquet) and by their rows and types (the side database).

    .venv/bin/python bench/tickets.py [--pacote DIR] [--contra CHECKOUT] [--vezes 3]

``--pacote``: a source package holding ``bilhetes.csv`` (default: the national package with a year of
tickets, generated into ``bench/out/data-1-952`` as ``make bench`` makes it). ``--contra``: the root of
another checkout of the project (``git worktree add /tmp/antes <commit>``).

    .venv/bin/python bench/tickets.py --na-build [--pacote DIR] [--vezes 3]

``--na-build``: what the tickets cost the whole build. The package is built (``python -m pipeline build``,
search index included) with its tickets and without them (the same folder but ``bilhetes.csv``, the table
then covered by no source), alternately, each build a process of its own writing into a fresh folder (the
folders are removed at the end: a removal just before a build slows its file creation, see the README). The
cost is the difference of the medians, per million tickets: besides reading, checking and writing them
beside the other tables, the tickets slow the other tables' reading and validation, whose cores they share,
and add their SQLite table, their part of the zip and their pages' data. The tickets' own process time,
which the build's timings report (``tabelas em lotes``), is not that cost.
"""

from __future__ import annotations

import argparse
import filecmp
import json
import os
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import checkouts

ROOT = Path(__file__).resolve().parent.parent

_CHILD = r"""
import json, sys, time
from datetime import date
from pathlib import Path
sys.path.insert(0, {root!r})
from pipeline.build import batches
from pipeline.contract.schema import load_schema
from pipeline.read import read_source

schema = load_schema()
found = read_source([Path({data!r})], schema, only={{n for n, t in schema.tables.items() if t.batched}})
out = Path({out!r})
started, cpu = time.perf_counter(), time.process_time()
results, problems = batches.run(found, schema, lenient=False, as_of=date(2026, 11, 29), out=out)
print(json.dumps({{"s": time.perf_counter() - started, "cpu_s": time.process_time() - cpu,
                  "linhas": sum(r.data_rows for r in results.values()), "problemas": len(problems)}}))
"""


def run(code: Path, data: Path, out: Path) -> dict:
    shutil.rmtree(out, ignore_errors=True)
    out.mkdir(parents=True)
    child = subprocess.run([sys.executable, "-c", _CHILD.format(root=str(code), data=str(data), out=str(out))],
                           cwd=code, check=True, capture_output=True, text=True)
    return json.loads(child.stdout.strip().splitlines()[-1])


def same_files(a: Path, b: Path) -> bool:
    """Whether the two runs published the same tables: CSV and Parquet byte for byte, the side databases row
    for row with their SQLite types."""
    for path in sorted(a.iterdir()):
        other = b / path.name
        if path.suffix == ".sqlite":
            query = "select name from sqlite_master where type = 'table'"
            with sqlite3.connect(path) as x, sqlite3.connect(other) as y:
                for (table,) in x.execute(query).fetchall():
                    columns = [c[1] for c in x.execute(f'pragma table_info("{table}")')]
                    rows = f'select *, {", ".join(f"typeof({chr(34)}{c}{chr(34)})" for c in columns)} from "{table}"'
                    if x.execute(rows).fetchall() != y.execute(rows).fetchall():
                        return False
        elif not other.is_file() or not filecmp.cmp(path, other, shallow=False):
            return False
    return True


def build_seconds(data: Path, out: Path) -> float:
    """A build of ``data`` into ``out`` in a process of its own: its wall-clock seconds."""
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(data), "--out", str(out / "site"),
                    "--as-of", "2026-11-29", "--index", str(out / "busca")], cwd=ROOT, check=True,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def without_tickets(data: Path, folder: Path) -> Path:
    """``data`` without its tickets: the other files linked, the descriptor without ``bilhetes``."""
    folder.mkdir(parents=True)
    for path in data.iterdir():
        if path.is_file() and path.name not in ("bilhetes.csv", "datapackage.json"):
            os.link(path, folder / path.name)
    descriptor = json.loads((data / "datapackage.json").read_text(encoding="utf-8"))
    descriptor["resources"] = [r for r in descriptor["resources"] if r["name"] != "bilhetes"]
    (folder / "datapackage.json").write_text(json.dumps(descriptor, ensure_ascii=False, indent=2), encoding="utf-8")
    return folder


def in_the_build(data: Path, times: int) -> None:
    """``--na-build``: the builds with and without the tickets, alternately, and the difference per million."""
    with open(data / "bilhetes.csv", "rb") as fh:
        tickets = sum(block.count(b"\n") for block in iter(lambda: fh.read(1 << 24), b"")) - 1
    with tempfile.TemporaryDirectory(prefix="bench-bilhetes-build-") as tmp:
        bare = without_tickets(data, Path(tmp) / "sem-bilhetes")
        runs = {"com": [], "sem": []}
        print(f"{'build':<14}{'tempo (s)':>10}")
        for i in range(times):
            for name, source in (("com bilhetes", data), ("sem bilhetes", bare)):
                seconds = build_seconds(source, Path(tmp) / f"{name.split()[0]}-{i}")
                runs[name.split()[0]].append(seconds)
                print(f"{name:<14}{seconds:>10.1f}", flush=True)
        cost = statistics.median(runs["com"]) - statistics.median(runs["sem"])
        print(f"custo dos bilhetes na build: {cost:.1f} s para {tickets:,} linhas, "
              f"{cost / tickets * 1e6:.2f} s por milhão (meta: 3; medianas de {times})")


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    checkouts.add_options(p, "pacote de origem com bilhetes.csv", 3, "medições")
    p.add_argument("--na-build", action="store_true", help="o custo dos bilhetes na build inteira: com e sem eles")
    args = p.parse_args()
    data = checkouts.package(args.pacote)
    if args.na_build:
        in_the_build(data, args.vezes)
        return 0
    codes = checkouts.codes(args.contra)
    with tempfile.TemporaryDirectory(prefix="bench-bilhetes-") as tmp:
        print(f"{'código':<8}{'linhas':>12}{'tempo (s)':>11}{'CPU (s)':>9}{'s por milhão':>14}")
        for _ in range(args.vezes):
            for name, code in codes.items():
                r = run(code, data, Path(tmp) / name)
                print(f"{name:<8}{r['linhas']:>12}{r['s']:>11.2f}{r['cpu_s']:>9.2f}"
                      f"{r['s'] / r['linhas'] * 1e6 if r['linhas'] else 0:>14.2f}", flush=True)
        if "contra" in codes:
            same = same_files(Path(tmp) / "este", Path(tmp) / "contra")
            print("arquivos publicados: " + ("iguais" if same else "DIFERENTES"))
    print("tempo: ler, validar, derivar e gravar as tabelas em lotes (o banco SQLite num processo à parte, "
          "esperado ao fim); CPU: a do processo que lê (meta: 3 s por milhão de linhas na build inteira)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
