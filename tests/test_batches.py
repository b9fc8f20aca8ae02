"""A table read a batch at a time (``x-em-lotes``: Monitriip's tickets, pipeline/build/batches.py) publishes what
the same table read whole would: the batch size changes no byte a user downloads or reads, repeats and bad
rows are found across batches, and each problem names its file and line."""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import sqlite3
from datetime import date
from pathlib import Path

import numpy as np
import pyarrow.parquet as pq
import pytest
from conftest import page_text, snapshot

from pipeline import SAMPLE_DIR
from pipeline.build import BuildError, batches, build, check
from pipeline.contract.settings import Settings
from pipeline.publish import database, spreadsheet

AS_OF = date(2026, 11, 29)


def _build(data: Path, out: Path, **kw):
    return build(Settings(data=(data,), out=out, as_of=AS_OF, search_index=False, **kw))


def _csv_rows(path: Path) -> list[dict]:
    with open(path, encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def sample_copy(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("amostra") / "dados"
    shutil.copytree(SAMPLE_DIR, folder)
    return folder



def test_the_tickets_own_database_becomes_the_portals_with_the_table_any_table_gets(sample_copy, tmp_path):
    """The tickets are inserted, as they are read, into a file of their own that then becomes portal.sqlite: their
    table is declared as the database declares any table (typed, keyed by linha_csv, required columns NOT NULL),
    numbered in the CSV's order, beside every other table, and no file of its own is left."""
    import sqlite_utils

    from pipeline.publish.database import create_table

    _build(sample_copy, tmp_path / "site")
    dados = tmp_path / "site" / "dados"
    resource = next(r for r in json.loads((dados / "datapackage.json").read_text(encoding="utf-8"))["resources"]
                    if r["name"] == "bilhetes")
    fresh = sqlite3.connect(":memory:")
    create_table(sqlite_utils.Database(fresh), resource)
    declared = "select sql from sqlite_master where name = 'bilhetes'"
    with sqlite3.connect(dados / "portal.sqlite") as db:
        assert db.execute(declared).fetchone() == fresh.execute(declared).fetchone()
        assert "NOT NULL" in db.execute(declared).fetchone()[0]
        rows = db.execute("select linha_csv, quantidade, typeof(quantidade) from bilhetes order by linha_csv").fetchall()
        tables = {n for (n,) in db.execute("select name from sqlite_master where type = 'table'")}
        assert db.execute("pragma integrity_check").fetchall() == [("ok",)]
    source = _csv_rows(sample_copy / "bilhetes.csv")
    assert rows == [(i, int(r["quantidade"]), "integer") for i, r in enumerate(source, 1)]
    assert {"transportadoras", "linhas", "infracoes", "_metadados", "bilhetes"} <= tables
    assert not [p.name for p in dados.iterdir() if p.name.endswith(".sqlite") and p.name != "portal.sqlite"]


def test_the_batch_size_changes_nothing_a_user_downloads_or_reads(sample_copy, tmp_path, monkeypatch):
    whole = _build(sample_copy, tmp_path / "inteira")
    monkeypatch.setattr(batches, "BATCH_ROWS", 97)  # the sample's 1,824 tickets in 19 batches
    parts = _build(sample_copy, tmp_path / "lotes")
    a, b = tmp_path / "inteira", tmp_path / "lotes"
    source = _csv_rows(sample_copy / "bilhetes.csv")
    published = _csv_rows(b / "dados" / "bilhetes.csv")
    assert len(published) == len(source) == parts.report.accounting["bilhetes"]["mantidas"] == 1824
    assert [r["quantidade"] for r in published] == [r["quantidade"] for r in source]  # in the file's order
    for name in ("bilhetes.csv", "bilhetes.json", "bilhetes.xlsx", "validacao.json", "portal.sqlite"):
        assert (a / "dados" / name).read_bytes() == (b / "dados" / name).read_bytes(), name

    def sums(site):  # a Parquet file's row groups follow the batches: its bytes, not its rows, differ
        return [x for x in (site / "dados" / "SHA256SUMS").read_text().splitlines() if ".parquet" not in x]
    assert sums(a) == sums(b)
    assert pq.read_table(a / "dados" / "bilhetes.parquet").to_pylist() == \
        pq.read_table(b / "dados" / "bilhetes.parquet").to_pylist()
    with sqlite3.connect(a / "dados" / "portal.sqlite") as x, sqlite3.connect(b / "dados" / "portal.sqlite") as y:
        query = "select * from bilhetes order by rowid"
        assert x.execute(query).fetchall() == y.execute(query).fetchall()
        assert x.execute("select count(*) from bilhetes").fetchone()[0] == 1824
    def page(site, path):  # but for the Parquet file's size and hash
        return re.sub(r"bilhetes\.parquet Parquet [0-9,]+ [KMG]?B [0-9a-f]{64}", "", page_text(site / path))
    for path in ("dados/index.html", "dados/bilhetes/index.html"):
        assert page(a, path) == page(b, path), path
    assert "1.824" in page_text(b / "dados" / "index.html")
    # every pair answer, tickets month by month included, is the same
    answers = sorted((a / "cidades").rglob("*.json"))
    assert answers and all(p.read_bytes() == (b / p.relative_to(a)).read_bytes() for p in answers)
    assert whole.report.accounting["bilhetes"] == parts.report.accounting["bilhetes"]


def test_the_tickets_read_here_or_in_a_child_publish_the_same_site(sample_copy, tmp_path, monkeypatch):
    """Files under ``batches.IN_PROCESS_BYTES`` are read in the build's process, larger ones in a child of
    their own: either way every file of the site is the same, byte for byte."""
    pids = tmp_path / "pids"
    run = batches.run

    def run_and_say_where(*args, **kwargs):
        with open(pids, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()}\n")
        return run(*args, **kwargs)

    monkeypatch.setattr(batches, "run", run_and_say_where)
    inserts = tmp_path / "inserts"
    fill = database.SideTable._fill

    def fill_and_say_where(self, batches_):  # the process that inserts the rows: its parent and its niceness
        with open(inserts, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getppid()} {os.nice(0)}\n")
        return fill(self, batches_)

    monkeypatch.setattr(database.SideTable, "_fill", fill_and_say_where)
    _build(sample_copy, tmp_path / "aqui")
    monkeypatch.setattr(batches, "IN_PROCESS_BYTES", 0)
    _build(sample_copy, tmp_path / "filho")
    here_pid, child_pid = pids.read_text().split()
    assert here_pid == str(os.getpid()) != child_pid
    # the inserts are the build's child either way (it waits for them), below the readers when beside them
    mine = os.nice(0)
    assert inserts.read_text().split("\n")[:2] == [f"{os.getpid()} {mine}",
                                                   f"{os.getpid()} {min(19, mine + batches.SIDE_NICENESS)}"]
    assert _children() == []
    here, child = snapshot(tmp_path / "aqui"), snapshot(tmp_path / "filho")
    assert "dados/bilhetes.csv" in here and len(here) > 1000
    assert here.keys() == child.keys()
    assert [name for name in here if here[name] != child[name]] == []


def _children() -> list[int]:
    """The processes this one started that are still there (running, or ended and not yet waited for)."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == os.getpid():
            found.append(int(stat.parent.name))
    return found


def test_the_inserts_failing_in_their_process_fail_the_build_saying_so(sample_copy, tmp_path, monkeypatch):
    """The tickets' SQLite inserts run in a process of their own, fed by the process reading the batches: when
    they fail, the reading goes on to its end, and the build stops before publishing, saying what failed."""
    def broken(conn, name, *args, **kwargs):
        raise sqlite3.OperationalError("disco cheio (simulado)")

    monkeypatch.setattr(batches, "IN_PROCESS_BYTES", 0)
    monkeypatch.setattr(batches, "BATCH_ROWS", 97)  # 19 batches: the later ones find the inserts' process gone
    monkeypatch.setattr(database, "insert", broken)
    with pytest.raises(BuildError) as failed:
        _build(sample_copy, tmp_path / "site")
    assert "as tabelas em lotes não puderam ser gravadas no banco SQLite" in str(failed.value)
    assert "disco cheio (simulado)" in str(failed.value)
    assert not (tmp_path / "site").exists()
    assert _children() == []


def test_a_bad_ticket_read_in_a_child_fails_the_build_and_stops_the_inserts(package, tmp_path, monkeypatch):
    lines = (package.path / "bilhetes.csv").read_text(encoding="utf-8").splitlines()
    package.append("bilhetes.csv", lines[1].replace(",320,", ",muitos,"))  # the file's last line
    monkeypatch.setattr(batches, "IN_PROCESS_BYTES", 0)
    with pytest.raises(BuildError) as failed:
        _build(package.path, tmp_path / "site")
    assert [(p.linha, p.coluna) for p in failed.value.report.errors if p.tabela == "bilhetes"] == [
        (len(lines) + 1, "quantidade")]
    assert not (tmp_path / "site").exists()
    assert _children() == []


def test_a_row_repeated_in_a_later_batch_is_kept_once_and_reported(package, tmp_path, monkeypatch):
    first = (package.path / "bilhetes.csv").read_text(encoding="utf-8").splitlines()[1]
    for n in range(8):
        package.append("bilhetes.csv", first.replace(",320,", f",{321 + n},"))
    package.append("bilhetes.csv", first)  # line 12 repeats line 2, four batches later
    monkeypatch.setattr(batches, "BATCH_ROWS", 2)
    result = _build(package.path, tmp_path / "site")
    assert result.report.accounting["bilhetes"] == {"lidas": 11, "mantidas": 10, "duplicadas": 1, "rejeitadas": 0}
    repeat = [p for p in result.report.warnings if p.regra == "linha-repetida" and p.tabela == "bilhetes"]
    assert [(p.linha, p.arquivo.endswith("bilhetes.csv")) for p in repeat] == [(12, True)]
    assert "linha 2" in repeat[0].detalhe
    published = _csv_rows(tmp_path / "site" / "dados" / "bilhetes.csv")
    assert [r["quantidade"] for r in published] == ["320", "14", *map(str, range(321, 329))]


def test_a_bad_row_after_the_first_batch_fails_the_build_or_is_rejected_and_kept(package, tmp_path, monkeypatch):
    row = (package.path / "bilhetes.csv").read_text(encoding="utf-8").splitlines()[1]
    for n in range(6):
        package.append("bilhetes.csv", row.replace(",320,", f",{400 + n},"))
    package.append("bilhetes.csv", row.replace(",320,", ",muitos,"))  # line 10
    monkeypatch.setattr(batches, "BATCH_ROWS", 3)
    with pytest.raises(BuildError) as failed:
        _build(package.path, tmp_path / "estrito")
    errors = [p for p in failed.value.report.errors if p.tabela == "bilhetes"]
    assert [(p.linha, p.coluna, p.valor) for p in errors] == [(10, "quantidade", "muitos")]
    assert "bilhetes.csv, linha 10, coluna \"quantidade\"" in errors[0].mensagem
    assert not (tmp_path / "estrito").exists()  # nothing published, no half folder left

    result = _build(package.path, tmp_path / "tolerante", lenient=True)
    assert result.report.accounting["bilhetes"] == {"lidas": 9, "mantidas": 8, "duplicadas": 0, "rejeitadas": 1}
    rejected = _csv_rows(tmp_path / "tolerante" / "dados" / "rejeitados.csv")
    assert [(r["tabela"], r["linha"], r["coluna"]) for r in rejected if r["tabela"] == "bilhetes"] == [
        ("bilhetes", "10", "quantidade")]
    published = _csv_rows(tmp_path / "tolerante" / "dados" / "bilhetes.csv")
    assert "muitos" not in {r["quantidade"] for r in published} and len(published) == 8


def test_a_byte_that_is_not_utf8_is_located_on_its_line_far_into_the_file(package, monkeypatch):
    row = (package.path / "bilhetes.csv").read_text(encoding="utf-8").splitlines()[1]
    with open(package.path / "bilhetes.csv", "ab") as fh:
        for n in range(5_000):
            fh.write(row.replace(",320,", f",{n},").encode("utf-8") + b"\n")
        fh.write(row.replace("CALDAS NOVAS", "CALDAS NOVAS \xe9").encode("latin-1") + b"\n")  # line 5004
    monkeypatch.setattr(batches, "BATCH_ROWS", 1_000)
    report = check(Settings(data=(package.path,)))
    bad = [p for p in report.errors if p.regra == "codificacao"]
    assert [(p.tabela, p.linha) for p in bad] == [("bilhetes", 5004)]
    assert "0xe9" in bad[0].detalhe


def test_a_table_longer_than_a_sheet_gets_no_workbook_and_its_page_does_not_offer_one(sample_copy, tmp_path,
                                                                                     monkeypatch):
    monkeypatch.setattr(spreadsheet, "MAX_ROWS", 1_000)  # the sample's 1,824 tickets no longer fit
    _build(sample_copy, tmp_path / "site")
    dados = tmp_path / "site" / "dados"
    assert not (dados / "bilhetes.xlsx").exists() and (dados / "bilhetes.csv").exists()
    assert (dados / "linhas.xlsx").exists()
    page = (dados / "bilhetes" / "index.html").read_text(encoding="utf-8")
    assert "bilhetes.xlsx" not in page and "bilhetes.parquet" in page
    assert "bilhetes.xlsx" not in (dados / "SHA256SUMS").read_text(encoding="utf-8")


def test_seen_rows_are_found_across_merged_levels():
    from pipeline.read.repeats import Seen

    seen = Seen()
    rng = np.random.default_rng(7)
    kept = []
    for n in range(9):  # 9 batches: levels merged as a binary counter
        a, b = rng.integers(-2**63, 2**63 - 1, 50, dtype=np.int64), rng.integers(-2**63, 2**63 - 1, 50, dtype=np.int64)
        origin = np.arange(50, dtype=np.int64) + 1000 * n
        assert (seen.find(a, b) == -1).all()
        seen.add(a, b, origin)
        kept.append((a, b, origin))
    assert len(seen.levels) == 2  # 8 batches merged into one level, then the ninth
    for a, b, origin in kept:
        assert (seen.find(a, b) == origin).all()
        assert (seen.find(a, b ^ 1) == -1).all()  # the same first hash, another second: not the same row
    empty = np.array([], dtype=np.int64)
    seen.add(empty, empty, empty)  # a batch that held only repeats
    assert (seen.find(*kept[3][:2]) == kept[3][2]).all()


def test_rows_sharing_a_first_hash_are_told_apart_by_the_second(monkeypatch):
    from pipeline.read import repeats
    from pipeline.read.columns import Columns

    # four rows whose first hashes are equal but for the last: rows 1 and 3 are the same, row 2 is not
    batch = Columns.numbered("bilhetes", ["x"], [["a", "b", "a", "c"]], [2, 3, 4, 5], "bilhetes.csv")
    monkeypatch.setattr(repeats, "hashes", lambda _: (np.array([5, 5, 5, 7]), np.array([1, 2, 1, 3])))
    keep, problems = repeats.first_rows(batch, repeats.Seen())
    assert keep.tolist() == [0, 1, 3]
    assert [(p.linha, p.regra, p.detalhe) for p in problems] == [
        (4, "linha-repetida", "a linha repete, célula por célula, a linha 2 do mesmo arquivo; publicada uma vez")]


def test_a_batch_of_repeats_only_is_counted_and_the_batches_after_it_are_read(package, tmp_path, monkeypatch):
    lines = (package.path / "bilhetes.csv").read_text(encoding="utf-8").splitlines()
    first, second = lines[1], lines[2]
    for _ in range(2):  # lines 4-7: two batches of two rows that repeat earlier ones
        package.append("bilhetes.csv", first)
        package.append("bilhetes.csv", second)
    package.append("bilhetes.csv", first.replace(",320,", ",777,"))  # line 8, new
    package.append("bilhetes.csv", first)  # line 9, a repeat again
    monkeypatch.setattr(batches, "BATCH_ROWS", 2)
    result = _build(package.path, tmp_path / "site")
    assert result.report.accounting["bilhetes"] == {"lidas": 8, "mantidas": 3, "duplicadas": 5, "rejeitadas": 0}
    repeat = [p.linha for p in result.report.warnings if p.regra == "linha-repetida" and p.tabela == "bilhetes"]
    assert repeat == [4, 5, 6, 7, 9]
    assert [r["quantidade"] for r in _csv_rows(tmp_path / "site" / "dados" / "bilhetes.csv")] == ["320", "14", "777"]


def test_a_table_read_in_batches_is_compared_with_the_previous_release_as_a_whole_table_is(tmp_path):
    """``changes.compare_streamed`` (never holding the rows) gives the entry ``changes._compare_table`` gives
    for the same two files, repeated rows, limits and truncation included."""
    from pipeline.release import changes

    rng = np.random.default_rng(952)
    columns = ["mes", "origem", "destino", "quantidade"]

    def rows(n):
        return [[f"2026-{rng.integers(1, 4):02d}", rng.choice(["Goiânia", "Palmas", "Anápolis"]),
                 rng.choice(["Brasília", "Gurupi"]), str(rng.integers(1, 6))] for _ in range(n)]

    def write(path, header, body):
        with open(path, "w", encoding="utf-8", newline="") as fh:
            csv.writer(fh, lineterminator="\r\n").writerows([header, *body])

    for limit in (None, 3):
        before, after = rows(400), rows(400)  # many equal rows: the n-th copy matches the n-th copy
        write(tmp_path / "antes.csv", columns, before)
        write(tmp_path / "depois.csv", columns + ["nova"], [r + ["x"] for r in after])
        previous = changes.Package("anterior", {"resources": []}, files={"bilhetes": tmp_path / "antes.csv"})
        got = changes.compare_streamed("bilhetes", previous, tmp_path / "depois.csv", columns + ["nova"], limit)
        frames = [changes._read_csv((tmp_path / f).read_bytes(), f) for f in ("antes.csv", "depois.csv")]
        expected = changes._compare_table("bilhetes", frames[0], frames[1], [], limit)
        assert got == expected
        assert got["incluidos"] > 0 and got["removidos"] > 0 and got["colunas_novas"] == ["nova"]
        assert got.get("truncado") is (True if limit else None)


def test_the_change_log_of_a_build_counts_the_tickets_added_and_removed(sample_copy, tmp_path):
    first = tmp_path / "antes"
    _build(sample_copy, first)
    edited = tmp_path / "dados"
    shutil.copytree(sample_copy, edited)
    lines = (edited / "bilhetes.csv").read_text(encoding="utf-8").splitlines()
    removed, added = lines[7], lines[1].replace(",Convencional,", ",Leito,")
    (edited / "bilhetes.csv").write_text("\n".join(lines[:7] + lines[8:] + [added]) + "\n", encoding="utf-8")
    _build(edited, tmp_path / "depois", previous=str(first))
    log = json.loads((tmp_path / "depois" / "dados" / "mudancas.json").read_text(encoding="utf-8"))
    entry = next(t for t in log["tabelas"] if t["tabela"] == "bilhetes")
    assert (entry["incluidos"], entry["removidos"], entry["situacao"]) == (1, 1, "alterada")
    assert entry["linhas"]["incluidos"][0]["registro"]["tipo_servico"] == "Leito"
    assert entry["linhas"]["removidos"][0]["chave"]["quantidade"] == removed.split(",")[8]
    assert all(t["situacao"] == "sem_mudancas" for t in log["tabelas"] if t["tabela"] != "bilhetes")


def test_a_kept_version_is_never_replaced_by_a_second_build_of_its_date(sample_copy, tmp_path):
    first, same, other = tmp_path / "primeira", tmp_path / "mesma", tmp_path / "outra"
    _build(sample_copy, first)
    _build(sample_copy, same, previous=str(first))  # the same files again: the same version, kept as it was
    (name,) = [p.name for p in (first / "dados" / "versoes").iterdir()]
    kept = (first / "dados" / "versoes" / name / "SHA256SUMS").read_bytes()
    assert [p.name for p in (same / "dados" / "versoes").iterdir()] == [name]
    assert (same / "dados" / "versoes" / name / "SHA256SUMS").read_bytes() == kept
    assert "não foi guardada" not in page_text(same / "dados" / "index.html")
    edited = tmp_path / "editada"
    shutil.copytree(sample_copy, edited)
    lines = (edited / "bilhetes.csv").read_text(encoding="utf-8").splitlines()
    (edited / "bilhetes.csv").write_text("\n".join(lines[:-1]) + "\n", encoding="utf-8")
    _build(edited, other, previous=str(same))
    names = sorted(p.name for p in (other / "dados" / "versoes").iterdir())  # one date, two names (issue 26)
    assert len(names) == 2 and name in names and all(n.startswith(AS_OF.isoformat() + "-") for n in names)
    assert (other / "dados" / "versoes" / name / "SHA256SUMS").read_bytes() == kept  # as it was published
    (new,) = set(names) - {name}
    assert (other / "dados" / "versoes" / new / "bilhetes.csv").read_bytes() == (other / "dados" / "bilhetes.csv").read_bytes()
    assert "não foi guardada" not in page_text(other / "dados" / "index.html")


def _hostile_tickets(path: Path) -> None:
    """The sample's tickets with hostile cells, each row once: bad amounts, months and states, formulas,
    CPFs (printed and bare), control characters, commas, line breaks, blank required cells."""
    rows = _csv_rows(SAMPLE_DIR / "bilhetes.csv")
    spoil = [("quantidade", "abc"), ("valor_medio", "-1"), ("tipo_servico", '=HYPERLINK("x")'),
             ("tipo_gratuidade", "Idoso 123.456.789-09"), ("origem_municipio", "Cuiab\x01a"), ("mes_viagem", "2025-13"),
             ("origem_uf", " SP"), ("origem_municipio", "Sao Paulo, centro"), ("tipo_servico", "linha\nquebrada"),
             ("valor_medio", "1e3"), ("quantidade", ""), ("tipo_gratuidade", "52998224725"), ("destino_municipio", "  ")]
    for n, row in enumerate(rows):
        if n % 7 == 3:
            column, value = spoil[(n // 7) % len(spoil)]
            row[column] = value
    with open(path / "bilhetes.csv", "w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)


@pytest.mark.parametrize("lenient", [True, False])
def test_a_table_read_in_batches_is_judged_row_by_row_as_any_table_is(tmp_path, monkeypatch, lenient):
    """Its rows are judged a distinct text at a time (pipeline/validate/distinct.py): the same problems, in the
    same order, and the same rows kept, as ``validate`` gives the same rows read whole."""
    from pipeline.contract.schema import load_schema
    from pipeline.read import SourcePackage, read_source
    from pipeline.read.source import read_csv_table
    from pipeline.validate import validate

    folder = tmp_path / "dados"
    folder.mkdir()
    _hostile_tickets(folder)
    schema = load_schema()
    found = read_source([folder], schema, only={"bilhetes"})
    monkeypatch.setattr(batches, "BATCH_ROWS", 10**6)  # one batch: validate sees the same rows at once
    (tmp_path / "saida").mkdir()
    results, problems = batches.run(found, schema, lenient=lenient, as_of=AS_OF, out=tmp_path / "saida")
    shown = found.batched["bilhetes"][0][1]
    whole, read_problems = read_csv_table(schema["bilhetes"], folder / "bilhetes.csv", shown)
    package = SourcePackage({"bilhetes": whole}, read_problems, [], [], {"bilhetes": found.coverage.get("bilhetes", [])},
                            dict(found.file_sources), {})
    report = validate(package, schema, lenient=lenient)
    expected = [p.as_row() for p in report.problems if p.tabela == "bilhetes"]
    assert [p.as_row() for p in problems] == expected
    assert {p["regra"] for p in expected} >= {"tipo", "padrao", "minimo", "caractere-de-controle", "obrigatorio",
                                              "cpf-mascarado" if lenient else "dado-pessoal"}
    result = results["bilhetes"]
    if lenient:
        kept = report.accepted["bilhetes"]
        assert result.kept == len(kept.rows) < result.data_rows
        published = _csv_rows(tmp_path / "saida" / "bilhetes.csv")
        assert [r["quantidade"] for r in published] == list(kept.column("quantidade"))
        assert [r["tipo_gratuidade"] for r in published] == [v.lstrip("'") for v in kept.column("tipo_gratuidade")]
        assert {"Idoso ***.***.***-**", "***********"} <= {r["tipo_gratuidade"] for r in published}  # masked, kept
    else:
        assert result.failed and not report.accepted
