"""The hostile corpus (tests/hostile/), run in strict and lenient mode, and the classes of bad input that
are not about a package's content: the regulator's exports, the folders the tools write, the command line,
the search index and the swap. Every class ends in a pt-BR message naming file, line, column, value and
rule, or in correct output; never a traceback, never exit 0 with a row lost."""

from __future__ import annotations

import csv
import errno
import io
import json
import shutil
import sqlite3
from datetime import date
from pathlib import Path

import pytest
from conftest import FIXTURES, MINIMAL, cli, xlsx_text
from hostile.cases import ACCEPTS, CASES, FAILS, MASKS, REJECTS, Case, params

from pipeline.build import BuildError, batches, build
from pipeline.contract.identifiers import mask_cpf
from pipeline.contract.settings import Settings
from pipeline.derive import derive
from pipeline.publish.tabular import rejected_frame
from pipeline.read import read_source
from pipeline.tools import folders
from pipeline.validate import validate

AS_OF = date(2026, 6, 30)
ENGLISH = ("constraint", "Row at position", " is not ", "does not conform", "The cell", "codec", "position",
           "Error", "expected", "invalid start byte")


def prepared(case: Case, tmp_path: Path) -> Path:
    folder = tmp_path / "pacote"
    shutil.copytree(MINIMAL, folder)
    case.mutate(folder)
    return folder


def named(problem, case: Case) -> bool:
    """The problem names the case's file (relative to its folder), line and column."""
    target = "datapackage.json" if case.tabela == "datapackage" else f"{case.tabela}.csv"
    return (
        problem.arquivo.startswith("pacote/")
        and problem.arquivo.split("/", 1)[1].startswith(target.split(".")[0])
        and (case.linha is None or problem.linha == case.linha)
        and (case.coluna is None or problem.coluna == case.coluna)
    )


def test_the_corpus_covers_every_table_and_class():
    tables = {c.tabela for c in CASES}
    assert tables >= {"transportadoras", "linhas", "secoes", "outorgas", "horarios", "tarifas",
                      "tarifas_promocionais", "infracoes", "caducidades", "datapackage"}
    assert len({c.classe for c in CASES}) >= 40 and len(CASES) >= 150


def checked(folder: Path, schema, lenient: bool, out: Path):
    """Read and validate as the build does (pipeline/build/__init__.py ``check``): the other tables in this process,
    a table read in batches (``bilhetes``) by pipeline/build/batches.py, which writes its files into ``out``."""
    source = read_source([folder], schema)
    report = validate(source, schema, lenient=lenient)
    out.mkdir(parents=True, exist_ok=True)  # before the child starts writing into it, as the build makes it
    pending = batches.start([folder], schema, lenient=lenient, as_of=AS_OF, out=out)
    if pending is not None:
        batches.attach(report, pending, lenient=lenient)
    return source, report


@pytest.mark.parametrize("case", params(CASES, [f"{n}-{c.id}" for n, c in enumerate(CASES)]))
def test_case_in_strict_and_lenient_mode(case, tmp_path, schema):
    folder = prepared(case, tmp_path)
    source, report = checked(folder, schema, False, tmp_path / "estrito")
    read = sum(len(t.rows) for t in source.tables.values()) + sum(b.well_formed for b in report.batches.values())

    # strict (the default build): the report names the rule, file, line and column, in pt-BR
    for p in report.problems:  # Frictionless' or Python's English never leaks into a message
        assert not any(w in p.detalhe for w in ENGLISH), p.detalhe
    if not case.regras:
        assert report.valid, [p.mensagem for p in report.errors]
    else:
        assert not report.valid and report.accepted == {}
        hits = [p for p in report.errors if p.regra in case.regras]
        assert hits, [p.mensagem for p in report.errors]
        assert any(named(p, case) for p in hits), [p.mensagem for p in hits]
        for p in report.errors:  # every message says where and which rule
            assert p.mensagem.startswith(p.arquivo) and p.mensagem.endswith(f"[regra {p.regra}]")
            if p.linha is not None and p.linha > 1:
                assert f"linha {p.linha}" in p.mensagem

    # lenient: the row is refused and kept in rejeitados, or the whole file stops the build
    _, report = checked(folder, schema, True, tmp_path / "tolerante")
    if case.lenient == FAILS:
        assert report.accepted == {}  # nothing is published around a file that could lose rows
        return
    assert report.accepted
    if case.lenient == MASKS:  # the row is kept, the CPF masked in it, a warning names the cell
        assert report.valid, [p.mensagem for p in report.errors]
        [warning] = [p for p in report.warnings if p.regra == "cpf-mascarado"]
        assert named(warning, case)
        if case.tabela in report.batches:  # published as it was read: its CSV holds the rows kept
            with open(tmp_path / "tolerante" / f"{case.tabela}.csv", encoding="utf-8", newline="") as fh:
                cells = [r[case.coluna] for r in csv.DictReader(fh)]
        else:
            kept = report.accepted[case.tabela]
            cells = [r[kept.columns.index(case.coluna)] for r in kept.rows]
        assert mask_cpf(case.valor) in cells and case.valor not in cells and mask_cpf(case.valor) != case.valor
        return
    if case.lenient == REJECTS:
        hits = [p for p in report.errors if p.regra in case.regras and p.linha is not None]
        assert hits
        rejected = rejected_frame(report, schema)
        assert {(p.arquivo, p.linha) for p in hits} <= set(zip(rejected["arquivo"], rejected["linha"]))
        accepted = sum(len(t.rows) for t in report.accepted.values()) + sum(b.kept for b in report.batches.values())
        # a row of the wrong width is never read as a record: it is reported, with its cells, and only that
        assert accepted < read or {p.regra for p in hits} == {"largura-da-linha"}
        # every later stage takes what was accepted
        derived = derive(report.accepted, schema, AS_OF, batches=report.batches)
        assert sum(derived.rows(n) for n in schema.tables) == accepted
        # every row is accounted for: read = kept + repeated by a later source + refused
        row = report.accounting[case.tabela]
        assert row["lidas"] == row["mantidas"] + row["duplicadas"] + row["rejeitadas"] and row["rejeitadas"] >= 1
        assert row["mantidas"] == derived.rows(case.tabela)
        return
    assert case.lenient == ACCEPTS and report.valid


ACCEPTED = [c for c in CASES if c.lenient == ACCEPTS]


@pytest.mark.parametrize("case", ACCEPTED, ids=[c.id for c in ACCEPTED])
def test_valid_hostile_text_is_published_intact(case, tmp_path):
    from openpyxl import load_workbook

    site = tmp_path / "site"
    build(Settings(data=(prepared(case, tmp_path),), out=site, as_of=AS_OF, search_index=False))
    dados = site / "dados"
    table = case.tabela
    with open(dados / f"{table}.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    records = json.loads((dados / f"{table}.json").read_text(encoding="utf-8"))
    assert len(rows) == len(records)  # a CR or LF inside a cell does not split a record
    formula = case.valor.startswith(("=", "+", "-", "@", "\t", "\r"))
    shown = "'" + case.valor if formula else case.valor
    assert shown in [v for r in rows for v in r.values()]
    assert case.valor in [v for r in records for v in r.values()]
    book = load_workbook(dados / f"{table}.xlsx", read_only=True)  # a text cell is never evaluated: as it is
    assert case.valor in [xlsx_text(c) for row in book.active.iter_rows(values_only=True) for c in row]
    with sqlite3.connect(dados / "portal.sqlite") as db:
        assert db.execute(f"select count(*) from {table}").fetchone()[0] == len(records)
    html = "".join(p.read_text(encoding="utf-8") for p in site.rglob("*.html"))
    assert "<img src=x" not in html and "<script>alert" not in html


def test_a_failed_lenient_build_keeps_the_previous_site(tmp_path):
    case = next(c for c in CASES if c.classe == "aspas-sem-fechamento" and c.tabela == "tarifas")
    site = tmp_path / "site"
    build(Settings(data=(MINIMAL,), out=site, as_of=AS_OF, search_index=False))
    before = (site / "index.html").read_bytes()
    with pytest.raises(BuildError):
        build(Settings(data=(prepared(case, tmp_path),), out=site, as_of=AS_OF, search_index=False, lenient=True))
    assert (site / "index.html").read_bytes() == before


# --- several sources ------------------------------------------------------------------------------


def test_identical_rows_with_an_empty_cell_in_two_sources_are_kept_once(tmp_path, schema):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(MINIMAL, a)
    b.mkdir()
    rows = (a / "horarios.csv").read_text(encoding="utf-8").splitlines()
    rows[1] = rows[1].replace("2012-02-29", "", 1)  # no authorisation date: an empty cell
    (a / "horarios.csv").write_text("\n".join(rows) + "\n", encoding="utf-8")
    shutil.copy(a / "horarios.csv", b / "horarios.csv")
    one = validate(read_source([a], schema), schema)
    two = validate(read_source([a, b], schema), schema)
    assert len(two.accepted["horarios"].rows) == len(one.accepted["horarios"].rows)
    freq = derive(two.accepted, schema, AS_OF).tables["linhas"]
    single = derive(one.accepted, schema, AS_OF).tables["linhas"]
    assert list(freq["frequencia_semanal_ida"]) == list(single["frequencia_semanal_ida"])  # not doubled


def test_a_repeated_key_inside_one_of_two_sources_stays_an_error(tmp_path, schema):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(MINIMAL, a)
    b.mkdir()
    shutil.move(a / "tarifas.csv", b / "tarifas.csv")
    first = (a / "linhas.csv").read_text(encoding="utf-8").splitlines()[1]
    with open(a / "linhas.csv", "a", encoding="utf-8") as fh:
        fh.write(first.replace("298.5", "300") + "\n")
    report = validate(read_source([a, b], schema), schema)
    assert any(p.regra in ("chave-primaria", "unico") and p.grave for p in report.errors)


# --- the regulator's exports ----------------------------------------------------------------------

ANTT = FIXTURES / "antt"


def export_copy(tmp_path: Path, change) -> Path:
    path = tmp_path / "quadro.csv"
    path.write_bytes(change((ANTT / "horarios-formato-novo.csv").read_bytes()))
    return path


def ingest_cli(path: Path, out: Path):
    return cli("ingest", "antt-horarios", str(path), "--out", str(out))


def test_export_with_a_stray_latin1_byte_in_utf8_is_refused_by_line(tmp_path):
    text = (ANTT / "horarios-formato-novo.csv").read_bytes().decode("latin-1")
    lines = text.split("\n")
    lines[1] = lines[1].replace("VIACAO", "VIAÇÃO")
    data = "\n".join(lines).encode("utf-8")
    third = data.split(b"\n")
    third[3] = third[3] + b"\xe9"
    proc = ingest_cli(export_copy(tmp_path, lambda _: b"\n".join(third)), tmp_path / "out")
    assert proc.returncode == 1
    assert "linha 4" in proc.stderr and "mistura duas codificações" in proc.stderr
    assert not (tmp_path / "out").exists()


def test_utf16_export_is_an_encoding_error(tmp_path):
    proc = ingest_cli(export_copy(tmp_path, lambda d: d.decode("latin-1").encode("utf-16")), tmp_path / "out")
    assert proc.returncode == 1 and "UTF-16" in proc.stderr


def test_export_with_an_unclosed_quote_is_refused_where_it_opens(tmp_path):
    def change(d: bytes) -> bytes:
        lines = d.split(b"\n")
        lines[2] = lines[2].replace(b";", b';"', 1)
        return b"\n".join(lines)

    proc = ingest_cli(export_copy(tmp_path, change), tmp_path / "out")
    assert proc.returncode == 1 and "linha 3: o CSV não pôde ser lido" in proc.stderr
    assert "aspas abertas que não se fecham até o fim do arquivo" in proc.stderr


def test_export_rows_differing_only_in_spaces_are_duplicates(tmp_path):
    def change(d: bytes) -> bytes:
        lines = d.rstrip(b"\n").split(b"\n")
        return b"\n".join(lines + [lines[1].replace(b";", b" ; ", 2)]) + b"\n"

    out = tmp_path / "out"
    proc = ingest_cli(export_copy(tmp_path, change), out)
    assert proc.returncode == 0, proc.stderr
    report = json.loads((out / "ingest-report.json").read_text(encoding="utf-8"))
    assert report["duplicadas"] == 1 and report["duplicadas_detalhe"][0]["igual_a_linha"] == 2
    assert report["lidas"] == report["mantidas"] + report["mescladas"] + report["duplicadas"] + report["rejeitadas"]


# --- the folders the tools write -------------------------------------------------------------------


@pytest.mark.parametrize("command", [
    ["ingest", "antt-horarios", str(ANTT / "horarios-formato-novo.csv")],
    ["generate", "--scale", "small"],
    ["build", "--no-search", "--data", str(MINIMAL)],
])
def test_tools_refuse_a_folder_they_did_not_make(command, tmp_path):
    foreign = tmp_path / "meus-documentos"
    foreign.mkdir()
    (foreign / "carta.txt").write_text("não apague", encoding="utf-8")
    proc = cli(*command, "--out", str(foreign))
    assert proc.returncode in (1, 2)
    assert "não foi gerada pelo portal" in proc.stderr and "Traceback" not in proc.stderr
    assert (foreign / "carta.txt").read_text(encoding="utf-8") == "não apague"
    root = cli(*command, "--out", "/")
    assert root.returncode in (1, 2) and "raiz" in root.stderr


def test_tools_write_a_folder_they_made_again(tmp_path):
    out = tmp_path / "amostra"
    assert cli("generate", "--scale", "small", "--out", str(out)).returncode == 0
    assert (out / folders.OWNED_MARKER).is_file()
    assert cli("generate", "--scale", "small", "--out", str(out)).returncode == 0


def test_out_dot_is_refused_before_any_stage(tmp_path):
    import os
    import subprocess
    import sys

    from pipeline import PROJECT_ROOT

    (tmp_path / "algo.txt").write_text("x", encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "pipeline", "build", "--data", str(MINIMAL), "--out", ".",
                           "--no-search"], cwd=tmp_path, capture_output=True, text=True,
                          env={**os.environ, "PYTHONPATH": str(PROJECT_ROOT)})
    assert proc.returncode == 2 and "não foi gerada pelo portal" in proc.stderr
    assert "[leitura]" not in proc.stdout + proc.stderr


def test_a_full_disk_during_the_build_keeps_the_previous_site(tmp_path, monkeypatch, capsys):
    from pipeline import __main__ as cli
    from pipeline.publish import tabular

    site = tmp_path / "site"
    assert cli.main(["build", "--data", str(MINIMAL), "--out", str(site), "--no-search"]) == 0
    before = (site / "index.html").read_bytes()

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "linhas.csv")

    monkeypatch.setattr(tabular, "write_csv", full)
    assert cli.main(["build", "--data", str(MINIMAL), "--out", str(site), "--no-search"]) == 1
    assert "disco cheio: linhas.csv" in capsys.readouterr().err
    assert (site / "index.html").read_bytes() == before
    assert not list(tmp_path.glob(".site.*"))


def test_a_full_disk_during_ingest_leaves_no_partial_package(tmp_path, monkeypatch, capsys):
    from pipeline import __main__ as cli
    from pipeline.adapters import columnar

    def full(*args, **kwargs):
        raise OSError(errno.ENOSPC, "No space left on device", "horarios.csv")

    # the engine writes each table by rows or by column: the disk is full for either
    monkeypatch.setattr(columnar, "write_table", full)
    monkeypatch.setattr(columnar, "write_columns", full)
    out = tmp_path / "pacote"
    assert cli.main(["ingest", "antt-horarios", str(ANTT / "horarios-formato-novo.csv"), "--out", str(out)]) == 1
    assert "disco cheio" in capsys.readouterr().err
    assert not out.exists() and not list(tmp_path.glob(".pacote.*"))


def test_the_swap_is_one_atomic_exchange(tmp_path, monkeypatch):
    out, staging = tmp_path / "site", tmp_path / ".site.staging"
    out.mkdir()
    (out / "index.html").write_text("antigo", encoding="utf-8")
    staging.mkdir()
    (staging / "index.html").write_text("novo", encoding="utf-8")

    def no_rename(self, target):  # were the swap two renames, a crash between them would leave no site
        raise AssertionError("swap used rename")

    monkeypatch.setattr(Path, "rename", no_rename)
    folders.swap_into_place(staging, out)
    assert (out / "index.html").read_text(encoding="utf-8") == "novo" and not staging.exists()


# --- the command line ------------------------------------------------------------------------------


def test_empty_as_of_is_an_error_not_today(tmp_path):
    proc = cli("build", "--data", str(MINIMAL), "--out", str(tmp_path / "s"), "--as-of", "", "--no-search")
    assert proc.returncode == 2 and '--as-of "" não é uma data' in proc.stderr


def test_report_into_a_missing_folder_is_a_message(tmp_path):
    proc = cli("validate", str(MINIMAL), "--report", str(tmp_path / "nao" / "existe" / "r.json"))
    assert proc.returncode == 1 and "pasta inexistente" in proc.stderr and "Traceback" not in proc.stderr


def test_search_limit_zero_and_a_damaged_index(tmp_path):
    proc = cli("search", "caldas", "--limit", "0", "--index", str(tmp_path))
    assert proc.returncode == 2 and "não é um número inteiro maior que zero" in proc.stderr
    index = tmp_path / "busca"
    site = tmp_path / "site"
    build(Settings(data=(MINIMAL,), out=site, as_of=AS_OF, whoosh_dir=index))
    for segment in index.glob("*.seg"):
        segment.write_bytes(segment.read_bytes()[:40])  # truncated
    proc = cli("search", "caldas", "--index", str(index))
    assert proc.returncode == 2 and "danificado" in proc.stderr + proc.stdout and "Traceback" not in proc.stderr


def test_a_wide_cell_of_many_mebibytes_is_located(tmp_path, schema):
    folder = tmp_path / "pacote"
    shutil.copytree(MINIMAL, folder)
    with open(folder / "linhas.csv", "a", encoding="utf-8") as fh:
        fh.write("99-9999-99,\"" + "x" * (17 * 1024 * 1024) + "\",A,GO,B,GO,interestadual,,\n")
    report = validate(read_source([folder], schema), schema)
    problem = next(p for p in report.errors if p.regra == "csv-ilegivel")
    assert problem.arquivo == "pacote/linhas.csv" and problem.linha == 5  # where the record begins
    assert "uma célula passa do tamanho máximo" in problem.mensagem


def test_published_csv_stays_rfc_4180_with_bare_carriage_returns(tmp_path):
    folder = tmp_path / "pacote"
    shutil.copytree(MINIMAL, folder)
    text = (folder / "transportadoras.csv").read_text(encoding="utf-8").replace("VIACAO CERRADO LTDA", '"A\rB"')
    (folder / "transportadoras.csv").write_text(text, encoding="utf-8")
    site = tmp_path / "site"
    build(Settings(data=(folder,), out=site, as_of=AS_OF, search_index=False))
    data = (site / "dados" / "transportadoras.csv").read_bytes()
    assert b'"A\rB"' in data and data.count(b"\r\n") == len(list(csv.reader(io.StringIO(data.decode()))))


def test_the_build_prints_its_row_accounting_per_table(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    shutil.copytree(MINIMAL, a)
    b.mkdir()
    shutil.copy(a / "linhas.csv", b / "linhas.csv")  # the same three lines again, from a second source
    with open(a / "tarifas.csv", "a", encoding="utf-8") as fh:
        fh.write("12-0140-00,BRASILIA,CALDAS NOVAS,executivo,inf,2020-01-01,reajuste,\n")
    proc = cli("build", "--data", str(a), "--data", str(b), "--out", str(tmp_path / "s"), "--no-search",
               "--lenient", "--as-of", "2026-06-30")
    assert proc.returncode == 0, proc.stderr
    assert "linhas: 6 lidas = 3 mantidas + 3 duplicadas + 0 rejeitadas" in proc.stdout
    assert "tarifas: 7 lidas = 6 mantidas + 0 duplicadas + 1 rejeitadas" in proc.stdout
    counts = json.loads((tmp_path / "s" / "dados" / "validacao.json").read_text(encoding="utf-8"))["contagem"]
    assert counts["tarifas"] == {"lidas": 7, "mantidas": 6, "duplicadas": 0, "rejeitadas": 1}
    with open(tmp_path / "s" / "dados" / "tarifas.csv", encoding="utf-8", newline="") as fh:
        assert len(list(csv.DictReader(fh))) == 6  # the published count is the kept count


def test_a_full_disk_in_the_background_spreadsheet_writer_keeps_the_previous_site(tmp_path, monkeypatch, capsys):
    from pipeline import __main__ as cli
    from pipeline.publish import spreadsheet

    site = tmp_path / "site"
    assert cli.main(["build", "--data", str(MINIMAL), "--out", str(site), "--no-search"]) == 0
    before = (site / "index.html").read_bytes()

    def full(df, resource, path, *rest, **kwargs):  # runs in the forked writers, which inherit the patch
        raise OSError(errno.ENOSPC, "No space left on device", path.name)

    monkeypatch.setattr(spreadsheet, "write_xlsx", full)
    assert cli.main(["build", "--data", str(MINIMAL), "--out", str(site), "--no-search"]) == 1
    assert "disco cheio: transportadoras.xlsx" in capsys.readouterr().err
    assert (site / "index.html").read_bytes() == before and not list(tmp_path.glob(".site.*"))
