"""Places resolved to IBGE codes (pipeline/places), the municipios table, city pages and the
"De ... Para ..." answers, on the fixture package and on the real 2021 export."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import page_text

from pipeline.adapters import unresolved_places
from pipeline.contract.schema import load_schema
from pipeline.places import BY_ALIAS, BY_NAME, UNRESOLVED, aliases, fold_name, resolve


def test_fold_drops_accents_case_and_punctuation():
    assert fold_name("São Miguel D'Oeste") == "SAO MIGUEL D OESTE"
    assert fold_name("  sao   paulo ") == fold_name("SÃO PAULO") == "SAO PAULO"
    assert fold_name("MOJI-MIRIM") == "MOJI MIRIM"


def test_resolve_by_name_by_alias_and_never_guessing():
    sp = resolve("SAO PAULO", "SP")
    assert (sp.codigo_ibge, sp.nome, sp.uf, sp.resolucao) == ("3550308", "São Paulo", "SP", BY_NAME)
    assert sp.chave == "sp/sao-paulo"
    tag = resolve("TAGUATINGA", "DF")
    assert (tag.codigo_ibge, tag.nome, tag.resolucao) == ("5300108", "Brasília", BY_ALIAS)
    assert "região administrativa" in tag.motivo.lower()
    assert resolve("MOJI-MIRIM", "SP").nome == "Mogi Mirim"
    foreign = resolve("PUERTO SUAREZ", "BOL")  # a town abroad the project reviewed: its own spelling
    assert (foreign.codigo_ibge, foreign.nome, foreign.resolucao, foreign.chave) == (
        None, "Puerto Suárez", UNRESOLVED, "bol/puerto-suarez")
    assert foreign.motivo.startswith("fora do Brasil: Cidade da Bolívia")
    other = resolve("CIUDAD INVENTADA", "ARG")  # not reviewed: the source's text, no spelling invented
    assert (other.nome, other.motivo) == ("CIUDAD INVENTADA", "fora do Brasil")
    reviewed = resolve("MOSQUITO", "TO")  # in the alias table without a code: not identified, so not guessed
    assert reviewed.codigo_ibge is None and "a revisar" in reviewed.motivo
    assert resolve("CIDADE INVENTADA", "GO").motivo == "nome não encontrado na lista do IBGE nem na tabela de apelidos"


def test_a_reviewed_town_abroad_is_abroad_and_spelled_as_the_source_writes_it(tmp_path):
    from pipeline.places import abroad

    for (_, country), (_, why) in abroad().items():
        assert len(country) == 3 and why.strip()
    uf = tmp_path / "uf.csv"
    uf.write_text("pais,grafia,nome,motivo\nMS,CORUMBA,Corumbá,teste\n", encoding="utf-8")
    with pytest.raises(ValueError, match="CORUMBA: MS é uma UF, não um país"):
        abroad(uf)
    other = tmp_path / "outro.csv"
    other.write_text("pais,grafia,nome,motivo\nBOL,PUERTO SUAREZ,Puerto Quijarro,teste\n", encoding="utf-8")
    with pytest.raises(ValueError, match="PUERTO SUAREZ: a grafia 'Puerto Quijarro' não é a mesma sem acentos"):
        abroad(other)


def test_every_alias_has_a_reason_and_a_real_code(tmp_path):
    for alias in aliases().values():
        assert alias.motivo.strip(), alias
    bad = tmp_path / "apelidos.csv"
    bad.write_text("uf,grafia,codigo_ibge,motivo\nSP,LUGAR,9999999,teste\n", encoding="utf-8")
    with pytest.raises(ValueError, match="LUGAR/SP: código IBGE 9999999 inexistente"):
        aliases(bad)


def test_real_export_endpoints_748_by_name_14_by_alias_10_reported(real_package):
    with open(real_package / "linhas.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    ends = {(r[f"{w}_municipio"], r[f"{w}_uf"]) for r in rows for w in ("origem", "destino")}
    how = [resolve(m, uf).resolucao for m, uf in ends]
    assert (len(ends), how.count(BY_NAME), how.count(BY_ALIAS), how.count(UNRESOLVED)) == (772, 748, 14, 10)
    report = json.loads((real_package / "ingest-report.json").read_text(encoding="utf-8"))
    unresolved = {(m["municipio"], m["uf"]): m["motivo"] for m in report["municipios_nao_resolvidos"]}
    assert len(unresolved) == 10
    assert unresolved[("Puerto Maldonado", "PER")].startswith("fora do Brasil: Cidade do Peru")
    assert "a revisar" in unresolved[("USINA ITUMBIARA", "MG")]


def test_ingest_report_lists_each_unresolved_place_of_lines_and_sections_once(tmp_path):
    """What an ingest report lists under municipios_nao_resolvidos: each place without an IBGE code that
    a line or a section names, once, sorted by UF and name, whether it ends a line or only a section."""
    schema = load_schema()

    def write(name, rows):
        fields = schema[name].field_names
        with open(tmp_path / schema[name].filename, "w", encoding="utf-8", newline="") as fh:
            out = csv.DictWriter(fh, fields)
            out.writeheader()
            out.writerows([dict(dict.fromkeys(fields, ""), **r) for r in rows])

    write("linhas", [
        {"prefixo": "12-0001-00", "origem_municipio": "Goiânia", "origem_uf": "GO",
         "destino_municipio": "Puerto Maldonado", "destino_uf": "PER"},
        {"prefixo": "12-0002-00", "origem_municipio": "Lugar Nenhum", "origem_uf": "SP",
         "destino_municipio": "Puerto Maldonado", "destino_uf": "PER"},
    ])
    write("secoes", [
        {"linha_prefixo": "12-0002-00", "origem_municipio": "Lugar Nenhum", "origem_uf": "SP",
         "destino_municipio": "Assunção", "destino_uf": "PRY"},
        {"linha_prefixo": "12-0002-00", "origem_municipio": "Brasília", "origem_uf": "DF",
         "destino_municipio": "Lugar Nenhum", "destino_uf": "SP"},
    ])
    assert unresolved_places(tmp_path, schema) == [
        {"municipio": "Puerto Maldonado", "uf": "PER", "motivo": resolve("Puerto Maldonado", "PER").motivo},
        {"municipio": "Assunção", "uf": "PRY", "motivo": "fora do Brasil"},
        {"municipio": "Lugar Nenhum", "uf": "SP",
         "motivo": "nome não encontrado na lista do IBGE nem na tabela de apelidos"},
    ]
    (tmp_path / schema["linhas"].filename).unlink()  # a package of sections alone
    assert [(p["municipio"], p["uf"]) for p in unresolved_places(tmp_path, schema)] == [
        ("Assunção", "PRY"), ("Lugar Nenhum", "SP")]


def test_published_tables_carry_ibge_codes(site):
    with open(site / "dados" / "linhas.csv", encoding="utf-8", newline="") as fh:
        line = next(r for r in csv.DictReader(fh) if r["prefixo"] == "12-0140-00")
    assert (line["origem_codigo_ibge"], line["destino_codigo_ibge"]) == ("5300108", "5204508")
    with open(site / "dados" / "municipios.csv", encoding="utf-8", newline="") as fh:
        places = {r["chave"]: r for r in csv.DictReader(fh)}
    assert places["df/brasilia"]["nome"] == "Brasília" and places["df/brasilia"]["grafias_na_fonte"] == "BRASILIA"
    bolivia = places["bol/santa-cruz-de-la-sierra"]
    assert (bolivia["codigo_ibge"], bolivia["resolucao"], bolivia["motivo"]) == ("", "nao_resolvido", "fora do Brasil")
    assert places["go/cristalina"]["linhas"] == "1"  # reached only through a section of 12-0140-00


def test_city_page_lists_each_destination_with_lines_departures_and_fares(site):
    text = page_text(site / "cidades" / "df" / "brasilia" / "index.html")
    assert "Brasília (DF)" in text and "Código IBGE 5300108" in text and "Grafia nas fontes BRASILIA" in text
    assert "Caldas Novas (GO) 1" in text
    pair = page_text(site / "cidades" / "df" / "brasilia" / "para" / "go-caldas-novas" / "index.html")
    assert "De Brasília (DF) para Caldas Novas (GO)" in pair and "12-0140-00" in pair
    assert "Tarifas máximas vigentes em 30/06/2026 pelas regras do Decreto nº 952/1993" in pair and "88,50" in pair
    assert "Cristalina (GO) 1" in text  # by the section BRASILIA - CRISTALINA (art. 3 XXI)
    via_section = page_text(site / "cidades" / "df" / "brasilia" / "para" / "go-cristalina" / "index.html")
    assert "para em Brasília por uma seção" not in via_section  # Brasília is the line's terminal
    # the way back, with no departure from Cristalina, fare or ticket: answered in Cristalina's row of
    # destinations, which lists the line and how it links the two, not by a page of its own
    assert not (site / "cidades" / "go" / "cristalina" / "para" / "df-brasilia").exists()
    back = page_text(site / "cidades" / "go" / "cristalina" / "index.html")
    assert "Brasília (DF) 12-0140-00 (por seção)" in back
    index = page_text(site / "cidades" / "index.html")
    assert "Brasília" in index and "Santa Cruz de la Sierra".upper() in index


def test_pair_json_is_small_and_matches_the_page(site):
    answer = json.loads((site / "cidades" / "df" / "brasilia" / "para" / "go-caldas-novas.json").read_text(encoding="utf-8"))
    assert answer["de"]["nome"] == "Brasília" and answer["para"]["url"] == "/cidades/go/caldas-novas/"
    assert [line["prefixo"] for line in answer["linhas"]] == ["12-0140-00"]
    fares = {f["categoria"]: f["valor"] for f in answer["linhas"][0]["tarifas"]}
    assert fares["Convencional com sanitário"] == 88.5
    assert answer["partidas"] and all(len(p["dias"]) == 7 for p in answer["partidas"])
    places = json.loads((site / "cidades" / "index.json").read_text(encoding="utf-8"))
    brasilia = next(p for p in places if p["chave"] == "df/brasilia")
    assert (brasilia["nome"], brasilia["url"], brasilia["busca"]) == ("Brasília", "/cidades/df/brasilia/", ["BRASILIA"])
    assert {places[k]["chave"] for k in brasilia["destinos"]} == {"go/caldas-novas", "go/cristalina"}


@pytest.mark.slow
def test_real_export_sao_paulo_to_rio_is_one_answer_with_every_line(real_only_site, real_package):
    with open(real_package / "linhas.csv", encoding="utf-8", newline="") as fh:
        expected = sorted(r["prefixo"] for r in csv.DictReader(fh)
                          if {(r["origem_municipio"], r["destino_municipio"])} & {("SAO PAULO", "RIO DE JANEIRO"),
                                                                                  ("RIO DE JANEIRO", "SAO PAULO")})
    assert len(expected) == 37
    answer = json.loads((real_only_site / "cidades" / "sp" / "sao-paulo" / "para" / "rj-rio-de-janeiro.json")
                        .read_text(encoding="utf-8"))
    assert [line["prefixo"] for line in answer["linhas"]] == expected
    assert answer["partidas_semana"] > 0 and answer["partidas"] == sorted(answer["partidas"], key=lambda p: p["horario"])
    assert (real_only_site / "dados" / "municipios.csv").read_text(encoding="utf-8").count("nao_resolvido") == 10
    pages = list((real_only_site / "cidades").rglob("index.html"))
    assert max(p.stat().st_size for p in pages) < 200_000  # hubs list destinations; each answer has its page
    brasilia = page_text(real_only_site / "cidades" / "df" / "brasilia" / "index.html")
    assert "TAGUATINGA" in brasilia and "Região administrativa do Distrito Federal" in brasilia


def test_identifier_keys_are_the_folded_text_without_spaces():
    from pipeline.site.identifiers import key

    assert key("Portaria DTR nº 45/2001") == "PORTARIADTRNO452001"
    assert key("12-0140-00") == key("12014000") == "12014000"
    assert key("04.192.453/0001-18") == "04192453000118"
    assert key("out-000054") == "OUT000054"
