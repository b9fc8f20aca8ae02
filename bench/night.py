"""Benchmark of a realistic night: what the nightly job would publish, measured against its host.

The regulator's seven current layouts at the sizes it publishes (bench/exports.py, synthetic rows written by
the project) and the last twelve months of Monitriip, as ``nightly.toml`` asks, each ingested by its header
(``pipeline ingest FILE``) and built together under a GitHub Pages sub-path, as the nightly job builds them
(without the command line's Whoosh index, which is not published). Or, with ``--escala``, a
generated package (``national``, ``national-8-years``) built the same way. It prints:

- the Pages artifact's size as ``actions/upload-pages-artifact`` makes it (``tar --dereference
  --hard-dereference``: hard links copied in full), against the budget (pipeline/publish/hosting.py) and
  GitHub Pages' limit of 1 GB;
- the release's assets (the files that go to the night's GitHub Release, not to Pages), each against the
  2 GiB a release asset may have;
- the largest files and folders of the artifact;
- the build's time and peak memory (the build's process or its largest child, as ``getrusage`` reports them).

- with ``--segunda-noite F``, a second night built with the first's release as ``--anterior``, its sources the
  first's with one row in ``1/F`` of the timetable and of the paralysed services dropped (departures removed,
  paralyses ended; ``F`` = 1: every row of those two tables changed instead): its time and memory against the
  first night's, measured in the same run, and the pages' own feeds of what changed (pipeline/release/routes.py):
  how many, their share of the artifact, the index that carries them.

    .venv/bin/python bench/night.py [--meses 12] [--escala national-8-years] [--pasta /tmp/bench-noite] [--json F]
                                    [--segunda-noite 20]
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

SITE_URL = "https://exemplo.github.io/portal"
VERSIONS_URL = "https://github.com/exemplo/portal/releases"
AS_OF = "2026-11-29"


def _run(*args: str) -> None:
    done = subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True)
    if done.returncode:
        raise SystemExit(f"python -m pipeline {args[0]} falhou (saída {done.returncode}):\n{done.stderr[-3000:]}")


def current_layouts(folder: Path, months: int) -> list[Path]:
    """The current layouts' files written and ingested by header: the ingested folders."""
    from exports import REAL_SIZES, write_export

    raw, folders = folder / "arquivos", []
    raw.mkdir(parents=True, exist_ok=True)
    for adapter, rows in REAL_SIZES.items():
        if adapter == "antt-monitriip-bilhetes":
            continue
        path = write_export(adapter, rows, raw / f"{adapter}.csv")
        out = folder / f"ingerido-{adapter}"
        _run("ingest", str(path), "--out", str(out), "--data-referencia", "2026-09")
        folders.append(out)
    tickets = []
    for k in range(months):  # the last `months` months before October 2026
        year, month = divmod(2026 * 12 + 9 - months + k, 12)
        tickets.append(write_export("antt-monitriip-bilhetes", REAL_SIZES["antt-monitriip-bilhetes"],
                                    raw / f"venda_passagem_{month + 1:02d}_{year}.csv", seed=952 + k,
                                    period=(year, month + 1)))
    if tickets:
        out = folder / "ingerido-antt-monitriip-bilhetes"
        _run("ingest", "antt-monitriip-bilhetes", *map(str, tickets), "--out", str(out))
        folders.append(out)
    return folders


def generated(folder: Path, scale: str) -> list[Path]:
    package = folder / scale
    if not (package / "datapackage.json").is_file():
        _run("generate", "--scale", scale, "--out", str(package))
    return [package]


def artifact_bytes(site: Path) -> int:
    """The size of the tar ``upload-pages-artifact`` makes of ``site`` (its own flags)."""
    tar = subprocess.Popen(["tar", "--dereference", "--hard-dereference", "--directory", str(site), "-cf", "-",
                            "--exclude=.git", "--exclude=.github", "."], stdout=subprocess.PIPE)
    total = 0
    while block := tar.stdout.read(1 << 20):
        total += len(block)
    if tar.wait():
        raise SystemExit("tar falhou")
    return total


def largest(site: Path, n: int = 12) -> tuple[list[tuple[int, str]], list[tuple[int, str]]]:
    files, folders = [], {}
    for f in site.rglob("*"):
        if f.is_file():
            size = f.stat().st_size
            rel = f.relative_to(site)
            files.append((size, str(rel)))
            top = rel.parts[0] if len(rel.parts) > 1 else "(raiz)"
            if top == "dados" and len(rel.parts) > 2:
                top = "/".join(rel.parts[:2])
            folders[top] = folders.get(top, 0) + size
    return sorted(files, reverse=True)[:n], sorted(((v, k) for k, v in folders.items()), reverse=True)[:n]


def measure(folder: Path, months: int, scale: str | None) -> dict:
    from pipeline.publish import hosting

    started = time.perf_counter()
    folders = generated(folder, scale) if scale else current_layouts(folder, months)
    prepared = time.perf_counter() - started
    site, assets = folder / "site", folder / "release"
    for old in (site, assets):
        shutil.rmtree(old, ignore_errors=True)
    args = ["build", *(a for d in folders for a in ("--data", str(d))), "--out", str(site), "--as-of", AS_OF,
            "--site-url", SITE_URL, "--versoes-url", VERSIONS_URL, "--pasta-release", str(assets),
            "--sem-whoosh"]  # as the nightly job builds: the command line's index is not published
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.perf_counter()
    _run(*args)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    tar = artifact_bytes(site)
    files, tops = largest(site)
    asset_sizes = sorted(((f.stat().st_size, f.name) for f in assets.iterdir() if f.is_file()), reverse=True) \
        if assets.is_dir() else []
    return {"fontes": [d.name for d in folders], "preparo_s": prepared, "build_s": seconds,
            "pico_mb": max(peak, before) / 1024, "artefato_bytes": tar, "orcamento_bytes": hosting.PAGES_BUDGET,
            "limite_pages_bytes": hosting.PAGES_LIMIT, "maiores_arquivos": files, "maiores_pastas": tops,
            "assets": asset_sizes, "limite_asset_bytes": hosting.ASSET_LIMIT}


def changed(folders: list[Path], target: Path, every: int) -> list[Path]:
    """Copies of ``folders`` with one row in ``every`` of ``horarios.csv`` and ``paralisacoes.csv`` dropped, or
    with ``every`` = 1 every departure moved a minute and every paralysis a day later."""
    import csv

    out = []
    for folder in folders:
        copy = target / folder.name
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(folder, copy)
        for name, column in (("horarios.csv", "horario"), ("paralisacoes.csv", "data_paralisacao")):
            path = copy / name
            if not path.is_file():
                continue
            with open(path, encoding="utf-8", newline="") as fh:
                rows = list(csv.reader(fh))
            at = rows[0].index(column)
            if every == 1:
                for row in rows[1:]:
                    row[at] = _later(row[at])
                kept = rows
            else:
                kept = [rows[0]] + [r for n, r in enumerate(rows[1:]) if n % every]
            with open(path, "w", encoding="utf-8", newline="") as fh:
                csv.writer(fh, lineterminator="\r\n").writerows(kept)
        out.append(copy)
    return out


def _later(value: str) -> str:
    """A departure a minute later, a date a day later (a value of neither shape unchanged)."""
    from datetime import date, timedelta

    if len(value) == 5 and value[2] == ":":
        h, m = int(value[:2]), int(value[3:]) + 1
        return f"{(h + m // 60) % 24:02d}:{m % 60:02d}"
    try:
        return (date.fromisoformat(value) + timedelta(days=1)).isoformat()
    except ValueError:
        return value


def second_night(folder: Path, months: int, scale: str | None, every: int) -> dict:
    """The second night (``--segunda-noite``): built from the changed sources with the first night's release
    (its package, kept whole in the release folder) as ``--anterior``."""
    folders = generated(folder, scale) if scale else sorted(folder.glob("ingerido-*"))
    sources = changed(folders, folder / "segunda-noite", every)
    site, assets = folder / "site2", folder / "release2"
    for old in (site, assets):
        shutil.rmtree(old, ignore_errors=True)
    args = ["build", *(a for d in sources for a in ("--data", str(d))), "--out", str(site), "--as-of", "2026-11-30",
            "--site-url", SITE_URL, "--versoes-url", VERSIONS_URL, "--pasta-release", str(assets),
            "--sem-whoosh", "--anterior", str(folder / "release")]
    started = time.perf_counter()
    _run(*args)
    seconds = time.perf_counter() - started
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    feeds = [p for p in site.glob("**/mudancas.atom.xml") if p.parent != site / "feeds"]
    sizes = [p.stat().st_size for p in feeds]
    return {"build_s": seconds, "pico_mb": peak / 1024, "artefato_bytes": artifact_bytes(site), "feeds": len(feeds),
            "feeds_bytes": sum(sizes), "feeds_tar_bytes": sum(512 + -(-n // 512) * 512 for n in sizes),
            "indice_bytes": (site / "dados" / "mudancas-por-registro.json").stat().st_size}


def mib(n: int) -> str:
    return f"{n / 2**20:,.1f} MiB"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--meses", type=int, default=12, help="meses de Monitriip (padrão 12, como o nightly.toml)")
    p.add_argument("--escala", choices=["national", "national-8-years"], help="um pacote gerado, em vez dos leiautes")
    p.add_argument("--pasta", default="/tmp/bench-noite")
    p.add_argument("--json", help="grava o resultado também neste arquivo")
    p.add_argument("--segunda-noite", type=int, metavar="F",
                   help="uma segunda noite com a primeira como --anterior: 1 linha em F de horários e paralisações "
                        "removida (F = 1: todas mudadas)")
    args = p.parse_args()
    folder = Path(args.pasta) / (args.escala or f"leiautes-{args.meses}-meses")
    folder.mkdir(parents=True, exist_ok=True)
    r = measure(folder, args.meses, args.escala)
    print(f"noite: {args.escala or f'leiautes atuais + {args.meses} meses de Monitriip'} (preparo {r['preparo_s']:.0f} s)")
    print(f"build: {r['build_s']:.1f} s, pico de memória {r['pico_mb']:,.0f} MB (meta < 1.536 MB)")
    ok = r["artefato_bytes"] <= r["orcamento_bytes"]
    print(f"artefato do Pages (tar --dereference --hard-dereference): {mib(r['artefato_bytes'])} "
          f"({r['artefato_bytes'] / 1e6:,.0f} MB; orçamento {r['orcamento_bytes'] / 1e6:,.0f} MB: "
          f"{'dentro' if ok else 'ACIMA'}; limite do Pages {r['limite_pages_bytes'] / 1e9:.0f} GB)")
    print("maiores pastas: " + ", ".join(f"{k} {mib(v)}" for v, k in r["maiores_pastas"]))
    print("maiores arquivos: " + ", ".join(f"{k} {mib(v)}" for v, k in r["maiores_arquivos"]))
    total = sum(v for v, _ in r["assets"])
    print(f"assets da release: {len(r['assets'])} arquivos, {mib(total)}; o maior "
          + (f"{r['assets'][0][1]} {mib(r['assets'][0][0])} (limite {mib(r['limite_asset_bytes'])})" if r["assets"] else "-"))
    if args.segunda_noite:
        r["segunda_noite"] = n = second_night(folder, args.meses, args.escala, args.segunda_noite)
        what = "todas as linhas mudadas" if args.segunda_noite == 1 else f"1 linha em {args.segunda_noite} removida"
        print(f"segunda noite ({what} de horários e paralisações; a primeira como --anterior): build {n['build_s']:.1f} s "
              f"({n['build_s'] / r['build_s']:.2f}x a primeira), pico das duas noites {n['pico_mb']:,.0f} MB, artefato "
              f"{mib(n['artefato_bytes'])}; feeds das páginas: {n['feeds']:,}, {mib(n['feeds_bytes'])} "
              f"({mib(n['feeds_tar_bytes'])} no tar), índice mudancas-por-registro.json {mib(n['indice_bytes'])}")
    if args.json:
        Path(args.json).write_text(json.dumps(r, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
