"""Benchmark of a realistic night: what the nightly job would publish, measured against its host.

The regulator's seven current layouts at the sizes it publishes (bench/exports.py, synthetic rows written by
the project) and the last twelve months of Monitriip, as ``nightly.toml`` asks, each ingested by its header
(``pipeline ingest FILE``) and built together under a GitHub Pages sub-path. Or, with ``--escala``, a
generated package (``national``, ``national-8-years``) built the same way. It prints:

- the Pages artifact's size as ``actions/upload-pages-artifact`` makes it (``tar --dereference
  --hard-dereference``: hard links copied in full), against the budget (pipeline/publish/hosting.py) and
  GitHub Pages' limit of 1 GB;
- the release's assets (the files that go to the night's GitHub Release, not to Pages), each against the
  2 GiB a release asset may have;
- the largest files and folders of the artifact;
- the build's time and peak memory (the build's process or its largest child, as ``getrusage`` reports them).

    .venv/bin/python bench/night.py [--meses 12] [--escala national-8-years] [--pasta /tmp/bench-noite] [--json F]
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
            "--index", str(folder / "busca")]
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


def mib(n: int) -> str:
    return f"{n / 2**20:,.1f} MiB"


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--meses", type=int, default=12, help="meses de Monitriip (padrão 12, como o nightly.toml)")
    p.add_argument("--escala", choices=["national", "national-8-years"], help="um pacote gerado, em vez dos leiautes")
    p.add_argument("--pasta", default="/tmp/bench-noite")
    p.add_argument("--json", help="grava o resultado também neste arquivo")
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
    if args.json:
        Path(args.json).write_text(json.dumps(r, ensure_ascii=False, indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
