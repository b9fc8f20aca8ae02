"""Benchmark of the tables read in batches alone (``build.batches.run``: read, validate, derive and write the
tickets), with no other stage beside them, against the same run by the code of another checkout, alternately
(the machine's speed drifts by a quarter within an hour: read the pairs, not the seconds). Each run is a
process of its own writing into a fresh folder; the published files of the two codes are compared byte for
byte (the CSV and the Parquet) and by their rows and types (the side database).

    .venv/bin/python bench/tickets.py [--pacote DIR] [--contra CHECKOUT] [--vezes 3]

``--pacote``: a source package holding ``bilhetes.csv`` (default: the national package with a year of
tickets, generated into ``bench/out/data-1-952`` as ``make bench`` makes it). ``--contra``: the root of
another checkout of the project (``git worktree add /tmp/antes <commit>``).
"""

from __future__ import annotations

import argparse
import filecmp
import json
import shutil
import sqlite3
import subprocess
import sys
import tempfile
from pathlib import Path

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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--pacote", help="pacote de origem com bilhetes.csv (padrão: o nacional com um ano de bilhetes)")
    p.add_argument("--contra", help="raiz de outro checkout do projeto, medido alternadamente com este")
    p.add_argument("--vezes", type=int, default=3, help="medições de cada código")
    args = p.parse_args()
    if args.pacote:
        data = Path(args.pacote)
    else:
        sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
        from run import scaled

        from pipeline.sample import generate

        data = ROOT / "bench" / "out" / "data-1-952"
        if not (data / "datapackage.json").is_file():
            generate(scaled("1"), 952, data)
    codes = {"este": ROOT, **({"contra": Path(args.contra).resolve()} if args.contra else {})}
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
