"""``pipeline.release.changes``: a changelog between two published packages lists exactly the rows that differ."""

from __future__ import annotations

import csv
import functools
import http.server
import json
import threading
from datetime import date

import pytest

from pipeline.release.changes import ChangesError, compare, load_previous, write
from pipeline.release.versions import version_of

INFRACOES = ["numero_auto", "situacao", "valor", "fonte"]
HORARIOS = ["linha_prefixo", "horario"]

PREVIOUS = {
    "infracoes": (INFRACOES, [
        ["A1", "autuado", "100.5", "antt"],
        ["A2", "autuado", "200", "antt"],
        ["A3", "", "300", "antt"],
        ["A4", "pago", "=1+1", "antt"],  # stays text, never a formula nor a number
    ]),
    "horarios": (HORARIOS, [["12-0001-00", "08:00"], ["12-0001-00", "08:00"], ["12-0002-00", "09:30"]]),
    "antigas": (["id", "nome"], [["1", "só no anterior"]]),
}
CURRENT = {
    "infracoes": (INFRACOES + ["observacao"], [  # another order, one more column
        ["A7", "autuado", "700", "antt", "novo"],
        ["A3", "NA", "300", "detran, SP", "nota"],  # "NA" and "" are text, not missing values
        ["A1", "autuado", "100.5", "antt", "qualquer"],
        ["A6", "autuado", "linha 1\nlinha 2", "antt", ""],
        ["A2", "pago", "200", "antt", ""],
    ]),
    "horarios": (HORARIOS, [["12-0002-00", "09:30"], ["12-0001-00", "08:00"], ["12-0003-00", "10:00"]]),
    "enquadramentos": (["codigo", "descricao"], [["E1", "Condução"], ["E2", "Outra"]]),
}
KEYS = {"infracoes": ["numero_auto"], "antigas": ["id"], "enquadramentos": ["codigo"]}


def make_package(folder, tables: dict, version: str) -> dict:
    """A ``dados/``-like folder: ``datapackage.json`` plus one RFC 4180 CSV (CRLF) per table."""
    folder.mkdir(parents=True, exist_ok=True)
    resources = []
    for name, (columns, rows) in tables.items():
        with open(folder / f"{name}.csv", "w", encoding="utf-8", newline="") as fh:
            writer = csv.writer(fh, lineterminator="\r\n")
            writer.writerow(columns)
            writer.writerows(rows)
        schema = {"fields": [{"name": c, "type": "string", "title": c} for c in columns]}
        if name in KEYS:
            schema["primaryKey"] = KEYS[name]
        resources.append({"name": name, "path": f"{name}.csv", "schema": schema})
    descriptor = {"name": "teste", "version": version, "resources": resources}
    (folder / "datapackage.json").write_text(json.dumps(descriptor, ensure_ascii=False), encoding="utf-8")
    return descriptor


@pytest.fixture
def releases(tmp_path):
    """(site root of the previous release, current ``dados/`` folder, current descriptor)."""
    make_package(tmp_path / "anterior" / "dados", PREVIOUS, "2026-05-31")
    current = make_package(tmp_path / "atual", CURRENT, "2026-06-30")
    return tmp_path / "anterior", tmp_path / "atual", current


def tables_of(result: dict) -> dict:
    return {t["tabela"]: t for t in result["tabelas"]}


def test_lists_exactly_the_rows_that_differ(releases):
    root, current_dir, descriptor = releases
    result = compare(load_previous(str(root)), current_dir, descriptor)
    assert (result["anterior"], result["atual"]) == ("2026-05-31", "2026-06-30")
    assert result["versao_atual"] == version_of((current_dir / "datapackage.json").read_bytes(), date(2026, 6, 30))
    assert result["versao_anterior"].startswith("2026-05-31-") and result["versao_anterior"] != result["versao_atual"]
    assert [t["tabela"] for t in result["tabelas"]] == ["antigas", "enquadramentos", "horarios", "infracoes"]
    t = tables_of(result)

    infracoes = t["infracoes"]
    assert infracoes["situacao"] == "alterada" and infracoes["chave"] == ["numero_auto"]
    assert (infracoes["incluidos"], infracoes["removidos"], infracoes["alterados"]) == (2, 1, 2)
    assert infracoes["colunas_novas"] == ["observacao"] and infracoes["colunas_removidas"] == []
    assert "truncado" not in infracoes
    assert infracoes["linhas"] == {
        "incluidos": [
            {"chave": {"numero_auto": "A6"}, "registro": {"numero_auto": "A6", "situacao": "autuado",
                                                          "valor": "linha 1\nlinha 2", "fonte": "antt", "observacao": ""}},
            {"chave": {"numero_auto": "A7"}, "registro": {"numero_auto": "A7", "situacao": "autuado",
                                                          "valor": "700", "fonte": "antt", "observacao": "novo"}},
        ],
        "removidos": [{"chave": {"numero_auto": "A4"},  # carried whole
                       "registro": {"numero_auto": "A4", "situacao": "pago", "valor": "=1+1", "fonte": "antt"}}],
        "alterados": [
            {"chave": {"numero_auto": "A2"}, "campos": {"situacao": {"antes": "autuado", "depois": "pago"}},
             "recalculados": {}},
            {"chave": {"numero_auto": "A3"}, "campos": {"situacao": {"antes": "", "depois": "NA"},
                                                        "fonte": {"antes": "antt", "depois": "detran, SP"}},
             "recalculados": {}},
        ],
        "recalculados": [],
    }

    horarios = t["horarios"]  # no primaryKey: whole rows, as a multiset (one of two copies of 08:00 went)
    assert horarios["chave"] == [] and horarios["situacao"] == "alterada"
    assert (horarios["incluidos"], horarios["removidos"], horarios["alterados"]) == (1, 1, 0)
    assert horarios["linhas"]["incluidos"] == [{"chave": {"linha_prefixo": "12-0003-00", "horario": "10:00"},
                                                "registro": {"linha_prefixo": "12-0003-00", "horario": "10:00"}}]
    assert horarios["linhas"]["removidos"] == [{"chave": {"linha_prefixo": "12-0001-00", "horario": "08:00"},
                                                "registro": {"linha_prefixo": "12-0001-00", "horario": "08:00"}}]

    novas = t["enquadramentos"]
    assert novas["situacao"] == "nova" and (novas["incluidos"], novas["removidos"], novas["alterados"]) == (2, 0, 0)
    assert [r["chave"] for r in novas["linhas"]["incluidos"]] == [{"codigo": "E1"}, {"codigo": "E2"}]
    antigas = t["antigas"]
    assert antigas["situacao"] == "removida" and (antigas["incluidos"], antigas["removidos"]) == (0, 1)
    assert antigas["linhas"]["removidos"] == [{"chave": {"id": "1"}, "registro": {"id": "1", "nome": "só no anterior"}}]
    assert result["resumo"] == {"fontes": {"incluidos": 5, "removidos": 3, "alterados": 2}, "recalculados": 0,
                                "tabelas_calculadas": {"incluidos": 0, "removidos": 0, "recalculados": 0}}


def test_limit_caps_the_lists_not_the_counts(releases):
    root, current_dir, descriptor = releases
    infracoes = tables_of(compare(load_previous(str(root)), current_dir, descriptor, limit=1))["infracoes"]
    assert (infracoes["incluidos"], infracoes["removidos"], infracoes["alterados"]) == (2, 1, 2)
    assert [len(infracoes["linhas"][k]) for k in ("incluidos", "removidos", "alterados")] == [1, 1, 1]
    assert infracoes["linhas"]["alterados"][0]["chave"] == {"numero_auto": "A2"}
    assert infracoes["truncado"] is True


def test_identical_packages_have_no_changes(releases):
    root, _, _ = releases
    previous = load_previous(str(root / "dados"))
    result = compare(previous, root / "dados", previous.descriptor)
    for t in result["tabelas"]:
        assert t["situacao"] == "sem_mudancas", t["tabela"]
        assert (t["incluidos"], t["removidos"], t["alterados"]) == (0, 0, 0)
        assert t["linhas"] == {"incluidos": [], "removidos": [], "alterados": [], "recalculados": []}
        assert t["colunas_novas"] == t["colunas_removidas"] == []


def test_loads_dados_folder_and_site_root_alike(releases):
    root, _, _ = releases
    from_root, from_dados = load_previous(str(root)), load_previous(str(root / "dados"))
    assert from_root.descriptor == from_dados.descriptor
    assert sorted(from_root.tables) == ["antigas", "horarios", "infracoes"]
    assert from_root.tables["infracoes"].equals(from_dados.tables["infracoes"])
    assert from_root.tables["infracoes"]["valor"].tolist() == ["100.5", "200", "300", "=1+1"]


def test_loads_over_http(releases):
    root, current_dir, descriptor = releases
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *args: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/dados"
        remote = load_previous(url)
        assert remote.where == url
        assert compare(remote, current_dir, descriptor) == compare(load_previous(str(root)), current_dir, descriptor)
        with pytest.raises(ChangesError, match="nao-existe"):
            load_previous(f"http://127.0.0.1:{server.server_address[1]}/nao-existe/")
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


def test_unreadable_previous_names_the_path(tmp_path, releases):
    missing = tmp_path / "nao-existe"
    with pytest.raises(ChangesError) as error:
        load_previous(str(missing))
    assert str(missing) in str(error.value)

    root, _, _ = releases
    (root / "dados" / "horarios.csv").unlink()
    with pytest.raises(ChangesError) as error:
        load_previous(str(root))
    assert str(root / "dados" / "horarios.csv") in str(error.value)

    (root / "dados" / "datapackage.json").write_text("{não é json", encoding="utf-8")
    with pytest.raises(ChangesError) as error:
        load_previous(str(root))
    assert str(root / "dados" / "datapackage.json") in str(error.value)


def test_written_changelog_is_byte_identical(tmp_path, releases):
    root, current_dir, descriptor = releases
    first = write(compare(load_previous(str(root)), current_dir, descriptor), tmp_path / "um.json")
    (tmp_path / "saida").mkdir()
    second = write(compare(load_previous(str(root)), current_dir, descriptor), tmp_path / "saida")
    assert second == tmp_path / "saida" / "mudancas.json"
    assert first.read_bytes() == second.read_bytes()
    text = first.read_text(encoding="utf-8")
    assert "Condução" in text and "\n" not in text.rstrip("\n")  # compact, UTF-8 kept as is
    assert json.loads(text) == json.loads(json.dumps(compare(load_previous(str(root)), current_dir, descriptor)))


def make_marked(folder, tables: dict, version: str) -> dict:
    """A ``dados/``-like folder whose columns may be marked: ``nome*`` derived (``"derived": true``), ``nome@`` a
    copy of another table's column (``x-juncao``); ``tables`` maps a name to (key, columns, rows)."""
    folder.mkdir(parents=True, exist_ok=True)
    resources = []
    for name, (key, columns, rows) in tables.items():
        fields = []
        for c in columns:
            field = {"name": c.rstrip("*@"), "type": "string"}
            if c.endswith("*"):
                field["derived"] = True
            if c.endswith("@"):
                field["x-juncao"] = {"campo": "cnpj", "tabela": "transportadoras", "coluna": "razao_social"}
            fields.append(field)
        with open(folder / f"{name}.csv", "w", encoding="utf-8", newline="") as fh:
            csv.writer(fh, lineterminator="\r\n").writerows([[f["name"] for f in fields], *rows])
        schema = {"fields": fields, **({"primaryKey": key} if key else {})}
        resources.append({"name": name, "path": f"{name}.csv", "schema": schema})
    descriptor = {"name": "teste", "version": version, "resources": resources}
    (folder / "datapackage.json").write_text(json.dumps(descriptor, ensure_ascii=False), encoding="utf-8")
    return descriptor


CARRIERS = (["cnpj"], ["cnpj", "razao_social"], [["1", "VIACAO A LTDA"], ["2", "VIACAO B LTDA"]])
FARES_COLUMNS = ["id", "valor", "inicio", "vigente*", "transportadora_nome*@"]
TIMES_COLUMNS = ["linha", "horario", "transportadora_nome*@"]
FINDINGS_COLUMNS = ["regra", "chave", "transportadora_nome@", "descricao"]


def test_what_the_sources_changed_is_apart_from_what_the_portal_recomputed(tmp_path):
    """One fare edited, a carrier renamed, a timetable row removed: the change log counts those as the sources'
    changes, and apart the derived fields and the portal's own tables that followed (a flag as of the reference
    date, the carrier's name copied beside its CNPJ, a finding); the removed row is carried whole, and a table
    without a key matches its rows by the whole row less its derived columns (no remove + add for a rename)."""
    make_marked(tmp_path / "antes", {
        "transportadoras": CARRIERS,
        "tarifas": (["id"], FARES_COLUMNS, [["t1", "80.00", "2019-01-01", "false", "VIACAO A LTDA"],
                                            ["t2", "88.50", "2025-01-01", "true", "VIACAO A LTDA"],
                                            ["t3", "92.10", "2027-01-01", "false", "VIACAO A LTDA"],
                                            ["t4", "50.00", "2020-01-01", "true", "VIACAO B LTDA"]]),
        "horarios": ([], TIMES_COLUMNS, [["L1", "07:00", "VIACAO A LTDA"], ["L1", "07:00", "VIACAO A LTDA"],
                                         ["L1", "14:00", "VIACAO A LTDA"], ["L2", "09:00", "VIACAO B LTDA"]]),
        "achados": ([], FINDINGS_COLUMNS, [["promo", "P1", "VIACAO A LTDA", "29 dias"]]),
    }, "2026-06-30")
    current = make_marked(tmp_path / "depois", {
        "transportadoras": (CARRIERS[0], CARRIERS[1], [["1", "VIACAO A S.A."], ["2", "VIACAO B LTDA"]]),
        "tarifas": (["id"], FARES_COLUMNS, [["t1", "80.00", "2019-01-01", "false", "VIACAO A S.A."],
                                            ["t2", "89.00", "2025-01-01", "false", "VIACAO A S.A."],
                                            ["t3", "92.10", "2027-01-01", "true", "VIACAO A S.A."],
                                            ["t4", "50.00", "2020-01-01", "true", "VIACAO B LTDA"]]),
        "horarios": ([], TIMES_COLUMNS, [["L1", "07:00", "VIACAO A S.A."], ["L1", "07:00", "VIACAO A S.A."],
                                         ["L1", "14:00", "VIACAO A S.A."]]),
        "achados": ([], FINDINGS_COLUMNS, [["promo", "P1", "VIACAO A S.A.", "29 dias"]]),
    }, "2027-01-15")
    result = compare(load_previous(str(tmp_path / "antes")), tmp_path / "depois", current, computed={"achados"})
    t = tables_of(result)
    assert result["resumo"] == {"fontes": {"incluidos": 0, "removidos": 1, "alterados": 2}, "recalculados": 5,
                                "tabelas_calculadas": {"incluidos": 0, "removidos": 0, "recalculados": 1}}

    carriers = t["transportadoras"]  # the rename: once, as the source's change
    assert (carriers["situacao"], carriers["alterados"], carriers["recalculados"]) == ("alterada", 1, 0)
    assert carriers["linhas"]["alterados"] == [{"chave": {"cnpj": "1"}, "recalculados": {},
                                                "campos": {"razao_social": {"antes": "VIACAO A LTDA",
                                                                            "depois": "VIACAO A S.A."}}}]
    fares = t["tarifas"]
    assert (fares["alterados"], fares["recalculados"], fares["incluidos"], fares["removidos"]) == (1, 2, 0, 0)
    assert fares["colunas_recalculadas"] == ["vigente", "transportadora_nome"] and fares["calculada"] is False
    renamed = {"transportadora_nome": {"antes": "VIACAO A LTDA", "depois": "VIACAO A S.A."}}
    assert fares["linhas"]["alterados"] == [{
        "chave": {"id": "t2"}, "campos": {"valor": {"antes": "88.50", "depois": "89.00"}},
        "recalculados": {"vigente": {"antes": "true", "depois": "false"}, **renamed}}]
    assert fares["linhas"]["recalculados"] == [
        {"chave": {"id": "t1"}, "campos": renamed},
        {"chave": {"id": "t3"}, "campos": {"vigente": {"antes": "false", "depois": "true"}, **renamed}}]

    times = t["horarios"]  # no key: the whole row less transportadora_nome identifies a row
    assert times["chave"] == [] and (times["incluidos"], times["removidos"], times["recalculados"]) == (0, 1, 3)
    assert times["situacao"] == "alterada"
    assert times["linhas"]["removidos"] == [{"chave": {"linha": "L2", "horario": "09:00"},
                                             "registro": {"linha": "L2", "horario": "09:00",
                                                          "transportadora_nome": "VIACAO B LTDA"}}]
    assert [r["chave"] for r in times["linhas"]["recalculados"]] == [
        {"linha": "L1", "horario": "07:00"}, {"linha": "L1", "horario": "07:00"}, {"linha": "L1", "horario": "14:00"}]

    findings = t["achados"]  # made by the portal: recomputed, never the sources' change
    assert (findings["calculada"], findings["situacao"]) == (True, "recalculada")
    assert (findings["incluidos"], findings["removidos"], findings["alterados"], findings["recalculados"]) == (0, 0, 0, 1)

    # only derived fields changed: "recalculada", not "alterada"
    (tmp_path / "so-calculo").mkdir()
    again = make_marked(tmp_path / "so-calculo", {
        "transportadoras": CARRIERS,
        "tarifas": (["id"], FARES_COLUMNS, [["t1", "80.00", "2019-01-01", "false", "VIACAO A LTDA"],
                                            ["t2", "88.50", "2025-01-01", "false", "VIACAO A LTDA"],
                                            ["t3", "92.10", "2027-01-01", "true", "VIACAO A LTDA"],
                                            ["t4", "50.00", "2020-01-01", "true", "VIACAO B LTDA"]]),
    }, "2027-01-15")
    only = tables_of(compare(load_previous(str(tmp_path / "antes")), tmp_path / "so-calculo", again, computed=()))
    assert (only["tarifas"]["situacao"], only["tarifas"]["alterados"], only["tarifas"]["recalculados"]) == (
        "recalculada", 0, 2)
    assert only["transportadoras"]["situacao"] == "sem_mudancas"


def test_a_table_read_in_batches_keeps_what_was_recomputed_apart_as_a_whole_table_does(tmp_path):
    """``changes.compare_streamed`` with derived columns (and a previous release that marks them) gives the entry
    ``changes._compare_table`` gives: the same rows recomputed, added and removed (whole), the same order,
    repeated rows matched copy by copy, limits and truncation included."""
    import numpy as np

    from pipeline.release import changes

    rng = np.random.default_rng(26)
    columns = ["mes", "origem", "destino", "quantidade", "origem_codigo_ibge"]

    def rows(n):
        return [[f"2026-{rng.integers(1, 3):02d}", str(rng.choice(["Goiânia", "Palmas"])), "Brasília",
                 str(rng.integers(1, 4)), str(rng.choice(["5208707", "", "1721000"]))] for _ in range(n)]

    def write(path, header, body):
        with open(path, "w", encoding="utf-8", newline="") as fh:
            csv.writer(fh, lineterminator="\r\n").writerows([header, *body])

    previous_descriptor = {"resources": [{"name": "bilhetes", "path": "bilhetes.csv", "schema": {
        "fields": [{"name": c, **({"derived": True} if c == "origem_codigo_ibge" else {})} for c in columns]}}]}
    for limit in (None, 2):
        write(tmp_path / "antes.csv", columns, rows(120))
        write(tmp_path / "depois.csv", columns + ["nova"], [r + ["x"] for r in rows(120)])
        previous = changes.Package("anterior", previous_descriptor, files={"bilhetes": tmp_path / "antes.csv"})
        got = changes.compare_streamed("bilhetes", previous, tmp_path / "depois.csv", columns + ["nova"], limit)
        frames = [changes._read_csv((tmp_path / f).read_bytes(), f) for f in ("antes.csv", "depois.csv")]
        expected = changes._compare_table("bilhetes", frames[0], frames[1], [], limit, {"origem_codigo_ibge"})
        assert got == expected
        assert got["recalculados"] > 0 and got["incluidos"] > 0 and got["removidos"] > 0
        assert got["colunas_recalculadas"] == ["origem_codigo_ibge"]
        assert all(set(r["registro"]) == set(columns) for r in got["linhas"]["removidos"])
        assert got.get("truncado") is (True if limit else None)
