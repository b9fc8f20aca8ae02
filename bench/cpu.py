"""Where a build's CPU goes, stage by stage: the wall time of each stage beside the user and system CPU of the
build and of its worker processes reaped in that stage (``getrusage``; the downloads' and the Whoosh index's
processes are counted in the stage that waits for them). A build that keeps both cores busy has a CPU time
near twice its wall time, and then only less work makes it faster.

    .venv/bin/python bench/cpu.py [--pacote DIR] [--contra CHECKOUT] [--vezes 1]

``--pacote``: a source package (default: the national package with a year of tickets, generated into
``bench/out/data-1-952`` as ``make bench`` makes it). ``--contra``: the root of another checkout of the
project (``git worktree add /tmp/antes <commit>``), built alternately with this one (the machine's speed
drifts by a sixth within minutes: read the pairs). Each build is a process of its own writing into a fresh
folder in memory (``/dev/shm`` where there is one: no disk writeback of one build lands on the next, and no
removal slows the next one's file creation, see the README), removed once measured; the release's name is
fixed, so that the sites of the two codes can be compared (``--comparar``: ``diff -r`` of the first pair).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import checkouts

_CHILD = r"""
import io, json, resource, sys, time
from datetime import date
from pathlib import Path
sys.path.insert(0, {root!r})
import pipeline.release.versions as versions
versions.input_version = lambda *a, **k: "v-bench"  # the same name for both codes: their sites compare
from pipeline.build import build
from pipeline.contract.settings import Settings
from pipeline.tools.progress import LineProgress

def cpu():
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + children.ru_utime, own.ru_stime + children.ru_stime, time.perf_counter()

stages = []

class Measured(LineProgress):
    def stage(self, name):
        inner = super().stage(name)
        class Stage:
            def __enter__(self):
                self.start = cpu()
                return inner.__enter__()
            def __exit__(self, *exc):
                out = inner.__exit__(*exc)
                end = cpu()
                stages.append([name, end[2] - self.start[2], end[0] - self.start[0], end[1] - self.start[1]])
                return out
        return Stage()

out = Path({out!r})
start = cpu()
build(Settings(data=(Path({data!r}),), out=out, as_of=date(2026, 11, 29), whoosh_dir=out.with_name(out.name + "-busca")),
      Measured(io.StringIO()))
end = cpu()
stages.append(["total", end[2] - start[2], end[0] - start[0], end[1] - start[1]])
print(json.dumps(stages))
"""


def run(code: Path, data: Path, out: Path) -> list[list]:
    """One build by the code at ``code``: ``[stage, wall, user, system]`` per stage, then the total."""
    proc = subprocess.run([sys.executable, "-c", _CHILD.format(root=str(code), data=str(data), out=str(out))],
                          capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"a build by {code} failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def table(label: str, stages: list[list]) -> str:
    lines = [f"{label:8s} {'etapa':30s} {'tempo (s)':>10s} {'CPU usuário':>12s} {'CPU sistema':>12s}"]
    lines += [f"{label:8s} {name:30s} {wall:10.2f} {user:12.2f} {system:12.2f}" for name, wall, user, system in stages]
    wall, user, system = stages[-1][1:]
    lines.append(f"{label:8s} núcleos ocupados em média: {(user + system) / wall:.2f}")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    checkouts.add_options(p, "pacote de origem", 1, "builds")
    p.add_argument("--comparar", action="store_true", help="compara os sites do primeiro par (diff -r)")
    args = p.parse_args()
    data = checkouts.package(args.pacote)
    codes = checkouts.codes(args.contra)
    memory = "/dev/shm" if os.path.isdir("/dev/shm") else None
    with tempfile.TemporaryDirectory(dir=memory, prefix="bench-cpu-") as tmp:
        for time_ in range(args.vezes):
            compare = args.comparar and time_ == 0 and len(codes) > 1
            for label, code in codes.items():
                print(table(label, run(code, data.resolve(), Path(tmp) / label)), flush=True)
            if compare:
                same = subprocess.run(["diff", "-rq", str(Path(tmp) / "este"), str(Path(tmp) / "contra")],
                                      capture_output=True, text=True).stdout
                print("sites: iguais" if not same else f"sites: diferem\n{same[:2000]}", flush=True)
            for label in codes:  # removed before the next build: see the module's note
                shutil.rmtree(Path(tmp) / label)
                shutil.rmtree(Path(tmp) / f"{label}-busca", ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
