"""``pipeline.publish.changes``: a changelog between two published packages lists exactly the rows that differ."""

from __future__ import annotations

import csv
import functools
import http.server
import json
import threading

import pytest

from pipeline.publish.changes import ChangesError, compare, load_previous, write

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
        "removidos": [{"chave": {"numero_auto": "A4"}}],
        "alterados": [
            {"chave": {"numero_auto": "A2"}, "campos": {"situacao": {"antes": "autuado", "depois": "pago"}}},
            {"chave": {"numero_auto": "A3"}, "campos": {"situacao": {"antes": "", "depois": "NA"},
                                                        "fonte": {"antes": "antt", "depois": "detran, SP"}}},
        ],
    }

    horarios = t["horarios"]  # no primaryKey: whole rows, as a multiset (one of two copies of 08:00 went)
    assert horarios["chave"] == [] and horarios["situacao"] == "alterada"
    assert (horarios["incluidos"], horarios["removidos"], horarios["alterados"]) == (1, 1, 0)
    assert horarios["linhas"]["incluidos"] == [{"chave": {"linha_prefixo": "12-0003-00", "horario": "10:00"},
                                                "registro": {"linha_prefixo": "12-0003-00", "horario": "10:00"}}]
    assert horarios["linhas"]["removidos"] == [{"chave": {"linha_prefixo": "12-0001-00", "horario": "08:00"}}]

    novas = t["enquadramentos"]
    assert novas["situacao"] == "nova" and (novas["incluidos"], novas["removidos"], novas["alterados"]) == (2, 0, 0)
    assert [r["chave"] for r in novas["linhas"]["incluidos"]] == [{"codigo": "E1"}, {"codigo": "E2"}]
    antigas = t["antigas"]
    assert antigas["situacao"] == "removida" and (antigas["incluidos"], antigas["removidos"]) == (0, 1)
    assert antigas["linhas"]["removidos"] == [{"chave": {"id": "1"}}]


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
        assert t["linhas"] == {"incluidos": [], "removidos": [], "alterados": []}
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
