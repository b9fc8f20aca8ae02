"""`python -m pipeline ingest`: the regulator's exports into the data contract's source package.

The real 2021 timetable export lives in the shared folder (``../shared/data/antt``) and is read from
there, never copied; the small hand-written exports in ``tests/fixtures/antt`` (see its README) cover
what the real file does not have.
"""

from __future__ import annotations

import csv
import json
from datetime import date
from pathlib import Path

import pytest
from bs4 import BeautifulSoup
from conftest import FIXTURES, SHARED, answer_json, cli, page_text, real_excerpt

from pipeline import SAMPLE_DIR
from pipeline.adapters import IngestError, IngestReport, ingest
from pipeline.adapters.antt_horarios import CATEGORY_ORDER, vehicle_category
from pipeline.adapters.common import parse_description
from pipeline.build import build, check
from pipeline.contract.settings import Settings

ANTT = FIXTURES / "antt"
REAL = SHARED / "data" / "antt" / "quadro-de-horarios-2021.csv"
AS_OF = date(2026, 6, 30)
TEST_NOTE = "Empresa de teste presente na exportação da ANTT; mantida e sinalizada."


def rows(folder: Path, table: str) -> list[dict]:
    with open(folder / f"{table}.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


def by(items: list[dict], key: str) -> dict:
    return {r[key]: r for r in items}


def saved_report(folder: Path) -> dict:
    return json.loads((folder / "ingest-report.json").read_text(encoding="utf-8"))


def assert_adds_up(report: dict) -> None:
    assert report["lidas"] == report["mantidas"] + report["mescladas"] + report["duplicadas"] + report["rejeitadas"]
    assert report["tabelas"][report["principal"]] == report["mantidas"]
    assert len(report["rejeitadas_detalhe"]) == report["rejeitadas"]
    assert len(report["duplicadas_detalhe"]) == report["duplicadas"]


def rejected(report: IngestReport) -> dict[int, dict]:
    return {r["linha"]: r for r in report.rejeitadas_detalhe}


# --- the real export ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    if not REAL.is_file():
        pytest.skip(
            "../shared/data/antt/quadro-de-horarios-2021.csv not found: the real export lives in the shared folder"
        )
    out = tmp_path_factory.mktemp("antt") / "pacote"
    report = ingest("antt-horarios", REAL, out)
    return out, report


@pytest.fixture(scope="module")
def real_site(tmp_path_factory):
    """A build of the real export's lines of 12-0140-00 (``conftest.real_excerpt``) plus a folder holding
    only a tarifas.csv for that line."""
    folder = tmp_path_factory.mktemp("real-tarifas")
    real = real_excerpt(folder)
    extra = folder / "so-tarifas"
    extra.mkdir()
    (extra / "tarifas.csv").write_text(
        "linha_prefixo,origem,destino,categoria,valor,vigencia_inicio,motivo,ato\n"
        "12-0140-00,BRASILIA,CALDAS NOVAS,convencional_com_sanitario,62.35,2021-01-01,reajuste,\n",
        encoding="utf-8",
    )
    site = folder / "site"
    build(Settings(data=(real, extra), out=site, as_of=AS_OF, search_index=False,
                   whoosh_dir=folder / "busca"))
    return site


def test_real_export_counts_add_up(real):
    out, report = real
    saved = saved_report(out)
    assert saved == report.to_dict()
    assert_adds_up(saved)
    assert (saved["fonte"], saved["adaptador"]) == ("quadro-de-horarios-2021.csv", "antt-horarios")
    assert (saved["lidas"], saved["mantidas"], saved["duplicadas"], saved["rejeitadas"]) == (11477, 11468, 9, 0)
    assert saved["tabelas"] == {"transportadoras": 208, "linhas": 3896, "horarios": 11468}
    assert saved["conflitos"] == []


def test_real_export_lists_the_nine_exact_duplicates(real):
    out, report = real
    lines = REAL.read_bytes().split(b"\n")  # the export has one record per physical line
    listed = report.duplicadas_detalhe
    assert [d["linha"] for d in listed] == [1033, 1082, 5028, 7940, 7941, 7950, 7997, 8002, 10598]
    for d in listed:
        assert lines[d["linha"] - 1] == lines[d["igual_a_linha"] - 1]
        assert d["igual_a_linha"] < d["linha"]
    # dropped once: 12-5002-20 ida 05:00 appears three times in the file, once in horarios.csv
    kept = [
        r
        for r in rows(out, "horarios")
        if (r["linha_prefixo"], r["sentido"], r["horario"]) == ("12-5002-20", "ida", "05:00")
    ]
    assert len(kept) == 1


def test_real_export_tables(real):
    out, _ = real
    carriers = rows(out, "transportadoras")
    assert len(carriers) == len({c["cnpj"] for c in carriers}) == 208
    assert all(c["uf"] == "" and len(c["cnpj"]) == 14 for c in carriers)
    lines = by(rows(out, "linhas"), "prefixo")
    assert len(lines) == 3896
    assert lines["12-0140-00"] == {
        "prefixo": "12-0140-00",
        "descricao": "BRASILIA(DF) - CALDAS NOVAS(GO)",
        "origem_municipio": "BRASILIA",
        "origem_uf": "DF",
        "destino_municipio": "CALDAS NOVAS",
        "destino_uf": "GO",
        "ambito": "interestadual",
        "itinerario": "",
        "extensao_km": "",
        "via": "",  # the 2021 descriptions carry no "- Via" tail
    }
    assert lines["12-1070-70"]["origem_municipio"] == "PLANALTINA (URB)"  # as written
    ambitos = [ln["ambito"] for ln in lines.values()]
    assert ambitos.count("internacional") == 2 and ambitos.count("semiurbano") == 49
    horarios = rows(out, "horarios")
    assert len(horarios) == 11468
    assert sum(1 for h in horarios if h["data_autorizacao"] == "") == 15  # empty dates stay empty
    assert min(h["data_autorizacao"] for h in horarios if h["data_autorizacao"]).startswith("1955-")


@pytest.mark.parametrize(
    "prefixo, destino, pais",
    [("12-0442-00", "PUERTO SUAREZ", "BOL"), ("22-1846-91", "PUERTO MALDONADO", "PER")],
)
def test_real_international_lines(real, prefixo, destino, pais):
    out, _ = real
    line = by(rows(out, "linhas"), "prefixo")[prefixo]
    assert (line["destino_municipio"], line["destino_uf"], line["ambito"]) == (destino, pais, "internacional")


def test_real_test_company_is_kept_and_flagged(real):
    out, report = real
    company = by(rows(out, "transportadoras"), "cnpj")["76423366000135"]
    assert company["razao_social"] == "EMPRESA TESTE SUPAS"
    assert company["observacao"] == TEST_NOTE
    assert [(s["cnpj"], s["razao_social"]) for s in report.sinalizadas] == [("76423366000135", "EMPRESA TESTE SUPAS")]
    assert {h["linha_prefixo"] for h in rows(out, "horarios") if h["transportadora_cnpj"] == "76423366000135"} == {
        "06-1863-00"
    }


def test_real_package_validates(real):
    out, _ = real
    proc = cli("validate", str(out))
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "válido: " in proc.stdout and "0 aviso(s)" in proc.stdout


@pytest.mark.slow
def test_real_line_timetable_and_weekly_frequency_after_a_build(real, real_only_site):
    out, _ = real
    horarios = [h for h in rows(out, "horarios") if h["linha_prefixo"] == "12-0140-00"]
    every_day = dict.fromkeys(["segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo"], "true")
    assert [
        (h["sentido"], h["horario"], h["categoria"], h["tipo_veiculo"], h["data_autorizacao"]) for h in horarios
    ] == [
        ("ida", "14:00", "convencional_com_sanitario", "CONVEN. C/ SANITÁRIO", "2016-07-08"),
        ("volta", "07:00", "convencional_com_sanitario", "CONVEN. C/ SANITÁRIO", "2016-07-08"),
    ]
    assert all(h | every_day == h for h in horarios)
    published = by(rows(real_only_site / "dados", "linhas"), "prefixo")["12-0140-00"]
    assert (published["frequencia_semanal_ida"], published["frequencia_semanal_volta"]) == ("7", "7")
    page = BeautifulSoup(
        (real_only_site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8"), "html.parser"
    )
    text = " ".join(page.find(id="horarios-titulo").parent.get_text(" ").split())
    assert "7 viagens por semana na ida" in text and "7 na volta" in text
    assert "14:00" in text and "07:00" in text and "ALFA LUZ VIACAO TRANSPORTE LTDA" in text
    carrier = (real_only_site / "transportadoras" / "76423366000135" / "index.html").read_text(encoding="utf-8")
    assert TEST_NOTE in carrier
    # The export has no outorgas: a carrier's lines come from its timetable.
    alfa = BeautifulSoup(
        (real_only_site / "transportadoras" / "04192453000118" / "index.html").read_text(encoding="utf-8"), "html.parser"
    )
    listed = [a["href"] for a in alfa.find(id="linhas-titulo").parent.find_all("a")]
    assert "/linhas/12-0140-00/" in listed and "/linhas/12-0140-61/" in listed
    assert "não informada" in alfa.find("dl").get_text()  # the export has no UF for carriers


@pytest.mark.slow
def test_build_from_the_ingested_export_plus_a_tarifas_folder(real_site):
    page = BeautifulSoup(
        (real_site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8"), "html.parser"
    )
    fares = " ".join(page.find(id="tarifas-titulo").parent.get_text(" ").split())
    assert "BRASILIA → CALDAS NOVAS" in fares and "62,35" in fares
    published = rows(real_site / "dados", "tarifas")
    assert [(t["linha_prefixo"], t["valor"], t["vigente"]) for t in published] == [("12-0140-00", "62.35", "true")]


# --- hand-written fixtures: the timetable export ---------------------------------------------------


@pytest.fixture(scope="module")
def problems(tmp_path_factory):
    out = tmp_path_factory.mktemp("problemas")
    return out, ingest("antt-horarios", ANTT / "horarios-problemas.csv", out)


def test_slash_description_form(tmp_path):
    source = ANTT / "horarios-formato-novo.csv"
    assert b"DF/Bras\xedlia - GO/Caldas Novas" in source.read_bytes()  # Latin-1 bytes
    report = ingest("antt-horarios", source, tmp_path)
    assert (report.lidas, report.mantidas, report.rejeitadas) == (6, 6, 0)
    lines = rows(tmp_path, "linhas")
    got = {
        ln["prefixo"]: tuple(
            ln[c] for c in ("origem_municipio", "origem_uf", "destino_municipio", "destino_uf", "ambito")
        )
        for ln in lines
    }
    assert got == {
        "DFGO0010001": ("Brasília", "DF", "Caldas Novas", "GO", "interestadual"),
        "09-0512-00": ("Foz do Iguaçu", "PR", "Ciudad del Este", "PRY", "internacional"),  # PAR -> PRY
        "21-0100-00": ("Corumbá", "MS", "Puerto Quijarro", "BOL", "internacional"),
        "BAPE0020015": ("Juazeiro", "BA", "Petrolina", "PE", "semiurbano"),
    }
    assert by(lines, "prefixo")["DFGO0010001"]["descricao"] == "DF/Brasília - GO/Caldas Novas"
    semi = [h for h in rows(tmp_path, "horarios") if h["linha_prefixo"] == "BAPE0020015"]
    assert [h["data_autorizacao"] for h in semi] == ["", ""]  # an empty date is not an error


@pytest.mark.parametrize(
    "text, ends",
    [
        ("BRASILIA(DF) - CALDAS NOVAS(GO)", ("BRASILIA", "DF", "CALDAS NOVAS", "GO")),
        ("XIQUE-XIQUE(BA) - SAO PAULO(SP)", ("XIQUE-XIQUE", "BA", "SAO PAULO", "SP")),
        ("PLANALTINA (URB)(DF) - PLANALTINA(GO)", ("PLANALTINA (URB)", "DF", "PLANALTINA", "GO")),
        ("  DF/Brasília -  GO/Caldas Novas ", ("Brasília", "DF", "Caldas Novas", "GO")),
        ("BA/Xique-Xique - SP/São Paulo", ("Xique-Xique", "BA", "São Paulo", "SP")),
        ("RS/Santana do Livramento - URU/Rivera", ("Santana do Livramento", "RS", "Rivera", "URY")),
        ("ARICA(CHI) - CORUMBA(MS)", ("ARICA", "CHL", "CORUMBA", "MS")),
    ],
)
def test_description_forms(text, ends):
    parsed, why = parse_description(text)
    assert why is None
    assert (parsed.origem_municipio, parsed.origem_uf, parsed.destino_municipio, parsed.destino_uf) == ends


@pytest.mark.parametrize(
    "text", ["BRASILIA - CALDAS NOVAS", "A(DF) - B(GO) - C(SP)", "BRASILIA(DF) - X(ZZ)", "DF/Brasília"]
)
def test_unreadable_descriptions(text):
    parsed, why = parse_description(text)
    assert parsed is None and f'"{text}"' in why


def test_problem_rows_counts_add_up(problems):
    out, report = problems
    saved = saved_report(out)
    assert_adds_up(saved)
    assert (saved["lidas"], saved["mantidas"], saved["duplicadas"], saved["rejeitadas"]) == (20, 7, 2, 11)
    assert saved["tabelas"] == {"transportadoras": 3, "linhas": 3, "horarios": 7}
    assert sorted(rejected(report)) == [3, 4, 5, 6, 14, 15, 16, 18, 19, 20, 21]


def test_bad_cnpj_check_digit_is_rejected_naming_column_and_value(problems):
    out, report = problems
    row = rejected(report)[3]
    assert 'coluna "cnpj"' in row["motivo"] and '"04.192.453/0001-19"' in row["motivo"]
    assert "dígitos verificadores" in row["motivo"]
    assert row["registro"][:4] == ["04.192.453/0001-19", "ALFA LUZ VIACAO TRANSPORTE LTDA", "08/07/2016", "12-0140-00"]
    assert "16:00" not in {h["horario"] for h in rows(out, "horarios")}


@pytest.mark.parametrize(
    "line, words",
    [
        (4, ["tipo de veículo desconhecido", 'coluna "tipo_veiculo"', '"MICRO-ÔNIBUS"']),
        (5, ["horário ilegível", 'coluna "horario"', '"25:10"']),
        (6, ["horário ilegível", '"14h00"']),
        (14, ["sentido ilegível", '"circular"']),
        (15, ["prefixo ilegível", '"12-140-00"']),
        (16, ["descrição ilegível", '"BRASILIA - CALDAS NOVAS"']),
        (18, ["data inválida", 'coluna "data_autorizacao"', '"31/02/2020"']),
        (19, ['coluna "sabado"', '"S"']),
        (20, ["11 colunas", "27"]),
        (21, ['"XX" não é uma UF nem um país conhecido']),
    ],
)
def test_rejected_rows_say_why(problems, line, words):
    _, report = problems
    reason = rejected(report)[line]["motivo"]
    for w in words:
        assert w in reason


def test_exact_duplicates_dropped_counted_and_listed(problems):
    out, report = problems
    assert report.duplicadas_detalhe == [{"linha": 8, "igual_a_linha": 7}, {"linha": 9, "igual_a_linha": 7}]
    volta = [h for h in rows(out, "horarios") if (h["linha_prefixo"], h["sentido"]) == ("12-0140-00", "volta")]
    assert [h["horario"] for h in volta] == ["07:00"]


@pytest.mark.parametrize(
    "tipo, categoria",
    [
        ("MISTO - LEITO / SEMI-LEITO", "leito_com_ar"),
        ("MISTO - EXECUTIVO / LEITO COM AR", "leito_com_ar"),
        ("MISTO - CONVENCIONAL / SEMI-LEITO", "semileito"),
    ],
)
def test_mixed_vehicle_types_take_their_highest_class(problems, tipo, categoria):
    out, _ = problems
    assert vehicle_category(tipo) == categoria
    written = [h for h in rows(out, "horarios") if h["tipo_veiculo"] == tipo]
    assert [h["categoria"] for h in written] == [categoria]
    assert written[0]["data_autorizacao"] == "1955-04-12"  # old dates are valid


@pytest.mark.parametrize(
    "tipo, categoria",
    [
        ("CONVEN. C/ SANITÁRIO", "convencional_com_sanitario"),
        ("CONVEN. S/ SANITÁRIO", "convencional_sem_sanitario"),
        ("conven. c/ sanitario", "convencional_com_sanitario"),
        ("EXECUTIVO", "executivo"),
        ("SEMI-LEITO", "semileito"),
        ("LEITO COM AR", "leito_com_ar"),
        ("LEITO SEM AR", "leito_sem_ar"),
        ("CAMA", "cama"),
        ("SEMI-URBANO", "semiurbano"),
        ("MISTO - EXECUTIVO / CAMA", "cama"),
        ("MISTO - CONVEN. C/ SANITÁRIO / EXECUTIVO", "executivo"),
        ("MICRO-ÔNIBUS", None),
        ("MISTO - EXECUTIVO / FOGUETE", None),
    ],
)
def test_vehicle_types(tipo, categoria):
    assert vehicle_category(tipo) == categoria


def test_category_order_matches_the_schema(schema):
    assert sorted(CATEGORY_ORDER) == sorted(schema["horarios"].field("categoria")["constraints"]["enum"])


def test_test_company_kept_flagged_and_conflict_reported(problems):
    out, report = problems
    company = by(rows(out, "transportadoras"), "cnpj")["76423366000135"]
    assert company["observacao"] == TEST_NOTE
    assert report.sinalizadas[0]["linha"] == 13
    assert report.conflitos == [
        {
            "chave": "prefixo",
            "valor_chave": "12-0140-00",
            "campo": "descricao_linha",
            "mantido": "BRASILIA(DF) - CALDAS NOVAS(GO)",
            "mantido_linha": 2,
            "ignorado": "BRASILIA(DF) - RIO QUENTE(GO)",
            "linhas": [17],
        }
    ]
    assert by(rows(out, "linhas"), "prefixo")["12-0140-00"]["destino_municipio"] == "CALDAS NOVAS"


def test_same_cnpj_with_another_name_is_a_conflict_first_name_kept(tmp_path):
    source = (ANTT / "horarios-problemas.csv").read_bytes().decode("latin-1").splitlines()
    renamed = (
        source[7].replace("ALFA LUZ VIACAO TRANSPORTE LTDA", "ALFA LUZ TRANSPORTES S.A.").replace("07:00", "23:00")
    )
    export = tmp_path / "export.csv"
    export.write_bytes(("\n".join([*source[:3], renamed]) + "\n").encode("latin-1"))
    report = ingest("antt-horarios", export, tmp_path / "pacote")
    assert [(c["campo"], c["mantido"], c["ignorado"], c["linhas"]) for c in report.conflitos] == [
        ("razao_social", "ALFA LUZ VIACAO TRANSPORTE LTDA", "ALFA LUZ TRANSPORTES S.A.", [4])
    ]
    [carrier] = rows(tmp_path / "pacote", "transportadoras")
    assert carrier["razao_social"] == "ALFA LUZ VIACAO TRANSPORTE LTDA"


def test_output_follows_the_contract(problems, schema):
    out, _ = problems
    for table in ("transportadoras", "linhas", "horarios"):
        raw = (out / f"{table}.csv").read_bytes()
        assert b"\r" not in raw
        assert raw.decode("utf-8").split("\n", 1)[0] == ",".join(schema[table].field_names)
    flags = {v for h in rows(out, "horarios") for f in schema["horarios"].fields_of_type("boolean") for v in [h[f]]}
    assert flags == {"true", "false"}
    written = json.loads((out / "datapackage.json").read_text(encoding="utf-8"))
    [source] = written.pop("sources")
    assert written == {k: v for k, v in schema.descriptor.items() if k != "sources"}
    # the folder declares its own provenance: the regulator's export, real, never the fictional sample's
    assert source["publisher"].startswith("ANTT") and source["fictional"] is False
    assert source["x-arquivo"] == "horarios-problemas.csv"
    report = check(Settings(data=(out,)))
    assert report.valid, [p.mensagem for p in report.errors]


def test_utf8_copy_of_an_export_is_read_too(tmp_path):
    copy = tmp_path / "reexportado.csv"
    copy.write_bytes((ANTT / "horarios-formato-novo.csv").read_bytes().decode("latin-1").encode("utf-8"))
    report = ingest("antt-horarios", copy, tmp_path / "pacote")
    assert report.codificacao == "utf-8" and report.rejeitadas == 0
    assert by(rows(tmp_path / "pacote", "linhas"), "prefixo")["DFGO0010001"]["origem_municipio"] == "Brasília"


def test_report_refuses_counts_that_do_not_add_up():
    report = IngestReport("x.csv", "antt-horarios")
    report.keep()
    report.mantidas += 1
    with pytest.raises(AssertionError, match="lidas=1"):
        report.check()


def test_unreadable_file_raises_before_writing(tmp_path):
    with pytest.raises(IngestError, match="não encontrado"):
        ingest("antt-horarios", tmp_path / "nada.csv", tmp_path / "out")
    assert not (tmp_path / "out").exists()


def test_never_writes_over_the_bundled_sample():
    before = {f.name: f.read_bytes() for f in SAMPLE_DIR.iterdir()}
    with pytest.raises(IngestError, match="amostra do projeto"):
        ingest("antt-horarios", ANTT / "horarios-problemas.csv", SAMPLE_DIR)
    assert {f.name: f.read_bytes() for f in SAMPLE_DIR.iterdir()} == before


# --- the command line ------------------------------------------------------------------------------


def test_cli_prints_the_summary_and_exits_zero(tmp_path):
    out = tmp_path / "pacote"
    proc = cli("ingest", "antt-horarios", str(ANTT / "horarios-problemas.csv"), "--out", str(out))
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    counts = ["lidas: 20", "mantidas: 7", "mescladas: 0", "duplicadas: 2", "rejeitadas: 11"]
    tables = ["transportadoras.csv: 3 linhas", "linhas.csv: 3 linhas", "horarios.csv: 7 linhas"]
    start = lines.index(counts[0])
    assert lines[start : start + 8] == counts + tables
    assert "20 lidas = 7 mantidas + 0 mescladas + 2 duplicadas + 11 rejeitadas; horarios.csv: 7 linhas" in lines
    assert "sinalizadas: 1" in lines and "conflitos: 1" in lines
    assert 'REJEITADA linha 3: CNPJ inválido: coluna "cnpj" = "04.192.453/0001-19"' in proc.stderr
    assert saved_report(out)["rejeitadas"] == 11


def test_cli_missing_file_exits_one_naming_it(tmp_path):
    missing = tmp_path / "quadro.csv"
    proc = cli("ingest", "antt-horarios", str(missing), "--out", str(tmp_path / "pacote"))
    assert proc.returncode == 1
    assert f"{missing}: arquivo não encontrado" in proc.stderr
    assert not (tmp_path / "pacote").exists()


def test_cli_wrong_header_exits_one_saying_what_is_wrong(tmp_path):
    wrong = ANTT / "linhas-secoes.csv"
    proc = cli("ingest", "antt-horarios", str(wrong), "--out", str(tmp_path / "pacote"))
    assert proc.returncode == 1
    assert str(wrong) in proc.stderr and "cabeçalho diferente do esperado" in proc.stderr
    assert "faltam as colunas" in proc.stderr and "tipo_veiculo" in proc.stderr
    comma = tmp_path / "virgulas.csv"
    comma.write_text("cnpj,razao_social,prefixo\n", encoding="latin-1")
    proc = cli("ingest", "antt-horarios", str(comma), "--out", str(tmp_path / "pacote"))
    assert proc.returncode == 1 and "o separador deve ser ';'" in proc.stderr


# --- hand-written fixtures: the lines-and-sections export -----------------------------------------


@pytest.fixture(scope="module")
def sections(tmp_path_factory):
    out = tmp_path_factory.mktemp("linhas-secoes")
    return out, ingest("antt-linhas-secoes", ANTT / "linhas-secoes.csv", out)


def test_lines_and_sections_fixture_is_latin1_crlf():
    raw = (ANTT / "linhas-secoes.csv").read_bytes()
    assert raw.count(b"\r\n") == raw.count(b"\n") == 14
    assert b"S\xc3O PAULO" in raw and b";434,5;" in raw


def test_lines_and_sections_counts(sections):
    out, report = sections
    saved = saved_report(out)
    assert_adds_up(saved)
    assert (saved["lidas"], saved["mantidas"], saved["mescladas"], saved["duplicadas"], saved["rejeitadas"]) == (
        13, 8, 1, 1, 3)
    # every kept row is one published section: a section listed again (another carrier) is merged, and said so
    assert saved["tabelas"] == {"transportadoras": 3, "linhas": 5, "secoes": 8}
    assert [(m["linha"], m["mesclada_com_linha"]) for m in saved["mescladas_detalhe"]] == [(11, 2)]
    assert saved["duplicadas_detalhe"] == [{"linha": 5, "igual_a_linha": 4}]
    reasons = {r["linha"]: r["motivo"] for r in saved["rejeitadas_detalhe"]}
    assert 'âmbito desconhecido: coluna "ambito_linha" = "MUNICIPAL"' in reasons[12]
    assert 'coluna "extensao_secao" = "cem"' in reasons[13]
    assert 'coluna "cnpj" = "10.834.217/0001-51"' in reasons[14]


def test_lines_from_the_sections_export(sections):
    out, _ = sections
    lines = by(rows(out, "linhas"), "prefixo")
    got = {
        p: (ln["origem_municipio"], ln["destino_municipio"], ln["destino_uf"], ln["ambito"], ln["extensao_km"])
        for p, ln in lines.items()
    }
    assert got == {
        "RJSP0030026": ("RIO DE JANEIRO", "SÃO PAULO", "SP", "interestadual", "434.5"),
        "RSSP0010034": ("PORTO ALEGRE", "SÃO PAULO", "SP", "interestadual", "1109.6"),
        "09-0512-00": ("FOZ DO IGUAÇU", "ASSUNÇÃO", "PRY", "internacional", "335"),
        "12-0730-70": ("BRASILIA", "LUZIANIA", "GO", "semiurbano", "58.3"),
        "06-0100-00": ("BELO HORIZONTE", "VITÓRIA", "ES", "interestadual", ""),
    }
    assert "SPSP0010001" not in lines  # its only row was rejected


def test_sections_from_the_sections_export(sections, schema):
    out, report = sections
    header = (out / "secoes.csv").read_text(encoding="utf-8").split("\n", 1)[0]
    assert header == ",".join(schema["secoes"].field_names)
    got = sorted(
        (
            s["linha_prefixo"],
            s["origem_municipio"],
            s["origem_uf"],
            s["destino_municipio"],
            s["destino_uf"],
            s["extensao_km"],
            s["tipo_servico"],
        )
        for s in rows(out, "secoes")
    )
    assert got == [
        ("06-0100-00", "BELO HORIZONTE", "MG", "GOVERNADOR VALADARES", "MG", "320.4", "EXECUTIVO"),
        ("09-0512-00", "FOZ DO IGUAÇU", "PR", "ASSUNÇÃO", "PRY", "335", "CONVENCIONAL"),
        ("12-0730-70", "LUZIANIA", "GO", "BRASILIA", "DF", "58.3", "CONVENCIONAL"),
        ("RJSP0030026", "RESENDE", "RJ", "SÃO PAULO", "SP", "277.3", "CONVENCIONAL"),
        ("RJSP0030026", "RIO DE JANEIRO", "RJ", "RESENDE", "RJ", "157.2", "CONVENCIONAL"),
        ("RJSP0030026", "RIO DE JANEIRO", "RJ", "SÃO PAULO", "SP", "434.5", "CONVENCIONAL"),
        ("RSSP0010034", "PORTO ALEGRE", "RS", "CURITIBA", "PR", "711.4", "LEITO"),
        ("RSSP0010034", "PORTO ALEGRE", "RS", "SÃO PAULO", "SP", "1109.6", "LEITO"),
    ]
    [conflict] = report.conflitos
    assert (conflict["campo"], conflict["mantido"], conflict["ignorado"], conflict["linhas"]) == (
        "extensao_km",
        "434.5",
        "429",
        [11],
    )
    # the columns the contract has no place for are left out
    written = "".join((out / f"{t}.csv").read_text(encoding="utf-8") for t in ("transportadoras", "linhas", "secoes"))
    assert "TAR-0123" not in written and "LOP-0456" not in written and "AUTORIZADA" not in written


def test_sections_package_validates(sections):
    out, _ = sections
    report = check(Settings(data=(out,)))
    assert report.valid, [p.mensagem for p in report.errors]


def test_cli_lines_and_sections(tmp_path):
    proc = cli("ingest", "antt-linhas-secoes", str(ANTT / "linhas-secoes.csv"), "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "secoes.csv: 8 linhas" in proc.stdout.splitlines()
    assert 'REJEITADA linha 12: âmbito desconhecido: coluna "ambito_linha" = "MUNICIPAL"' in proc.stderr


# --- an adapter is a declaration: header detection and damaged text ---------------------------------


@pytest.mark.parametrize("fixture, adapter", [("horarios-formato-novo.csv", "antt-horarios"),
                                              ("linhas-secoes.csv", "antt-linhas-secoes")])
def test_ingest_picks_the_adapter_by_the_files_header(fixture, adapter, tmp_path):
    by_header, named = tmp_path / "pelo-cabecalho", tmp_path / "pelo-nome"
    result = cli("ingest", str(ANTT / fixture), "--out", str(by_header))
    assert result.returncode == 0, result.stderr
    assert f"({adapter}, " in result.stdout and saved_report(by_header)["adaptador"] == adapter
    assert cli("ingest", adapter, str(ANTT / fixture), "--out", str(named)).returncode == 0
    for path in sorted(named.iterdir()):  # naming the adapter gives the same package
        assert (by_header / path.name).read_bytes() == path.read_bytes(), path.name


def test_a_file_of_no_known_layout_names_the_known_ones(tmp_path):
    export = tmp_path / "outra.csv"
    export.write_bytes(b"codigo;nome\n1;A\n")
    result = cli("ingest", str(export), "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and not (tmp_path / "out").exists()
    assert "não é o de nenhuma exportação conhecida" in result.stderr
    assert "antt-horarios (2021, SIGMA (2025-))" in result.stderr and "antt-empresas-habilitadas (regular" in result.stderr


def _damaged_copy(tmp_path: Path, change) -> Path:
    text = REAL.read_bytes().decode("latin-1")
    path = tmp_path / "quadro-de-horarios-2021.csv"
    path.write_bytes(change(text))
    return path


@pytest.mark.skipif(not REAL.is_file(), reason="the real export lives in ../shared")
@pytest.mark.parametrize("change, said", [
    # re-saved by a tool that could not read Latin-1: every accent became U+FFFD
    (lambda t: "".join("\ufffd" if ord(c) > 127 else c for c in t).encode("utf-8"), "U+FFFD"),
    # UTF-8 bytes read as Latin-1 and saved as UTF-8 again: "VIAÇÃO" became "VIAÃ‡ÃƒO"
    (lambda t: t.encode("utf-8").decode("latin-1").encode("utf-8"), "um acento em UTF-8 lido como Latin-1"),
])
def test_a_copy_of_the_real_export_with_its_accents_lost_is_refused_whole(change, said, tmp_path):
    damaged = _damaged_copy(tmp_path, change)
    first = next(n for n, line in enumerate(damaged.read_text(encoding="utf-8").splitlines(), 1)
                 if n > 1 and ("\ufffd" in line or "Ã" in line))
    result = cli("ingest", "antt-horarios", str(damaged), "--out", str(tmp_path / "out"))
    assert result.returncode == 1 and not (tmp_path / "out").exists()
    [message] = [line for line in result.stderr.splitlines() if line.startswith("erro:")]
    assert f"linha {first}, coluna " in message and said in message and "nada foi gravado" in message


# --- SIGMA's current layouts (2025-) ---------------------------------------------------------------


@pytest.fixture(scope="module")
def sigma_sections(tmp_path_factory):
    out = tmp_path_factory.mktemp("sigma") / "secoes"
    return out, ingest(None, ANTT / "linhas-secoes-sigma.csv", out)


def site_of(tmp_path: Path, sections: Path, *fixtures: str) -> Path:
    """The site built, as of 2026-11-29, from the SIGMA sections package and the fixtures named, each ingested."""
    folders = [sections]
    for fixture in fixtures:
        folders.append(tmp_path / fixture.split(".")[0])
        ingest(None, ANTT / fixture, folders[-1])
    site = tmp_path / "site"
    build(Settings(data=tuple(folders), out=site, as_of=date(2026, 11, 29), search_index=False))
    return site


def test_sigma_sections_every_row_accounted_for(sigma_sections):
    out, report = sigma_sections
    assert report.adaptador == "antt-linhas-secoes"
    assert (report.lidas, report.mantidas, report.rejeitadas) == (8, 6, 2)
    assert_adds_up(saved_report(out))
    why = rejected(report)
    assert "descrição ilegível" in why[8]["motivo"] and "Pela BR-153" in why[8]["motivo"]
    assert why[9]["motivo"] == 'tipo de autorização desconhecido: coluna "outorga_secao" = "LIMINAR"'


def test_sigma_sections_keep_the_court_order_and_the_route_tail(sigma_sections):
    out, _ = sigma_sections
    line = by(rows(out, "linhas"), "prefixo")["ESMG0040011"]
    assert (line["destino_municipio"], line["destino_uf"], line["via"]) == ("Belo Horizonte", "MG",
                                                                           "Via João Monlevade (MG)")
    assert line["descricao"] == "ES/Guarapari - MG/Belo Horizonte - Via João Monlevade (MG)"
    sections = rows(out, "secoes")
    kinds = {(s["linha_prefixo"], s["origem_municipio"]): s["tipo_autorizacao"] for s in sections}
    assert kinds[("ESMG0040011", "Guarapari")] == kinds[("ESMG0040011", "Vitória")] == "autorizacao_judicial"
    assert kinds[("RJSP0030026", "Magé")] == "autorizacao"
    assert {s["tipo_servico"] for s in sections} == {"Semileito", "Executiva", "", "Básica", "Leito"}
    assert all(s["extensao_km"] == "" for s in sections)  # empty in the CSV: never invented


def test_sigma_sections_resolve_to_ibge_and_build(sigma_sections, tmp_path):
    out, report = sigma_sections
    assert report.municipios_nao_resolvidos == []  # "Belo Horizonte", not "Belo Horizonte - Via João…"
    site = tmp_path / "site"
    build(Settings(data=(out,), out=site, as_of=AS_OF, search_index=False))
    page = BeautifulSoup((site / "linhas" / "esmg0040011" / "index.html").read_text(encoding="utf-8"), "html.parser")
    text = " ".join(page.get_text(" ").split())
    assert "Via João Monlevade (MG)" in text and "autorização judicial" in text.lower()


def test_sigma_timetable_keeps_gratuidade_and_maps_the_service_names(tmp_path):
    out = tmp_path / "horarios"
    report = ingest(None, ANTT / "horarios-sigma.csv", out)
    assert report.adaptador == "antt-horarios" and (report.lidas, report.mantidas, report.rejeitadas) == (6, 5, 1)
    assert rejected(report)[7]["motivo"] == 'tipo de veículo desconhecido: coluna "tipo_veiculo" = "Double Deck"'
    got = {(h["linha_prefixo"], h["horario"]): h for h in rows(out, "horarios")}
    assert {k: (h["tipo_veiculo"], h["categoria"], h["gratuidade"]) for k, h in got.items()} == {
        ("GOTO0113002", "08:00"): ("Básica", "convencional_com_sanitario", "Idoso"),
        ("GOTO0113002", "21:30"): ("Leito", "leito_com_ar", ""),
        ("ESMG0040011", "22:15"): ("Executiva", "executivo", "ID Jovem"),
        ("RJSP0030026", "06:45"): ("Semileito", "semileito", ""),
        ("RJSP0030026", "23:59"): ("Cama", "cama", ""),
    }
    assert got[("RJSP0030026", "06:45")]["sabado"] == "true" and got[("RJSP0030026", "06:45")]["segunda"] == "false"
    assert by(rows(out, "linhas"), "prefixo")["ESMG0040011"]["via"] == "Via João Monlevade (MG)"
    assert check(Settings(data=(out,))).valid


# --- licensed carriers (Empresas Habilitadas), three layouts -----------------------------------------


def test_licensed_carriers_regular_file(tmp_path):
    out = tmp_path / "habilitadas"
    report = ingest(None, ANTT / "habilitadas-regular.csv", out)
    assert report.adaptador == "antt-empresas-habilitadas"
    assert (report.lidas, report.mantidas, report.mescladas, report.rejeitadas) == (5, 3, 1, 1)
    assert_adds_up(saved_report(out))
    assert 'data inválida: coluna "vigencia" = "2027-01-31"' in rejected(report)[6]["motivo"]
    [conflict] = report.conflitos
    assert (conflict["campo"], conflict["mantido"], conflict["ignorado"]) == ("numero_tar", "123/2019", "124/2019")
    got = by(rows(out, "habilitacoes"), "transportadora_cnpj")
    assert {c: (h["mercado"], h["numero_tar"], h["vigencia"]) for c, h in got.items()} == {
        "32285454000142": ("regular", "123/2019", "2027-12-31"),
        "00018127000138": ("regular", "", "2026-03-15"),
        "55667788000186": ("regular", "456/2020", "2028-06-30"),
    }
    assert set(by(rows(out, "transportadoras"), "cnpj")) == set(got)  # the carriers, those with no line too
    assert check(Settings(data=(out,))).valid


@pytest.mark.parametrize("fixture, expected", [
    ("habilitadas-semiurbano.csv", {"55667788000186": ("semiurbano", "", "2027-01-01", "Habilitada", "", ""),
                                    "00018127000138": ("semiurbano", "", "", "Suspensa", "", "")}),
    ("habilitadas-2021.csv", {"32285454000142": ("regular", "", "2022-12-31", "ATIVA", "AUTORIZAÇÃO", "REGULAR")}),
])
def test_licensed_carriers_other_layouts(fixture, expected, tmp_path):
    out = tmp_path / "habilitadas"
    report = ingest(None, ANTT / fixture, out)
    assert report.rejeitadas == 0 and report.mantidas == len(expected)
    got = {h["transportadora_cnpj"]: (h["mercado"], h["numero_tar"], h["vigencia"], h["situacao"], h["regime"],
                                      h["modalidade"]) for h in rows(out, "habilitacoes")}
    assert got == expected


def test_a_carrier_page_shows_its_licence_and_a_licensed_carrier_with_no_line_has_a_page(sigma_sections, tmp_path):
    sections, _ = sigma_sections
    licences = tmp_path / "habilitadas"
    ingest(None, ANTT / "habilitadas-regular.csv", licences)
    site = tmp_path / "site"
    build(Settings(data=(sections, licences), out=site, as_of=date(2026, 11, 29), search_index=False))

    def text(cnpj):
        return " ".join(BeautifulSoup((site / "transportadoras" / cnpj / "index.html").read_text(encoding="utf-8"),
                                      "html.parser").get_text(" ").split())

    tocantins = text("00018127000138")
    assert "Habilitação no regime atual" in tocantins and "não informado" in tocantins
    assert "15/03/2026 (já passada em 29/11/2026" in tocantins  # the regulator's date, compared, not judged
    assert "nenhuma regra, prazo ou consequência do decreto" in tocantins
    sem_linha = text("55667788000186")
    assert "456/2020" in sem_linha and "30/06/2028" in sem_linha and "já passada" not in sem_linha


# --- paralysed services and line history (SIGMA), dates in two orders --------------------------------


def test_paralysed_services_dates_are_read_in_their_only_order_or_refused(tmp_path):
    out = tmp_path / "paralisados"
    report = ingest(None, ANTT / "paralisados-sigma.csv", out)
    assert report.adaptador == "antt-servicos-paralisados"
    assert (report.lidas, report.mantidas, report.rejeitadas) == (6, 3, 3)
    why = rejected(report)
    assert why[2]["motivo"].startswith('data ambígua: coluna "data_paralisacao" = "03/02/2026"')
    assert why[5]["motivo"].startswith('data ambígua: coluna "data_paralisacao" = "05/06/2026"')
    assert "data da paralisação ausente" in why[7]["motivo"]
    got = {(p["origem_municipio"], p["destino_municipio"]): p["data_paralisacao"] for p in rows(out, "paralisacoes")}
    assert got == {("Anápolis", "Palmas"): "2026-09-22", ("Goiânia", "Palmas"): "2026-08-15",
                   ("Goiânia", "Gurupi"): "2026-07-07"}
    assert check(Settings(data=(out,))).valid


def test_line_history_keeps_the_record_as_published(tmp_path):
    out = tmp_path / "historico"
    report = ingest(None, ANTT / "historico-sigma.csv", out)
    assert report.adaptador == "antt-historico-linhas" and (report.mantidas, report.rejeitadas) == (2, 3)
    assert "protocolo ausente" in rejected(report)[6]["motivo"]
    got = by(rows(out, "historico_linhas"), "protocolo")
    court = got["50500.034567/2026-32"]
    assert (court["data_atualizacao"], court["descricao"], court["situacao_servico"], court["tipo_autorizacao"]) == (
        "2026-01-15", "Cumprimento de decisão judicial", "Ativo", "autorizacao_judicial")
    assert check(Settings(data=(out,))).valid


def test_a_line_page_says_it_is_paralysed_and_shows_its_history(sigma_sections, tmp_path):
    sections, _ = sigma_sections
    site = site_of(tmp_path, sections, "paralisados-sigma.csv", "historico-sigma.csv")

    def text(prefixo):
        return page_text(site / "linhas" / prefixo.lower() / "index.html")

    goto = text("GOTO0113002")
    assert "Serviço paralisado: segundo o regulador, 3 trechos desta linha estão paralisados, o primeiro desde 07/07/2026" in goto
    assert "Anápolis (GO) → Palmas (TO) 22/09/2026" in goto
    assert "As paralisações são registros do regime que substituiu o Decreto nº 952/1993" in goto
    esmg = text("ESMG0040011")
    assert "15/01/2026 50500.034567/2026-32 Cumprimento de decisão judicial Ativo" in esmg
    assert "Serviço paralisado" not in esmg and "Nenhuma paralisação registrada" in esmg


def test_a_paralysed_section_is_said_and_never_offered_on_the_pair(sigma_sections, tmp_path):
    sections, _ = sigma_sections
    paralysed = tmp_path / "paralisados"
    ingest(None, ANTT / "paralisados-sigma.csv", paralysed)
    site = tmp_path / "site"
    build(Settings(data=(sections, paralysed), out=site, as_of=date(2026, 11, 29), search_index=False))
    pair = site / "cidades" / "go" / "goiania" / "para" / "to-palmas"
    text = page_text(pair / "index.html")
    assert "Paralisado: segundo o regulador, o trecho de Goiânia para Palmas está paralisado na linha abaixo" in text
    assert "GOTO0113002 , linha de Goiânia a Palmas: trecho paralisado desde 15/08/2026" in text
    assert "Nenhuma partida oferecida de Goiânia para Palmas: o trecho está paralisado em todas as linhas que o servem" in text
    assert 'class="rota-linhas' not in (pair / "index.html").read_text(encoding="utf-8")  # no empty table
    answer = json.loads(pair.with_suffix(".json").read_text(encoding="utf-8"))
    assert answer["linhas"] == [] and [x["prefixo"] for x in answer["paralisadas"]] == ["GOTO0113002"]
    assert answer["paralisadas"][0]["desde_texto"] == "15/08/2026"
    # the other direction was not published as paralysed: still offered
    back = answer_json(site, "to/palmas", "go/goiania")
    assert [x["prefixo"] for x in back["linhas"]] == ["GOTO0113002"] and back["paralisadas"] == []


# --- the operational scheme (stops): the itinerary and the answer from A to B --------------------------


def test_stops_ingest_every_row_accounted_for(tmp_path):
    out = tmp_path / "pontos"
    report = ingest(None, ANTT / "pontos-sigma.csv", out)
    assert report.adaptador == "antt-pontos-esquema-operacional"
    assert (report.lidas, report.mantidas, report.duplicadas, report.rejeitadas) == (9, 5, 1, 3)
    why = rejected(report)
    assert "não começa pelo código ANTT" in why[8]["motivo"] and "Município - UF" in why[9]["motivo"]
    assert why[10]["motivo"] == 'marcação ilegível: coluna "secao" = "S" (esperado Sim ou Não)'
    stops = rows(out, "paradas")
    assert [(s["sequencia"], s["codigo_parada"], s["municipio"]) for s in stops] == [
        ("1", "GO00001", "Goiânia"), ("2", "GO00105", "Anápolis"), ("3", "GO00230", "Uruaçu"),
        ("4", "TO00077", "Gurupi"), ("5", "TO00001", "Palmas")]
    assert stops[2]["refeicao"] == "true" and stops[2]["troca_de_veiculo"] == "false"
    assert check(Settings(data=(out,))).valid


def test_the_answer_from_a_to_b_includes_lines_that_stop_in_both_in_that_order(tmp_path):
    stops = tmp_path / "pontos"
    ingest(None, ANTT / "pontos-sigma.csv", stops)
    site = tmp_path / "site"
    build(Settings(data=(stops,), out=site, as_of=date(2026, 11, 29), search_index=False))
    line = page_text(site / "linhas" / "goto0113002" / "index.html")
    assert "3 POSTO TREVÃO (GO00230) Uruaçu (GO) ponto de apoio, lanche, refeição, troca de motorista" in line
    # Anápolis and Gurupi are neither terminals nor the ends of a section: the stops alone join them
    there = site / "cidades" / "go" / "anapolis" / "para" / "to-gurupi"
    answer = answer_json(site, "go/anapolis", "to/gurupi")
    [served] = answer["linhas"]
    assert served["prefixo"] == "GOTO0113002" and served["por_paradas"] and served["partidas_semana"] is None
    # no departure, fare or ticket between them: answered in Anápolis's row of destinations, not a page of its own
    assert not there.exists()
    row = page_text(site / "cidades" / "go" / "anapolis" / "index.html")
    assert "Gurupi (TO) GOTO0113002 (pelas paradas)" in row
    assert "Pelas paradas: a linha para em Anápolis e depois no destino, no seu esquema operacional." in row
    assert answer_json(site, "to/gurupi", "go/anapolis") is None  # not in that order


def test_achados_lists_where_the_regulators_publications_disagree(sigma_sections, tmp_path):
    sections, _ = sigma_sections
    site = site_of(tmp_path, sections, "horarios-sigma.csv", "habilitadas-regular.csv", "paralisados-sigma.csv")
    found = {(r["regra"], r["chave"]): r for r in rows(site / "dados", "inconsistencias")}
    assert set(found) == {("horario-em-secao-paralisada", "GOTO0113002"),
                          ("linhas-com-habilitacao-vencida", "00018127000138"),
                          ("habilitada-sem-linha", "55667788000186")}
    stopped = found[("horario-em-secao-paralisada", "GOTO0113002")]
    assert stopped["descricao"] == ("A linha GOTO0113002 tem 1 partida no sentido ida no quadro de horários, mas a "
                                    "ligação Goiânia (GO) → Palmas (TO) está publicada como paralisada desde 15/08/2026.")
    assert len(stopped["fontes"].split(" | ")) == 2  # the timetable's and the paralysis's
    assert found[("linhas-com-habilitacao-vencida", "00018127000138")]["transportadora_nome"] == \
        "TOCANTINS TRANSPORTE E TURISMO LTDA"
    page = page_text(site / "achados" / "index.html").replace(" ,", ",").replace(" )", ")")  # as read, without the gaps of tags
    assert "Inconsistências entre publicações do regulador" in page and "Não são infrações ao Decreto nº 952/1993" in page
    assert "0 inconsistências (compara horarios, secoes)" in page  # the rule ran, and found none
    listed = BeautifulSoup((site / "achados" / "index.html").read_text(encoding="utf-8"), "html.parser")
    assert len(listed.select("dl.inconsistencias dt")) == 4
    assert not (site / "dados" / "achados.csv").read_text(encoding="utf-8").count("\n") > 1  # none is a finding


def test_an_inconsistency_rule_whose_tables_no_source_covers_says_so(sigma_sections, tmp_path):
    sections, _ = sigma_sections
    site = tmp_path / "site"
    build(Settings(data=(sections,), out=site, as_of=date(2026, 11, 29), search_index=False))
    page = page_text(site / "achados" / "index.html").replace(" ,", ",")
    assert "não verificada: as fontes deste site não incluem horarios, paralisacoes" in page
    assert "Nenhuma comparação pôde ser feita com as fontes deste site" in page


# --- Monitriip: tickets sold and the price actually paid -------------------------------------------


def test_monitriip_tickets_refuse_what_the_layout_leaves_open(tmp_path):
    out = tmp_path / "bilhetes"
    report = ingest(None, ANTT / "monitriip-bilhetes.csv", out)
    assert report.adaptador == "antt-monitriip-bilhetes"
    assert (report.lidas, report.mantidas, report.rejeitadas) == (9, 6, 3)
    why = rejected(report)
    assert why[8]["motivo"].startswith('ponto ilegível: coluna "ponto_origem_viagem" = "Terminal Rodoviário de Goiânia"')
    assert why[9]["motivo"] == 'mês ilegível: coluna "mes_emissao_bilhete" = "13/2026" não é MM/AAAA nem AAAA-MM'
    assert why[10]["motivo"].startswith('número ilegível: coluna "media_valor_total" = "199.00"')
    got = rows(out, "bilhetes")
    leito = next(r for r in got if r["tipo_servico"] == "Leito")
    assert (leito["mes_viagem"], leito["mes_emissao"], leito["valor_medio"], leito["quantidade"]) == (
        "2026-08", "2026-07", "1250.0", "40")
    assert check(Settings(data=(out,))).valid


def test_a_pair_page_shows_what_passengers_paid_month_by_month(tmp_path):
    sections = tmp_path / "secoes"
    ingest(None, ANTT / "linhas-secoes-sigma.csv", sections)
    tickets = tmp_path / "bilhetes"
    ingest(None, ANTT / "monitriip-bilhetes.csv", tickets)
    site = tmp_path / "site"
    build(Settings(data=(sections, tickets), out=site, as_of=date(2026, 11, 29), search_index=False))
    pair = site / "cidades" / "go" / "goiania" / "para" / "to-palmas"
    answer = json.loads(pair.with_suffix(".json").read_text(encoding="utf-8"))
    months = {m["mes"]: m for m in answer["bilhetes"]}
    # recomputed from the fixture: September, 1,240 + 860 paid and 95 free, the mean weighted by tickets
    sep = months["2026-09"]
    assert (sep["bilhetes"], sep["pagos"]) == (2195, 2100)
    assert sep["valor_medio_pago"] == round((189.90 * 1240 + 205.10 * 860) / 2100, 2) == 196.12
    assert months["2026-07"]["bilhetes"] == 1500  # "GOIANIA(GO)" is the same place as "Goiânia - GO"
    text = page_text(pair / "index.html")
    assert "Quantos viajaram e quanto pagaram (Monitriip)" in text
    assert "09/2026 R$ 196,12 2.195 2.100 95" in text  # 196.1247… rounded, beside the month
    chart = (pair / "index.html").read_text(encoding="utf-8")
    assert '<title id="grafico-bilhetes-titulo">Bilhetes vendidos por mês da viagem</title>' in chart
    assert "3 meses, de 07/2026 a 09/2026" in chart
    assert "bilhetes pagos" in text and "bilhetes gratuitos" in text  # the chart's colours, said beside it
    back = answer_json(site, "to/palmas", "go/goiania")
    assert [m["bilhetes"] for m in back["bilhetes"]] == [700]  # the other way, as published


def test_a_line_and_a_carrier_page_show_the_inconsistencies_that_concern_them(sigma_sections, tmp_path):
    sections, _ = sigma_sections
    site = site_of(tmp_path, sections, "horarios-sigma.csv", "habilitadas-regular.csv", "paralisados-sigma.csv",
                   "pontos-sigma.csv")
    line = page_text(site / "linhas" / "goto0113002" / "index.html").replace(" :", ":")  # without the gap of </strong>
    assert "Inconsistências entre publicações do regulador" in line
    assert "Horários numa ligação publicada como paralisada: A linha GOTO0113002 tem 1 partida no sentido ida" in line
    carrier = page_text(site / "transportadoras" / "55667788000186" / "index.html").replace(" :", ":")
    assert "Transportadora habilitada sem linha no quadro de horários: A transportadora está habilitada" in carrier
    quiet = page_text(site / "linhas" / "rjsp0030026" / "index.html")
    assert "Inconsistências entre publicações" not in quiet
    # Goiânia -> Gurupi is served through the stops of GOTO0113002, whose Goiânia -> Gurupi stretch is paralysed
    pair = page_text(site / "cidades" / "go" / "goiania" / "para" / "to-gurupi" / "index.html")
    assert ("o trecho de Goiânia para Gurupi está paralisado na linha abaixo, que por isso não é oferecida aqui, nem suas "
            "partidas: GOTO0113002 , linha de Goiânia a Palmas: trecho paralisado desde 07/07/2026") in pair
