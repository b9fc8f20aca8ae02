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
from conftest import FIXTURES, SHARED, cli

from pipeline import SAMPLE_DIR
from pipeline.adapters import IngestError, IngestReport, ingest
from pipeline.adapters.antt_horarios import CATEGORY_ORDER, vehicle_category
from pipeline.adapters.common import parse_description
from pipeline.build import build, check
from pipeline.settings import Settings

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
def real_site(real, tmp_path_factory):
    """One build of the ingested real export plus a folder holding only a tarifas.csv for 12-0140-00."""
    out, _ = real
    extra = tmp_path_factory.mktemp("tarifas") / "so-tarifas"
    extra.mkdir()
    (extra / "tarifas.csv").write_text(
        "linha_prefixo,origem,destino,categoria,valor,vigencia_inicio,motivo,ato\n"
        "12-0140-00,BRASILIA,CALDAS NOVAS,convencional_com_sanitario,62.35,2021-01-01,reajuste,\n",
        encoding="utf-8",
    )
    site = tmp_path_factory.mktemp("site-real") / "site"
    build(Settings(data=(out, extra), out=site, as_of=AS_OF, search_index=False, whoosh_dir=site.parent / "busca"))
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
def test_real_line_timetable_and_weekly_frequency_after_a_build(real, real_site):
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
    published = by(rows(real_site / "dados", "linhas"), "prefixo")["12-0140-00"]
    assert (published["frequencia_semanal_ida"], published["frequencia_semanal_volta"]) == ("7", "7")
    page = BeautifulSoup(
        (real_site / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8"), "html.parser"
    )
    text = " ".join(page.find(id="horarios-titulo").parent.get_text(" ").split())
    assert "7 viagens por semana na ida" in text and "7 na volta" in text
    assert "14:00" in text and "07:00" in text and "ALFA LUZ VIACAO TRANSPORTE LTDA" in text
    carrier = (real_site / "transportadoras" / "76423366000135" / "index.html").read_text(encoding="utf-8")
    assert TEST_NOTE in carrier
    # The export has no outorgas: a carrier's lines come from its timetable.
    alfa = BeautifulSoup(
        (real_site / "transportadoras" / "04192453000118" / "index.html").read_text(encoding="utf-8"), "html.parser"
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
    export.write_bytes("\n".join([*source[:3], renamed]).encode("latin-1"))
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
    assert "antt-horarios (2021)" in result.stderr and "antt-linhas-secoes (2021)" in result.stderr


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
