"""`make bench` runs (at a tiny scale: benchmarks are not tests, and nothing here is timed)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import PROJECT_ROOT


@pytest.mark.slow
def test_make_bench_runs_and_prints_its_table(tmp_path):
    proc = subprocess.run(["make", "-s", "bench", "BENCH_SCALES=tiny", f"BENCH_OUT={tmp_path}"], cwd=PROJECT_ROOT,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for stage in ("leitura", "validação", "derivação", "publicação", "páginas", "índice de busca", "total"):
        assert f"tiny    {stage}" in proc.stdout
    assert "Jinja2 puro pág/s" in proc.stdout and "frictionless (s)" in proc.stdout
    result = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))["results"]["tiny"]
    assert result["pages"] > 0 and result["bare_pages"] > 0 and result["frictionless_s"] > 0
    assert set(result["peaks"]) >= {"validação", "páginas"}
    assert result["validate_s"] > 0 and "pipeline validate (s)" in proc.stdout and "build ÷ frictionless" in proc.stdout
    # the build as the nightly job makes it, and the command line's index a local build adds, timed apart
    assert result["whoosh_s"] > 0 and "tiny    (índice Whoosh, à parte)" in proc.stdout
    assert not list(tmp_path.glob("site-tiny/**/_MAIN_*.toc")) and list(tmp_path.glob("busca-site-tiny/_MAIN_*.toc"))
    # the tickets, read in batches: their rows and seconds per million
    assert result["batched"]["bilhetes"]["linhas"] > 0 and "s por milhão" in proc.stdout
    # every adapter of a current layout, measured against DuckDB's bare read of the same file
    layouts = json.loads((tmp_path / "result.json").read_text(encoding="utf-8"))["adaptadores"]
    assert {r["adaptador"] for r in layouts} >= {"antt-monitriip-bilhetes", "antt-pontos-esquema-operacional"}
    assert all(r["linhas"] > 0 and r["ingest_s"] > 0 and r["duckdb_s"] > 0 for r in layouts)
    assert "antt-servicos-paralisados" in proc.stdout and "contra o read_csv do DuckDB" in proc.stdout


@pytest.mark.slow
@pytest.mark.browser
def test_the_journeys_bench_runs_on_the_real_export(real_only_site, browser):
    """bench/journeys.py answers its three pairs on the real export's site (``browser``: Chromium is there)."""
    proc = subprocess.run([sys.executable, "bench/journeys.py", str(real_only_site), "--repeat", "1"],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line.split() for line in proc.stdout.splitlines()[1:4]]
    assert [r[:2] for r in rows] == [["São", "Paulo"], ["Manaus", "São"], ["Foz", "do"]]
    assert "meta: uma baldeação em menos de 1 s" in proc.stdout


@pytest.mark.slow
def test_the_tickets_bench_runs_two_codes_alternately_and_compares_what_they_publish():
    """bench/tickets.py on the sample, this checkout against itself: every row counted, the files the same."""
    proc = subprocess.run([sys.executable, "bench/tickets.py", "--pacote", "datasets", "--contra", ".", "--vezes", "1"],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [line.split() for line in proc.stdout.splitlines()[1:3]]
    assert [(r[0], r[1]) for r in rows] == [("este", "1824"), ("contra", "1824")]
    assert "arquivos publicados: iguais" in proc.stdout


@pytest.mark.slow
def test_the_cpu_bench_gives_each_stage_s_cpu_for_two_codes_and_compares_their_sites():
    """bench/cpu.py on the sample, this checkout against itself: each stage's wall time and CPU, the sites the same."""
    proc = subprocess.run([sys.executable, "bench/cpu.py", "--pacote", "datasets", "--contra", ".", "--comparar"],
                          cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    for label in ("este", "contra"):
        rows = [line.split() for line in proc.stdout.splitlines() if line.startswith(f"{label} ")]
        stages = {" ".join(r[1:-3]): [float(x) for x in r[-3:]] for r in rows
                  if len(r) >= 5 and all(x.replace(".", "", 1).isdigit() for x in r[-3:])}
        assert {"leitura", "validação", "páginas", "total"} <= stages.keys()
        assert stages["total"][0] > 0 and stages["total"][1] > 0  # wall time, user CPU
    assert "sites: iguais" in proc.stdout
