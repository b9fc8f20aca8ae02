"""Benchmark of the whole build (``make bench``): per stage wall time and peak memory, pages per second,
output size, each ratio against a baseline measured in the same run on the same machine, and the scale
curve. Nothing here is a test: the suite only checks that it runs at a tiny scale.

    .venv/bin/python bench/run.py [--scales 0.1,1,3] [--seed 952] [--out bench/out]

Scales are multiples of the national package (`generate --scale national`: 300 carriers, 5,000 lines,
50,000 fares, 20,000 promotions, 10,000 outorgas, 500,000 infractions, 500 caducidades), or `tiny`.
Each build runs in its own process (peak memory is per process), as the nightly job builds: without the
command line's Whoosh index, which is not published (``--sem-whoosh``); that index is then written alone
from the same site and its time printed apart (a local build writes it beside the pages). Baselines, in
the same process:

- validation: ``frictionless`` validating the same package with the same schemas (files, not inline);
- rendering: a bare Jinja2 loop rendering the same templates with the same contexts (and writing the
  same JSON files), split over the same worker processes as the portal's page stage, which is timed
  again alone for the ratio (in the build it shares the cores with the downloads, written meanwhile).
  Each runs twice, alternately; the faster run of each counts. The ratio is taken with both writing to
  memory (``/dev/shm``), where the disk's writeback does not land on whichever runs next; the same pair
  writing to the disk is shown beside it.

Writes ``bench/out/result.json`` and prints one table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
STAGES = ["leitura", "validação", "tabelas em lotes", "derivação", "tabelas em lotes no SQLite", "publicação", "páginas",
          "downloads (em paralelo)", "versão e catálogos", "índice de busca"]
TINY = {"transportadoras": 8, "linhas": 10, "outorgas": 34, "tarifas": 150, "tarifas_promocionais": 20,
        "infracoes": 30, "caducidades": 5}

_CHILD = r"""
import io, json, os, resource, sys, time
from datetime import date
from pathlib import Path
sys.path.insert(0, {root!r})
from pipeline.build import build
from pipeline.tools.progress import LineProgress
from pipeline.contract.settings import Settings

class Measured(LineProgress):
    # the high-water mark of memory when each stage ends (RSS only grows in a process)
    def __init__(self):
        super().__init__(io.StringIO())
        self.peaks = {{}}
    def stage(self, name):
        inner = super().stage(name)
        peaks = self.peaks
        class Wrap:
            def __enter__(self):
                return inner.__enter__()
            def __exit__(self, *exc):
                out = inner.__exit__(*exc)
                peaks[name] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                return out
        return Wrap()

data, out = Path({data!r}), Path({out!r})
progress = Measured()
start = time.perf_counter()
result = build(Settings(data=(data,), out=out, as_of=date(2026, 11, 29), whoosh_dir=None), progress)
timings = dict(result.timings, total=time.perf_counter() - start)
peak_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
children_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024  # the spreadsheet writer, Pagefind
size = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())

# baseline 1: frictionless validating the same files with the same schemas
from frictionless import Package
from pipeline.contract.schema import load_schema
schema = load_schema()
descriptor = schema.source_descriptor()
t = time.perf_counter()
Package(descriptor, basepath=str(data)).validate(limit_errors=10**9)
frictionless_s = time.perf_counter() - t
# against it, ``python -m pipeline validate`` of the same package, in a process of its own as a user runs it
import subprocess
t = time.perf_counter()
subprocess.run([sys.executable, "-m", "pipeline", "validate", str(data)], cwd={root!r}, check=True,
               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
validate_s = time.perf_counter() - t
batched = {{n: {{"linhas": b.data_rows, "s": b.seconds}} for n, b in result.report.batches.items()}}

# baseline 2: a bare Jinja2 loop rendering the record pages with the contexts the generators give them,
# split over the same workers as the portal's renderer; against it, the portal's render stage alone
# (Pelican, the generators, the theme), run again here without the downloads and the Whoosh index
# sharing the cores as they do in the build
import tempfile
from jinja2 import Environment, FileSystemLoader
from pelican.settings import read_settings
from pipeline.tools import parallel
from pipeline.build import render
from pipeline.contract.kinds import BY_NAME as RECORD_KINDS
from pipeline.site import section_pages, template_globals
from pipeline.site.record import as_json
from pipeline.site.context import SiteData
from pipeline.site.filters import FILTERS
descriptor = json.loads((out / "dados" / "datapackage.json").read_text(encoding="utf-8"))
from pipeline.publish.tabular import verification_lines
site = SiteData.build(result.derived, schema, result.report, descriptor,
                      verification_lines(result.derived.tables, descriptor))
import gc
gc.freeze()  # as the build does once the page contexts are made
# what a local build adds: the command line's Whoosh index, written alone from the same site
from pipeline.index import whoosh
t, cpu = time.perf_counter(), time.process_time()
whoosh.build_index(site, out.with_name("busca-" + out.name))
whoosh_s, whoosh_cpu_s = time.perf_counter() - t, time.process_time() - cpu
settings = Settings(data=(data,), out=out, as_of=date(2026, 11, 29))
pelican_settings = read_settings(str(Path({root!r}) / "pelican.conf.py"), override={{"PORTAL_DATA": site}})
env = Environment(loader=FileSystemLoader(str(Path({root!r}) / "theme" / "templates")),
                  **{{k: v for k, v in pelican_settings["JINJA_ENVIRONMENT"].items()}})
env.filters.update(FILTERS)
env.globals.update(pelican_settings["JINJA_GLOBALS"])  # as Pelican gives every template
env.globals.update(template_globals(site))
base = dict(pelican_settings, data=site, as_of=site.as_of)
def bare(items, tmp):
    for url, template, context in items:
        if template is None:  # the same JSON files the page stage writes beside the pages
            for path, value in context().items():
                (Path(tmp) / path).parent.mkdir(parents=True, exist_ok=True)
                (Path(tmp) / path).write_bytes(_json(value))
            continue
        target = Path(tmp) / url / "index.html"
        target.parent.mkdir(parents=True, exist_ok=True)
        page = env.get_template(template + ".html").render(base, page_url="/" + url,
                                                           alternate_json=template in RECORD_KINDS, **context)
        target.write_text(page, encoding="utf-8")
        if template in RECORD_KINDS:  # and each record's JSON beside its page, as the page stage does
            (Path(tmp) / url / "index.json").write_bytes(_json(as_json(context[template])))

# each record page, each section's index pages, and the JSON files the pages' scripts read
from functools import partial
from pipeline.site import _json, datafiles, label
pages = section_pages(site)
bare_pages = len(pages)
work, alone = datafiles.work(pages, site, partial(label, site.schema))  # in the page stage's order and split
# Each is timed twice, alternately, and the faster run counts (as timeit does). Both write their files
# to memory (/dev/shm) for the ratio: on this machine's disk the writeback of one run's 1 GB lands on
# whichever runs next, and the same bare loop took 11.6 s in memory but 16.5 s and then 25.7 s on disk
# (issue 11). The disk's share is measured too, by the same runs written to the disk, and shown apart.
ram = "/dev/shm" if os.path.isdir("/dev/shm") else None
runs = {{}}
for _ in range(2):
    for where in (ram, None):
        for name in ("bare", "render"):
            with tempfile.TemporaryDirectory(dir=where) as tmp:
                os.sync()  # each run starts with the disk's pending writes flushed, not paying for the last run's
                t = time.perf_counter()
                if name == "bare":
                    parallel.split(work, lambda items: bare(items, tmp), settings.workers, alone=alone)
                else:
                    render_pages = render(site, settings, Path(tmp)).pages
                runs.setdefault((name, where), []).append(time.perf_counter() - t)
bare_s, render_s = min(runs["bare", ram]), min(runs["render", ram])
bare_disk_s, render_disk_s = min(runs["bare", None]), min(runs["render", None])
print(json.dumps({{"timings": timings, "peaks": progress.peaks, "peak_mb": peak_mb, "children_mb": children_mb,
                  "pages": result.pages, "bytes": size, "frictionless_s": frictionless_s, "validate_s": validate_s,
                  "batched": batched, "bare_pages": bare_pages,
                  "bare_s": bare_s, "render_pages": render_pages, "render_s": render_s,
                  "bare_disk_s": bare_disk_s, "render_disk_s": render_disk_s,
                  "whoosh_s": whoosh_s, "whoosh_cpu_s": whoosh_cpu_s, "workers": settings.workers}}))
"""


# Seconds to wait, once the removals are written to disk, before a build that follows the removal of
# many files. This machine's disk is ext4 without a journal, where the kernel, to allocate an inode, reads
# and skips one by one the free inodes released in the last 60 s, or 360 s when their inode table block is
# waiting to be written (ext4 ``recently_deleted``), as it is as soon as the build allocates an inode in
# it. The build creates some 90,000 files and folders at national scale: started within minutes of
# removing the previous run's site (or the render comparisons' folders) it spent 5 to 15 s more in the
# kernel (page stage 49 to 58 s instead of 43 s, issue 11). The nightly job removes the old site once the
# new one is in place, a day before its next build; the bench waits the window out so as to measure the
# build as it runs there.
SETTLE_S = 361


def measure(data: Path, out: Path, settle: bool = True) -> dict:
    """One build into a fresh folder, as the nightly job makes it on a new runner. The previous run's
    site is removed first and that removal timed on its own: a rebuild over an existing site pays it
    too (the old site goes once the new one is in place); then, with ``settle``, the bench waits
    :data:`SETTLE_S` for the file system to forget the removed files."""
    t = time.perf_counter()
    for folder in (out, out.with_name("busca-" + out.name)):
        shutil.rmtree(folder, ignore_errors=True)
    removed_s = time.perf_counter() - t
    os.sync()  # the build starts with no pending writes of the removal
    if settle:
        time.sleep(SETTLE_S)
    code = _CHILD.format(root=str(ROOT), data=str(data), out=str(out))
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"the build at {data} failed:\n{proc.stderr[-3000:]}")
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]), removed_s=removed_s)


def scaled(factor: str) -> dict[str, int]:
    from pipeline.sample import SCALES

    if factor == "tiny":
        return dict(TINY)
    f = float(factor)
    counts = {k: max(1, round(v * f)) for k, v in SCALES["national"].items()}
    counts["outorgas"] = max(counts["outorgas"], counts["linhas"] + 20)  # every line has one (generator rule)
    return counts


def table(results: list[tuple[str, dict]]) -> str:
    lines = []
    head = f"{'escala':<8}{'etapa':<28}{'tempo (s)':>11}{'pico (MB)':>11}"
    lines.append(head)
    for name, r in results:
        for stage in STAGES:
            lines.append(f"{name:<8}{stage:<28}{r['timings'].get(stage, 0):>11.2f}{r['peaks'].get(stage, 0):>11.0f}")
        lines.append(f"{name:<8}{'total':<28}{r['timings']['total']:>11.2f}{r['peak_mb']:>11.0f}")
        lines.append(f"{name:<8}{'(processos filhos)':<28}{'':>11}{r.get('children_mb', 0):>11.0f}")
        lines.append(f"{name:<8}{'(site anterior)':<28}{r.get('removed_s', 0):>11.2f}{'':>11}")
        lines.append(f"{name:<8}{'(índice Whoosh, à parte)':<28}{r.get('whoosh_s', 0):>11.2f}{'':>11}")
    lines.append("")
    lines.append(f"{'escala':<8}{'páginas':>9}{'etapa pág/s':>13}{'render (s)':>12}{'render pág/s':>14}"
                 f"{'Jinja2 puro (s)':>17}{'Jinja2 puro pág/s':>19}{'razão':>8}{'render/puro em disco (s)':>26}")
    for name, r in results:
        stage = r["pages"] / r["timings"]["páginas"] if r["timings"].get("páginas") else 0
        render = r["render_pages"] / r["render_s"] if r["render_s"] else 0
        bare = r["bare_pages"] / r["bare_s"] if r["bare_s"] else 0
        lines.append(f"{name:<8}{r['pages']:>9}{stage:>13.0f}{r['render_s']:>12.2f}{render:>14.0f}"
                     f"{r['bare_s']:>17.2f}{bare:>19.0f}{render / bare if bare else 0:>8.2f}"
                     f"{r.get('render_disk_s', 0):>17.2f} / {r.get('bare_disk_s', 0):<6.2f}")
    lines.append("")
    lines.append(f"{'escala':<8}{'validação (s)':>15}{'frictionless (s)':>18}{'razão':>8}{'saída (MB)':>12}"
                 f"{'pipeline validate (s)':>23}{'÷ frictionless':>16}{'build ÷ frictionless':>22}")
    for name, r in results:
        valid, friction = r["timings"].get("validação", 0), r["frictionless_s"]
        lines.append(f"{name:<8}{valid:>15.2f}{friction:>18.2f}{friction / valid if valid else 0:>8.2f}"
                     f"{r['bytes'] / 1e6:>12.1f}{r['validate_s']:>23.2f}{r['validate_s'] / friction:>16.2f}"
                     f"{r['timings']['total'] / friction:>22.2f}")
    lines.append("")
    lines.append(f"{'escala':<8}{'tabela em lotes':<18}{'linhas':>12}{'tempo (s)':>11}{'s por milhão':>14}")
    for name, r in results:
        for table_name, b in sorted(r.get("batched", {}).items()):
            lines.append(f"{name:<8}{table_name:<18}{b['linhas']:>12}{b['s']:>11.2f}"
                         f"{b['s'] / b['linhas'] * 1e6 if b['linhas'] else 0:>14.2f}")
    lines.append("")
    lines.append(f"{'escala':<8}{'total (s)':>11}{'pico (MB)':>11}{'s por 100 mil linhas':>22}")
    for name, r in results:
        rows = r.get("rows") or 0
        per = r["timings"]["total"] / rows * 1e5 if rows else 0
        lines.append(f"{name:<8}{r['timings']['total']:>11.2f}{r['peak_mb']:>11.0f}{per:>22.2f}")
    lines.append("")
    lines.append(f"{'escala':<8}{'busca: página + 1ª consulta (KB)':>34}{'2ª consulta (KB)':>18}{'auto (KB)':>11}"
                 f"{'maior arquivo de autos (KB)':>29}{'índice Pagefind (MB)':>22}")
    for name, r in results:
        b = r.get("busca")
        if not b:
            lines.append(f"{name:<8}  (sem playwright ou /usr/bin/chromium: bytes da busca não medidos)")
            continue
        lines.append(f"{name:<8}{b['first'] / 1e3:>34.0f}{b['second'] / 1e3:>18.0f}{b['notice'] / 1e3:>11.0f}"
                     f"{b['largest_notice_file'] / 1e3:>29.1f}{b['index'] / 1e6:>22.1f}")
    lines.append("")
    lines.append("razões: render = pág/s do estágio de páginas do portal (Pelican, geradores, tema), medido à parte, "
                 "÷ pág/s de um laço Jinja2 puro com os mesmos modelos e contextos (e os mesmos arquivos JSON), nos mesmos "
                 "processos, ambos gravando em memória (/dev/shm), pois a descarga do disco de uma medição cai sobre a "
                 "seguinte; os mesmos dois gravando em disco vêm na última coluna (meta ≥ 0,8); validação = tempo do frictionless ÷ tempo da validação do portal (meta ≥ 0,25). "
                 "pipeline validate ÷ frictionless: 'python -m pipeline validate' do mesmo pacote, num processo à parte, ÷ o frictionless (meta ≤ 0,25); "
                 "build ÷ frictionless: a build inteira ÷ o frictionless (meta ≤ 0,5); tabela em lotes: ler, validar, derivar e gravar os bilhetes, "
                 "num processo à parte (meta ≤ 3 s por milhão). "
                 "'etapa pág/s' é o estágio dentro da build, que divide os núcleos com os downloads. "
                 "A build é a do job noturno, sem o índice Whoosh da busca por linha de comando (não publicado); "
                 "'(índice Whoosh, à parte)' é o tempo de gravá-lo sozinho, o que uma build local soma ao lado das páginas. "
                 "Busca: bytes recebidos pelo Chromium, sem compressão: /busca/?q=goiania com tudo o que a página carrega, "
                 "depois 'brasilia' na mesma página, depois o número de um auto. "
                 "Cada build grava numa pasta nova, como o job noturno; '(site anterior)' é o tempo de apagar o site "
                 "da medição anterior, que uma nova build sobre um site existente também paga; depois de apagá-lo, "
                 f"a medição espera {SETTLE_S} s (ext4 sem journal: ver SETTLE_S em bench/run.py).")
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scales", default="0.1,1,3", help="multiples of the national scale, or tiny")
    p.add_argument("--seed", type=int, default=952)
    p.add_argument("--out", default=str(ROOT / "bench" / "out"))
    args = p.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    import search_bytes

    from pipeline.sample import generate

    results = []
    for factor in args.scales.split(","):
        data = out / f"data-{factor}-{args.seed}"
        if not (data / "datapackage.json").exists():
            t = time.perf_counter()
            counts = generate(scaled(factor), args.seed, data)
            print(f"gerado {factor}x: {sum(counts.values())} linhas em {time.perf_counter() - t:.1f} s", flush=True)
        measured = measure(data, out / f"site-{factor}", settle=factor != "tiny")
        measured["rows"] = sum(scaled(factor).values())
        measured["busca"] = search_bytes.measure(out / f"site-{factor}")
        results.append((f"{factor}x" if factor != "tiny" else factor, measured))
    text = table(results)
    machine = f"{platform.machine()}, {platform.python_version()}, {__import__('os').cpu_count()} núcleos"
    print(f"{time.strftime('%Y-%m-%d')} — {machine}\n{text}")
    # each adapter on a file of the regulator's current layout at its published size, against DuckDB's read_csv
    import ingest as ingest_bench

    tiny = args.scales == "tiny"
    layouts = ingest_bench.measure_layouts(0.01 if tiny else 1.0, 1 if tiny else 3, out)
    print("\nadaptadores: arquivos nos leiautes atuais do regulador, no tamanho publicado"
          + (" (1 %)" if tiny else "") + ", contra o read_csv do DuckDB (meta: razão até 3)")
    ingest_bench.print_layouts(layouts)
    (out / "result.json").write_text(json.dumps({"machine": machine, "results": dict(results), "adaptadores": layouts},
                                                indent=2, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
