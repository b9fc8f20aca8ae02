"""Monitriip's tickets in bulk (pipeline/adapters/bulk.py): DuckDB's path writes the package and the report of the
per-row loop, byte for byte, on the fixture, on the bench's file and on hostile files; it falls back to the csv
module where DuckDB might split a file otherwise; the monthly files go into one package."""

from __future__ import annotations

import csv
import io
import json
import logging
import re
import sys
from pathlib import Path

import duckdb
import pytest
from conftest import FIXTURES, PROJECT_ROOT, cli
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from pipeline.adapters import IngestError, bulk, ingest
from pipeline.adapters.antt_monitriip import HEADER, Tickets, _money, parse_amount
from pipeline.adapters.common import write_report
from pipeline.read.writer import write_table

sys.path.insert(0, str(PROJECT_ROOT / "bench"))
from exports import write_export  # noqa: E402

NAME = "antt-monitriip-bilhetes"
FILES = ("bilhetes.csv", "ingest-report.json", "datapackage.json")
HEAD = ";".join(HEADER)
ROW = "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;189,90;12,35;1240"
SLOW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                      HealthCheck.function_scoped_fixture])


def export(folder: Path, lines: list[str], name: str = "venda_passagem_09_2026.csv", encoding: str = "latin-1",
           newline: str = "\r\n", bom: bool = False) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes((b"\xef\xbb\xbf" if bom else b"") + (newline.join(lines) + newline).encode(encoding))
    return path


def loop(path: Path | list[Path], out: Path, monkeypatch) -> None:
    with monkeypatch.context() as m:
        m.setattr(Tickets, "BULK", False)
        ingest(NAME, path, out)


def compare(tmp_path: Path, path: Path, monkeypatch, caplog) -> tuple[dict, list[str]]:
    """Ingest ``path`` by the loop, by the bulk path and by the bulk path reading with the csv module alone;
    assert the three packages are the same bytes. Returns the report and why the bulk path fell back."""
    loop(path, tmp_path / "loop", monkeypatch)
    caplog.clear()
    with caplog.at_level(logging.INFO, logger="pipeline.adapters.bulk"):
        ingest(NAME, path, tmp_path / "bulk")
    fallback = [r.getMessage() for r in caplog.records]
    write_report(tmp_path / "csv", bulk.run(Tickets, path, tmp_path / "csv", duckdb_reader=False))
    for name in FILES:
        expected = (tmp_path / "loop" / name).read_bytes()
        assert (tmp_path / "bulk" / name).read_bytes() == expected, name
        assert (tmp_path / "csv" / name).read_bytes() == expected, name
    return json.loads((tmp_path / "bulk" / "ingest-report.json").read_text(encoding="utf-8")), fallback


def published(folder: Path) -> list[dict]:
    with open(folder / "bilhetes.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def reasons(report: dict) -> dict[int, str]:
    return {r["linha"]: r["motivo"] for r in report["rejeitadas_detalhe"]}


# --- the same package and report as the loop ----------------------------------------------------------


def test_the_fixture_and_the_bench_file_give_the_loops_package(tmp_path, monkeypatch, caplog):
    report, fallback = compare(tmp_path / "fixture", FIXTURES / "antt" / "monitriip-bilhetes.csv", monkeypatch, caplog)
    assert not fallback
    assert (report["lidas"], report["mantidas"], report["rejeitadas"]) == (9, 6, 3)
    path = write_export(NAME, 20_000, tmp_path / "venda_passagem_01_2025.csv")
    report, fallback = compare(tmp_path / "bench", path, monkeypatch, caplog)
    assert not fallback
    assert (report["lidas"], report["mantidas"]) == (20_000, 20_000)
    assert published(tmp_path / "bench" / "bulk")[2] == {
        "mes_viagem": "2025-03", "mes_emissao": "2025-01", "origem_municipio": "Goiânia", "origem_uf": "GO",
        "destino_municipio": "Morrinhos", "destino_uf": "CE", "tipo_servico": "Semileito", "tipo_gratuidade": "",
        "quantidade": "3", "valor_medio": "50.74", "valor_desvio_padrao": "7.2"}


HOSTILE = [
    HEAD,
    ROW,  # 2 kept
    " 09/2026 ;09/2026;Goiânia  -  GO;Palmas - TO;Executiva ;\t;189,90;12,35; 1240",  # 3 line 2, other spaces
    "09/2026;09/2026;Goiânia\xa0- GO;Palmas - TO;Executiva;;189,90;12,35;1240",  # 4 line 2, with NBSP
    '"09/2026";"09/2026";"Goiânia - GO";"Palmas - TO";"Executiva";"";"189,90";"12,35";"1240"',  # 5 line 2, quoted
    "",  # blank lines are no rows
    "   ",
    ";;;;;;;;",
    " ; ;\t;;;\xa0;;; ",
    "09/2026;09/2026;Goiânia - GO",  # 10 three columns
    "09/2026; 09/2026 ;Goiânia - GO",  # 11 line 10 again
    ROW + ";",  # 12 ten columns, the last empty
    ROW + ";x;y",  # 13 eleven
    "13/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;1,00;1,00;1",  # 14 month
    "09/2026;2026-13;Goiânia - GO;Palmas - TO;Executiva;;1,00;1,00;1",  # 15 month
    "13/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;1,00;1,00;1",  # 16 line 14 again
    "9/2026;2026-09;GOIANIA(GO);PALMAS(TO);Leito;Idoso;0;0,5;007",  # 17 kept
    "09/2026;09/2026;GO/Goiânia;TO / Palmas;Cama;;1.234,56;0,00001;12",  # 18 kept
    "09/2026;09/2026;Terminal Rodoviário;Palmas - TO;Executiva;;1,00;1,00;1",  # 19 place
    "09/2026;09/2026;Goiânia - XX;Palmas - TO;Executiva;;1,00;1,00;1",  # 20 place
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;199.00;1,00;1",  # 21 amount
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;1,00;1.23,4;1",  # 22 amount
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;12;abc;1",  # 23 amount
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;12;1,0;1234567890",  # 24 quantity
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;12;1,0;-1",  # 25 quantity
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;12;1,0;",  # 26 quantity
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;12;1,0;1 2",  # 27 quantity
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Leito; ; 1,5 ;\xa01.234,56\xa0; 12 ",  # 28 kept
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Leito;;12345678901234567890;" + "9" * 400 + ";1",  # 29 amount: too many digits
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Leito;;;  ;2",  # 30 kept, no amounts
    '09/2026;09/2026;Goiânia - GO;Palmas - TO;"Leito, ""VIP""";"Cama; Leito";1,00;1,00;3',  # 31 kept
    ' "09/2026";09/2026;Goiânia - GO;Palmas - TO;Executiva;;1,00;1,00;4',  # 32 the quote is text: month
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Exec\"utiva;;1,00;1,00;5",  # 33 kept, a quote inside
    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva;;1,00;1,00;4",  # 34 kept (not line 32)
]


@pytest.mark.parametrize("variant", ["latin-1 CRLF", "latin-1 LF", "UTF-8", "UTF-8 BOM", "all quoted",
                                     "Windows-1252"])
def test_hostile_rows_give_the_loops_package(tmp_path, monkeypatch, caplog, variant):
    lines = HOSTILE
    if variant == "all quoted":  # every cell between quotes, the header's too
        out = io.StringIO()
        csv.writer(out, delimiter=";", quoting=csv.QUOTE_ALL, lineterminator="\n").writerows(
            next(csv.reader([line], delimiter=";"), []) for line in HOSTILE)
        lines = out.getvalue().split("\n")[:-1]
    if variant == "Windows-1252":  # bytes 0x80-0x9F, which DuckDB's Latin-1 refuses: read from a UTF-8 copy
        lines = [*HOSTILE, "09/2026;09/2026;Goiânia - GO;Palmas - TO;Executiva \x96 Leito;\x85;1,00;1,00;6"]
    path = export(tmp_path / "in", lines, encoding="utf-8" if variant.startswith("UTF") else "latin-1",
                  newline="\n" if variant in ("latin-1 LF", "UTF-8") else "\r\n", bom=variant == "UTF-8 BOM")
    report, fallback = compare(tmp_path, path, monkeypatch, caplog)
    assert not fallback  # DuckDB read it: what this test compares
    extra = variant == "Windows-1252"
    assert (report["lidas"], report["mantidas"], report["duplicadas"], report["rejeitadas"]) == (
        29 + extra, 8 + extra, 5, 16)
    assert [(d["linha"], d["igual_a_linha"]) for d in report["duplicadas_detalhe"]] == [
        (3, 2), (4, 2), (5, 2), (11, 10), (16, 14)]
    why = reasons(report)
    assert why[10] == "número de colunas: a linha tem 3 colunas; o cabeçalho tem 9"
    assert why[12] == "número de colunas: a linha tem 10 colunas; o cabeçalho tem 9"
    assert why[32] == 'mês ilegível: coluna "mes_emissao_bilhete" = " "09/2026"" não é MM/AAAA nem AAAA-MM'
    assert why[23] == 'número ilegível: coluna "dp_valor_total" = "abc" não é um número com vírgula decimal'
    assert why[27] == 'quantidade ilegível: coluna "quantidade_bilhetes" = "1 2" não é um número inteiro'
    assert why[29] == ('valor fora do alcance: coluna "media_valor_total" = "12345678901234567890" tem mais de 9 '
                       "dígitos antes da vírgula ou mais de 6 depois")
    assert sorted(why) == [10, 12, 13, 14, 15, 19, 20, 21, 22, 23, 24, 25, 26, 27, 29, 32]
    rows = published(tmp_path / "bulk")
    assert [(r["quantidade"], r["valor_medio"], r["valor_desvio_padrao"]) for r in rows[:5]] == [
        ("1240", "189.9", "12.35"), ("7", "0.0", "0.5"), ("12", "1234.56", "1e-05"), ("12", "1.5", "1234.56"),
        ("2", "", "")]
    assert (rows[5]["tipo_servico"], rows[5]["tipo_gratuidade"]) == ('Leito, "VIP"', "Cama; Leito")
    assert rows[6]["tipo_servico"] == 'Exec"utiva'


def test_digits_of_other_scripts_are_no_amount(tmp_path, monkeypatch, caplog):
    """Python's \\d matched them (and float() read them); the amounts are [0-9], in Python as in RE2."""
    path = export(tmp_path / "in", [HEAD, "09/2026;09/2026;Goiânia - GO;Palmas - TO;Leito;;١٢,٥;1,0;1"],
                  encoding="utf-8")
    report, fallback = compare(tmp_path, path, monkeypatch, caplog)
    assert not fallback and reasons(report) == {
        2: 'número ilegível: coluna "media_valor_total" = "١٢,٥" não é um número com vírgula decimal'}


# --- what DuckDB might split otherwise: the csv module reads it ------------------------------------------


@pytest.mark.parametrize(("lines", "newline", "why", "counts"), [
    # a cell spanning lines (kept, its spaces folded: "Leito Cama")
    ([HEAD, ROW, '09/2026;09/2026;Goiânia - GO;Palmas - TO;"Leito\r\nCama";;1,00;1,00;2', ROW.replace("1240", "7")],
     "\r\n", "as linhas lidas pelo DuckDB não são as do arquivo", (3, 3, 0, 0)),
    # a carriage return alone ends a row for the csv module: two rows of five columns, then line 2 again
    ([HEAD, ROW, ROW.replace("Executiva", "Exec\rutiva"), ROW], "\r\n", "um retorno de carro (CR) sozinho",
     (4, 1, 1, 2)),
    ([HEAD, ROW + "\r", ROW.replace("1240", "7")], "\n", "DuckDB", (2, 2, 0, 0)),  # LF and CRLF mixed
])
def test_what_duckdb_might_split_otherwise_is_read_by_the_csv_module(tmp_path, monkeypatch, caplog, lines, newline,
                                                                     why, counts):
    report, fallback = compare(tmp_path, export(tmp_path / "in", lines, newline=newline), monkeypatch, caplog)
    assert len(fallback) == 1 and why in fallback[0] and "lido pelo módulo csv" in fallback[0]
    assert (report["lidas"], report["mantidas"], report["duplicadas"], report["rejeitadas"]) == counts


@pytest.mark.parametrize(("lines", "message"), [
    ([HEAD, ROW, ROW.replace("Goiânia", "GoiÃ¢nia")],
     'linha 3, coluna "ponto_origem_viagem": "GoiÃ¢nia - GO" tem "Ã¢", um acento em UTF-8 lido como Latin-1'),
    # the row repeats line 2 with its spaces folded, and is still refused whole
    ([HEAD, ROW.replace("12,35", "12Ã 3"), ROW.replace("12,35", "12Ã\xa03")],
     'linha 3, coluna "dp_valor_total": "12Ã\xa03" tem "Ã\xa0"'),
    ([HEAD, ROW, '09/2026;"09/2026"x;Goiânia - GO;Palmas - TO;Leito;;1,00;1,00;1'], "linha 3: o CSV não pôde ser lido"),
    ([HEAD, ROW, '09/2026;"09/2026;Goiânia - GO;Palmas - TO;Leito;;1,00;1,00;1'], "linha 3: o CSV não pôde ser lido"),
    ([HEAD.replace("tipo_servico", "servico"), ROW], "cabeçalho diferente do esperado: faltam as colunas tipo_servico"),
])
def test_a_file_the_loop_refuses_is_refused_with_its_message(tmp_path, monkeypatch, lines, message):
    path = export(tmp_path / "in", lines, encoding="utf-8" if "Ã" in "".join(lines) else "latin-1")
    with pytest.raises(IngestError) as by_loop:
        loop(path, tmp_path / "loop", monkeypatch)
    with pytest.raises(IngestError) as in_bulk:
        ingest(NAME, path, tmp_path / "bulk")
    assert str(in_bulk.value) == str(by_loop.value)
    assert message in str(in_bulk.value)
    assert not (tmp_path / "bulk").exists()


# --- the SQL reads as Python reads --------------------------------------------------------------------


def test_whitespace_is_pythons_in_re_and_in_duckdb():
    every = [chr(c) for c in range(1, 0x3100)]
    spaces = {c for c in every if c.isspace()}
    assert {c for c in every if re.fullmatch(bulk.WHITESPACE, c)} == spaces
    with duckdb.connect() as db:
        found = db.execute(f"SELECT c FROM unnest(?) AS t(c) WHERE {bulk.fullmatch('c', bulk.WHITESPACE)}",
                           [every]).fetchall()
    assert {c for (c,) in found} == spaces


TEXT = st.text(st.sampled_from("a b\t\xa0\u2003\u3000\n\x0b\x1c\x85x,é"), max_size=12)


@settings(max_examples=60, deadline=None)
@given(st.lists(TEXT, min_size=1, max_size=40))
def test_strip_and_fold_in_sql_are_pythons(values):
    with duckdb.connect() as db:
        got = db.execute(f"SELECT {bulk.strip('v')}, {bulk.squeeze_spaces('v')}, {bulk.fullmatch('v', bulk.WHITESPACE + '*')} "
                         "FROM unnest(?) WITH ORDINALITY AS t(v, i) ORDER BY i", [values]).fetchall()
    assert got == [(v.strip(), " ".join(v.split()), not v.strip()) for v in values]


def checked(rows: list[list[str]]) -> dict[int, tuple]:
    """The SQL's verdict on rows of cells (line 2 onwards): line -> bad, quantidade, valor_medio, valor_desvio_padrao."""
    with duckdb.connect() as db:
        db.register("batch", bulk.cells_table([(n, cells) for n, cells in enumerate(rows, 2)], 9))
        db.execute("CREATE TEMP TABLE cur AS SELECT * FROM batch")
        bulk.check(db, Tickets, bulk.Lookups(Tickets))
        return {n: rest for n, *rest in db.execute(
            "SELECT line, bad, quantidade, valor_medio, valor_desvio_padrao FROM t").fetchall()}


AMOUNT = st.one_of(  # valid amounts, long ones, junk, and valid ones between spaces
    st.from_regex(r"[0-9]{1,3}(\.[0-9]{3}){0,4}(,[0-9]{1,20})?", fullmatch=True),
    st.from_regex(r"[0-9]{1,30}(,[0-9]{1,30})?", fullmatch=True),
    st.text(st.sampled_from("0123456789.,- \xa0\u2003١e+x"), max_size=12),
    st.tuples(st.sampled_from(["", " ", "\xa0", "\t ", "\u3000"]), st.from_regex(r"[0-9]{1,4}(,[0-9]{1,3})?",
              fullmatch=True), st.sampled_from(["", " ", "\xa0"])).map("".join))
EDGES = ["0", "0,5", "1.234,56", "12345678901234567890", "007", " 1,5 ", "\xa0189,90\xa0", "1" * 400, "0,00001",
         "1.000.000,00", "1.23,4", "199.00", ",5", "5,", "", "   ", "0" * 30 + "1", "9" * 16 + ",5", "١٢"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(AMOUNT, AMOUNT), min_size=1, max_size=60))
@example([(a, a) for a in EDGES])
def test_amounts_and_quantities_converted_in_sql_are_pythons(pairs):
    quantities = [b.replace(",", "") for _, b in pairs]  # digits, signs, spaces, up to 30 digits
    rows = [["09/2026", "09/2026", "Goiânia - GO", "Palmas - TO", "Leito", "", a, b, q]
            for (a, b), q in zip(pairs, quantities)]
    got = checked(rows)
    for n, (a, b), q in zip(range(2, len(rows) + 2), pairs, quantities):
        first, second = parse_amount(a, "m"), parse_amount(b, "d")
        quantity = int(q.strip()) if re.fullmatch(r"[0-9]{1,9}", q.strip()) else None
        bad = first[1] is not None or second[1] is not None or quantity is None
        assert got[n][0] == bad, (a, b, q)
        if quantity is not None:
            assert got[n][1] == str(quantity)
        if first[1] is None:
            assert got[n][2] == _money(first[0]), a
        if second[1] is None:
            assert got[n][3] == _money(second[0]), b


@settings(max_examples=40, deadline=None)
@given(st.lists(st.lists(st.text(st.sampled_from('a ,"\';çé€\\x'), max_size=8), min_size=2, max_size=2),
                max_size=30))
def test_duckdbs_copy_writes_the_csv_modules_format(tmp_path_factory, rows):
    folder = tmp_path_factory.mktemp("copy")
    write_table(folder / "python.csv", ["a", "b"], [{"a": a, "b": b} for a, b in rows])
    with duckdb.connect() as db:
        db.register("rows", bulk.cells_table(list(enumerate(rows)), 2))
        db.execute("CREATE TEMP TABLE r AS SELECT * FROM rows")
        n = bulk.copy_to(db, "SELECT c0 AS a, c1 AS b FROM r ORDER BY line", folder / "duckdb.csv")
    assert n == len(rows)
    assert b"a,b\n" + (folder / "duckdb.csv").read_bytes() == (folder / "python.csv").read_bytes()


CELL = {
    0: st.sampled_from(["09/2026", "2026-09", " 9/2026", "13/2026", "", "09/2026\xa0"]),
    2: st.sampled_from(["Goiânia - GO", "GOIANIA(GO)", "GO/Goiânia", "Goiânia  -  GO", "Terminal", " ", "X - XX"]),
    4: st.sampled_from(["Leito", " Leito", "Leito\tCama", "", '"Leito, VIP"', "Cama;Leito"]),
    6: AMOUNT,
    8: st.sampled_from(["1", "007", " 12 ", "1234567890", "", "x", "1\xa0"]),
}


@SLOW
@given(st.lists(st.tuples(CELL[0], CELL[0], CELL[2], CELL[2], CELL[4], CELL[4], CELL[6], CELL[6], CELL[8]),
                min_size=1, max_size=40), st.sampled_from(["\r\n", "\n"]))
def test_random_files_give_the_loops_package(tmp_path_factory, monkeypatch, rows, newline):
    folder = tmp_path_factory.mktemp("random")
    text = [HEAD] + [";".join(row) if '"' not in row[4] and ";" not in row[4]
                     else ";".join((*row[:4], '"' + row[4].replace('"', '""') + '"', *row[5:])) for row in rows]
    path = export(folder / "in", text, encoding="utf-8", newline=newline)
    loop(path, folder / "loop", monkeypatch)
    ingest(NAME, path, folder / "bulk")
    for name in FILES:
        assert (folder / "bulk" / name).read_bytes() == (folder / "loop" / name).read_bytes(), name


# --- several monthly files, one package ----------------------------------------------------------------


MONTHS = {
    "venda_passagem_07_2026.csv": ([HEAD, ROW, "07/2026;07/2026;Goiânia - GO", ROW.replace("1240", "8"),
                                    "13/2026;07/2026;Goiânia - GO;Palmas - TO;Leito;;1,00;1,00;1"], "latin-1", "\r\n"),
    # line 2 repeats July's line 2, line 3 July's rejected line 5, line 4 July's three columns
    "venda_passagem_08_2026.csv": ([HEAD, ROW.replace("Executiva", " Executiva "),
                                    "13/2026;07/2026;Goiânia - GO;Palmas - TO;Leito;;1,00;1,00;1",
                                    "07/2026;07/2026; Goiânia - GO", "08/2026;08/2026;Palmas - TO;Goiânia - GO;Leito;;1,00;"
                                    "1,00;9", "", "08/2026;08/2026;Palmas - TO;Goiânia - GO;Leito;;1,00;1,00;9"],
                                   "utf-8", "\n"),
    # a cell spanning lines: read by the csv module; line 4 repeats August's line 5
    "venda_passagem_09_2026.csv": ([HEAD, '09/2026;09/2026;Goiânia - GO;Palmas - TO;"Leito\nCama";;1,00;1,00;3',
                                    "08/2026;08/2026;Palmas - TO;Goiânia - GO;Leito;;1,00;1,00;9", ROW,
                                    "09/2026;x"], "latin-1", "\n"),
    # line 3 repeats September's line 2, the cell spanning lines written on one
    "venda_passagem_10_2026.csv": ([HEAD, ROW.replace("09/2026", "10/2026"),
                                    "09/2026;09/2026;Goiânia - GO;Palmas - TO;Leito Cama;;1,00;1,00;3"], "latin-1", "\n"),
}


def months(folder: Path) -> list[Path]:
    return [export(folder, lines, name, encoding, newline) for name, (lines, encoding, newline) in MONTHS.items()]


def test_monthly_files_go_into_one_package_as_the_loop_reads_them_one_after_the_other(tmp_path, monkeypatch):
    paths = months(tmp_path / "in")
    # the reference: the loop on the files' rows one after the other, in one file
    whole, where = [HEAD], {}
    for path in paths:
        text = path.read_bytes().decode(MONTHS[path.name][1])
        body = text[text.index("\n") + 1:]
        first = 1 + sum(len(re.findall(r"\r\n|\r|\n", part)) for part in whole[1:])
        for n in range(2, 2 + len(re.findall(r"\r\n|\r|\n", body))):
            where[first + n - 1] = (path.name, n)
        whole.append(body)
    together = tmp_path / "together.csv"
    together.write_text(whole[0] + "\n" + "".join(whole[1:]), encoding="utf-8")
    loop(together, tmp_path / "loop", monkeypatch)
    report = ingest(NAME, paths, tmp_path / "bulk")
    expected = json.loads((tmp_path / "loop" / "ingest-report.json").read_text(encoding="utf-8"))

    assert (tmp_path / "bulk" / "bilhetes.csv").read_bytes() == (tmp_path / "loop" / "bilhetes.csv").read_bytes()
    for count in ("lidas", "mantidas", "duplicadas", "rejeitadas"):
        assert getattr(report, count) == expected[count]
    assert report.rejeitadas_detalhe == [{"arquivo": where[r["linha"]][0], **r, "linha": where[r["linha"]][1]}
                                         for r in expected["rejeitadas_detalhe"]]
    assert report.duplicadas_detalhe == [
        {"arquivo": where[d["linha"]][0], "linha": where[d["linha"]][1], "igual_a_arquivo": where[d["igual_a_linha"]][0],
         "igual_a_linha": where[d["igual_a_linha"]][1]} for d in expected["duplicadas_detalhe"]]
    assert report.duplicadas_detalhe[:2] == [
        {"arquivo": "venda_passagem_08_2026.csv", "linha": 2, "igual_a_arquivo": "venda_passagem_07_2026.csv",
         "igual_a_linha": 2},
        {"arquivo": "venda_passagem_08_2026.csv", "linha": 3, "igual_a_arquivo": "venda_passagem_07_2026.csv",
         "igual_a_linha": 5}]
    assert report.fonte == ", ".join(MONTHS) and report.codificacao == "latin-1, utf-8"
    assert report.duplicadas_detalhe[-1] == {"arquivo": "venda_passagem_10_2026.csv", "linha": 3,
                                             "igual_a_arquivo": "venda_passagem_09_2026.csv", "igual_a_linha": 2}
    assert report.data_da_fonte == {"data": "2026-10",
                                    "origem": "o mês mais recente nos nomes dos arquivos (venda_passagem_MM_AAAA)"}
    source = json.loads((tmp_path / "bulk" / "datapackage.json").read_text(encoding="utf-8"))["sources"][0]
    assert (source["date"], source["x-arquivo"]) == ("2026-10", list(MONTHS))


def test_the_source_date_of_several_files(tmp_path):
    paths = months(tmp_path / "in")
    report = ingest(NAME, paths, tmp_path / "informada", options=bulk.SourceOptions(data="2026-10"))
    assert report.data_da_fonte == {"data": "2026-10", "origem": "informada com --data-referencia"}
    other = export(tmp_path / "in", [HEAD, ROW], "bilhetes-2026.csv")
    report = ingest(NAME, [*paths, other], tmp_path / "sem-data")
    assert report.data_da_fonte == {"data": "", "origem": "não informada"}


def test_the_cli_takes_several_files_of_monitriip_only(tmp_path):
    paths = [str(p) for p in months(tmp_path / "in")]
    proc = cli("ingest", *paths, "--out", str(tmp_path / "pacote"))
    assert proc.returncode == 0, proc.stderr
    assert "lidas: 15" in proc.stdout
    assert ("REJEITADA venda_passagem_07_2026.csv linha 3: número de colunas: a linha tem 3 colunas; o cabeçalho "
            "tem 9") in proc.stderr
    horarios = str(FIXTURES / "antt" / "horarios-formato-novo.csv")
    proc = cli("ingest", "antt-horarios", horarios, horarios, "--out", str(tmp_path / "horarios"))
    assert proc.returncode == 1
    assert proc.stderr == ("erro: o adaptador antt-horarios lê um arquivo por vez, e foram informados 2; ingira cada "
                           "um numa pasta própria (junta vários arquivos num pacote: antt-monitriip-bilhetes)\n")
    proc = cli("ingest", paths[0], horarios, "--out", str(tmp_path / "misturado"))
    assert proc.returncode == 1
    assert proc.stderr.startswith("erro: os arquivos são de exportações diferentes (venda_passagem_07_2026.csv: "
                                  "antt-monitriip-bilhetes; horarios-formato-novo.csv: antt-horarios)")
    assert not (tmp_path / "horarios").exists() and not (tmp_path / "misturado").exists()
