"""The sample generator: deterministic, valid, realistic, and planting each finding of the contract."""

from __future__ import annotations

import csv
import re
from collections import Counter, defaultdict
from pathlib import Path

import frictionless
import pytest

from pipeline import SAMPLE_DIR, SCHEMA_PATH
from pipeline.contract.identifiers import cnpj_is_valid
from pipeline.derive import derive
from pipeline.read import read_source
from pipeline.sample import (
    CATEGORIAS,
    DEFAULT_SEED,
    MINIMUM_SCALE,
    PLANTED_FINDINGS,
    REFERENCE_DATE,
    SCALES,
    generate,
)
from pipeline.validate import validate

TINY = {
    "transportadoras": 8,
    "linhas": 10,
    "outorgas": 34,
    "tarifas": 150,
    "tarifas_promocionais": 15,
    "infracoes": 40,
    "caducidades": 5,
}
OLD_PREFIX = re.compile(r"^\d{2}-\d{4}-\d{2}$")
NEW_PREFIX = re.compile(r"^[A-Z]{4}\d{7}$")


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.suffix in (".csv", ".json")}


def rows(folder: Path, table: str) -> list[dict]:
    with open(folder / f"{table}.csv", encoding="utf-8", newline="") as fh:
        return list(csv.DictReader(fh))


@pytest.fixture(scope="module")
def small(tmp_path_factory) -> tuple[Path, dict[str, int]]:
    out = tmp_path_factory.mktemp("small")
    return out, generate("small", DEFAULT_SEED, out)


@pytest.fixture(scope="module")
def t(small) -> dict[str, list[dict]]:
    out, counts = small
    return {name: rows(out, name) for name in counts}


# ---- determinism ---------------------------------------------------------------------------------


def test_same_seed_gives_identical_bytes(small, tmp_path):
    generate("small", DEFAULT_SEED, tmp_path)
    assert files(tmp_path) == files(small[0])


def test_another_seed_gives_other_data(small, tmp_path):
    generate("small", DEFAULT_SEED + 1, tmp_path)
    a, b = files(small[0]), files(tmp_path)
    assert a.keys() == b.keys()
    same = sorted(name for name in a if a[name] == b[name])
    assert same == ["datapackage.json", "enquadramentos.csv"]  # only the fixed reference data


def test_bundled_sample_is_the_small_scale_with_the_default_seed(small):
    out, _ = small
    assert files(SAMPLE_DIR) == files(out), "regenerate: generate('small', DEFAULT_SEED, SAMPLE_DIR)"


def test_the_descriptor_is_copied_byte_for_byte_but_never_onto_itself(tmp_path, monkeypatch):
    generate(TINY, 1, tmp_path / "elsewhere")
    assert (tmp_path / "elsewhere" / "datapackage.json").read_bytes() == SCHEMA_PATH.read_bytes()
    # Generating into the folder that holds the project's descriptor (datasets/) leaves it alone.
    home = tmp_path / "datasets"
    home.mkdir()
    (home / "datapackage.json").write_bytes(SCHEMA_PATH.read_bytes())
    (home / ".gerado-pelo-portal").write_text("amostra\n", encoding="utf-8")  # as the project's datasets/ has
    monkeypatch.setattr("pipeline.sample.SCHEMA_PATH", home / "datapackage.json")
    generate(TINY, 1, home)
    assert (home / "datapackage.json").read_bytes() == SCHEMA_PATH.read_bytes()


# ---- shape of the files --------------------------------------------------------------------------


def test_one_csv_per_resource_with_source_columns_in_schema_order(small, schema):
    out, counts = small
    assert sorted(counts) == sorted(schema.tables)
    for name, table in schema.tables.items():
        text = (out / table.filename).read_bytes().decode("utf-8")
        assert "\r" not in text
        assert text.endswith("\n")
        header = next(csv.reader([text.split("\n", 1)[0]]))
        assert header == table.field_names  # no derived field
        assert len(rows(out, name)) == counts[name]


def test_cell_formats(t):
    date_cols = {
        "outorgas": ("inicio", "fim", "extinta_em"),
        "tarifas": ("vigencia_inicio",),
        "tarifas_promocionais": ("comunicado_em", "inicio", "fim"),
        "infracoes": ("notificado_em", "decidido_em"),
        "caducidades": ("data_declaracao", "comunicacao_1_em", "comunicacao_2_em"),
    }
    for table, cols in date_cols.items():
        for r in t[table]:
            for c in cols:
                assert re.fullmatch(r"(\d{4}-\d{2}-\d{2})?", r[c]), (table, c, r[c])
    assert all(re.fullmatch(r"\d{4}-\d{2}-\d{2}T\d{2}:\d{2}", r["data_hora"]) for r in t["infracoes"])
    assert {r["prorrogada"] for r in t["outorgas"]} == {"true", "false"}
    for table in ("tarifas", "tarifas_promocionais"):
        assert all(re.fullmatch(r"\d+\.\d{2}", r["valor"]) for r in t[table])
    assert all(re.fullmatch(r"\d+\.\d", r["extensao_km"]) for r in t["linhas"])


# ---- validity ------------------------------------------------------------------------------------


def test_small_package_is_valid_for_frictionless_with_foreign_keys(small):
    report = frictionless.Package(str(small[0] / "datapackage.json")).validate()
    assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "note"])


def test_small_package_has_no_input_error_for_the_portal(small, schema):
    report = validate(read_source(small[0], schema), schema)
    assert report.valid, [p.mensagem for p in report.errors]
    assert not report.warnings, [p.mensagem for p in report.warnings]


def test_every_cnpj_is_valid(t):
    cnpjs = [r["cnpj"] for r in t["transportadoras"]]
    for table in ("outorgas", "tarifas_promocionais", "infracoes", "caducidades"):
        cnpjs += [r["transportadora_cnpj"] for r in t[table]]
    assert cnpjs and all(cnpj_is_valid(c) for c in cnpjs)


def test_outorgas_are_consistent(t):
    lines = {r["prefixo"] for r in t["linhas"]}
    held = {r["linha_prefixo"] for r in t["outorgas"] if r["linha_prefixo"]}
    assert held == lines  # every line has an outorga
    for r in t["outorgas"]:
        assert bool(r["extinta_em"]) == bool(r["motivo_extincao"])
        assert (r["modalidade"] == "fretamento") == (r["linha_prefixo"] == "")
        if r["modalidade"] in ("regular", "semiurbano"):
            assert r["instrumento"] == "permissao" and r["fim"] == ""
        else:
            assert r["instrumento"] == "autorizacao"
            assert r["fim"] or r["modalidade"] == "emergencial"
    assert re.fullmatch(r"OUT-\d{6}", t["outorgas"][0]["id"])


def test_caducidades_point_at_outorgas_lapsed_by_caducidade_of_the_same_carrier(t):
    outorgas = {r["id"]: r for r in t["outorgas"]}
    for c in t["caducidades"]:
        o = outorgas[c["outorga_id"]]
        assert o["motivo_extincao"] == "caducidade"
        assert o["transportadora_cnpj"] == c["transportadora_cnpj"]
        assert re.fullmatch(r"29-1-(I|II|III|IV|V|VI|VII)", c["fundamento"])
        assert re.fullmatch(r"\d{5}\.\d{6}/\d{4}-\d{2}", c["processo"])
        for notice in (c["comunicacao_1_em"], c["comunicacao_2_em"]):
            assert notice == "" or notice < c["data_declaracao"]


# ---- realism and coverage ------------------------------------------------------------------------


def test_every_kind_of_record_appears(t):
    assert {r["modalidade"] for r in t["outorgas"]} == {
        "regular", "semiurbano", "fretamento", "temporada_turistica", "emergencial"
    }
    assert {r["motivo_extincao"] for r in t["outorgas"]} - {""} == {
        "advento_termo", "caducidade", "rescisao", "desistencia", "anulacao", "falencia"
    }
    assert any(r["inicio"] < "1993-10-08" for r in t["outorgas"])  # art. 94
    assert any(r["prorrogada"] == "true" for r in t["outorgas"])
    groups = {r["codigo"]: r["grupo"] for r in t["enquadramentos"]}
    assert {groups[r["enquadramento"]] for r in t["infracoes"]} == {"I", "II", "III", "IV", "V", "VI"}
    assert {r["situacao"] for r in t["infracoes"]} == {
        "autuado", "notificado", "em_defesa", "julgado", "em_recurso", "pago", "cancelado", "arquivado"
    }
    assert {r["penalidade"] for r in t["infracoes"]} == {"multa", "retencao", "apreensao", "inidoneidade"}
    assert {r["motivo"] for r in t["tarifas"]} == {"licitacao", "reajuste", "revisao", "anterior"}
    prefixes = [r["prefixo"] for r in t["linhas"]]
    assert any(OLD_PREFIX.match(p) for p in prefixes) and any(NEW_PREFIX.match(p) for p in prefixes)
    assert {r["ambito"] for r in t["linhas"]} == {"interestadual", "semiurbano", "internacional"}


def test_lines_look_like_the_regulators(t):
    for r in t["linhas"]:
        o, d = (r["origem_municipio"], r["origem_uf"]), (r["destino_municipio"], r["destino_uf"])
        assert r["descricao"] == f"{o[0]}({o[1]}) - {d[0]}({d[1]})"
        assert o[1] != d[1] and re.fullmatch(r"[A-Z][A-Z -]+", o[0] + d[0])
        abroad = [uf for uf in (o[1], d[1]) if len(uf) == 3]
        assert (r["ambito"] == "internacional") == bool(abroad)
        if NEW_PREFIX.match(r["prefixo"]):
            assert r["prefixo"][:2] == o[1] or abroad
        assert float(r["extensao_km"]) > 0
        assert re.fullmatch(r"(BR-\d{3}|RUTA \w+|TRONCAL \d+)(, (BR-\d{3}|RUTA \w+|TRONCAL \d+))*", r["itinerario"])
        if r["ambito"] == "semiurbano":
            assert float(r["extensao_km"]) < 120


def test_fares_grow_with_category_and_distance_and_have_a_future_row(t):
    ambito = {r["prefixo"]: r["ambito"] for r in t["linhas"]}
    terminals = {r["prefixo"]: (r["origem_municipio"], r["destino_municipio"]) for r in t["linhas"]}
    order = list(CATEGORIAS)
    by_moment = defaultdict(dict)
    for r in t["tarifas"]:
        assert (r["categoria"] == "semiurbano") == (ambito[r["linha_prefixo"]] == "semiurbano")
        by_moment[(r["linha_prefixo"], r["origem"], r["destino"], r["vigencia_inicio"])][r["categoria"]] = float(
            r["valor"]
        )
    for fares in by_moment.values():
        values = [fares[c] for c in order if c in fares]
        assert values == sorted(values) and len(set(values)) == len(values)
    for (line, a, b, day), fares in by_moment.items():
        if (a, b) != terminals[line]:  # a section costs less than the whole line
            whole = by_moment.get((line, *terminals[line], day), {})
            assert all(v < whole[c] for c, v in fares.items() if c in whole)
    assert any(r["vigencia_inicio"] > REFERENCE_DATE.isoformat() for r in t["tarifas"])
    histories = Counter((r["linha_prefixo"], r["origem"], r["destino"], r["categoria"]) for r in t["tarifas"])
    assert max(histories.values()) >= 8


def test_dates_are_in_order(t):
    today = REFERENCE_DATE.isoformat()
    for r in t["tarifas_promocionais"]:
        assert r["comunicado_em"] <= today and r["fim"] >= r["inicio"] > r["comunicado_em"]
    for r in t["infracoes"]:
        day = r["data_hora"][:10]
        assert day < today
        assert not r["notificado_em"] or r["notificado_em"] > day
        assert not r["decidido_em"] or r["decidido_em"] > r["notificado_em"] > ""
        assert r["valor_multa"] or r["penalidade"] != "multa"
        assert r["placa"] == "" or re.fullmatch(r"[A-Z]{3}\d[A-Z0-9]\d{2}", r["placa"])
    plates = {r["placa"] for r in t["infracoes"] if r["placa"]}
    assert any(p[4].isdigit() for p in plates) and any(p[4].isalpha() for p in plates)  # old and Mercosul


def test_no_agent_and_no_natural_person_is_published(small, t):
    for name in t:
        header = (small[0] / f"{name}.csv").read_text(encoding="utf-8").split("\n", 1)[0]
        assert "agente" not in header
    assert all(re.search(r" (LTDA|S\.A\.)$", r["razao_social"]) for r in t["transportadoras"])


# ---- findings --------------------------------------------------------------------------------------


def test_each_finding_is_planted_and_nothing_else_triggers(small, schema):
    report = validate(read_source(small[0], schema), schema)
    achados = derive(report.accepted, schema, REFERENCE_DATE).tables["achados"]
    assert dict(Counter(achados["regra"])) == PLANTED_FINDINGS


# ---- scales --------------------------------------------------------------------------------------


def test_a_custom_scale_gives_exactly_its_counts(tmp_path, schema):
    counts = generate(TINY, 7, tmp_path)
    horarios = counts.pop("horarios")  # follows from the lines operated on the reference date
    assert counts.pop("secoes") > 0  # one per section of the fares
    # the later regime's tables follow from the carriers and lines: one licence per carrier, stops and history
    # per line (none for an international line), a few paralysed lines (none, some draws)
    assert counts.pop("habilitacoes") == TINY["transportadoras"]
    assert counts.pop("paradas") >= TINY["linhas"] and counts.pop("historico_linhas") >= TINY["linhas"] // 2
    assert counts.pop("paralisacoes") >= 0
    tickets = counts.pop("bilhetes")  # each domestic line: both ways, 12 months, paid and free
    assert tickets > 0 and tickets % (2 * 12 * 2) == 0 and tickets // 48 <= TINY["linhas"]
    assert counts == {**TINY, "enquadramentos": 43}
    assert horarios > 0
    report = validate(read_source(tmp_path, schema), schema)
    assert report.valid, [p.mensagem for p in report.errors]


def test_scales_hold_the_planted_scenarios():
    for name, scale in SCALES.items():
        assert all(scale[k] >= v for k, v in MINIMUM_SCALE.items()), name
    with pytest.raises(ValueError, match="too small"):
        generate({**TINY, "caducidades": 2}, 1, Path("/nonexistent"))
