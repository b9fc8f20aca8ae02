"""The command line: exit codes and the messages a user reads. Most tests call ``main`` in this process
(conftest ``cli``); those about what the process writes to a CI log or a terminal start one (``run_cli``)."""

from __future__ import annotations

import csv
import json

import pytest
from conftest import MINIMAL, cli, run_cli


def test_validate_valid_package_exits_zero():
    proc = cli("validate", str(MINIMAL))
    assert proc.returncode == 0, proc.stderr
    assert "válido" in proc.stdout


def test_validate_wrong_cnpj_fails_naming_file_row_and_column(package):
    package.edit("transportadoras.csv", "44555666000181,EXPRESSO", "44555666000180,EXPRESSO")
    proc = cli("validate", str(package.path))
    assert proc.returncode == 1
    line = next(line for line in proc.stderr.splitlines() if "cnpj-digitos" in line)
    assert "transportadoras.csv" in line and "linha 3" in line and 'coluna "cnpj"' in line
    assert '"44555666000180"' in line
    assert "inválido" in proc.stderr


def test_build_failure_keeps_the_previous_site(package, tmp_path):
    out = tmp_path / "site"
    ok = cli("build", "--data", str(package.path), "--out", str(out), "--as-of", "2026-06-30", "--no-search")
    assert ok.returncode == 0, ok.stderr
    before = (out / "index.html").read_bytes()
    package.edit("linhas.csv", "298.5", "muito longe")
    bad = cli("build", "--data", str(package.path), "--out", str(out), "--as-of", "2026-07-30", "--no-search")
    assert bad.returncode == 1
    assert 'linhas.csv, linha 2, coluna "extensao_km"' in bad.stderr
    assert "site anterior foi mantido" in bad.stderr
    assert (out / "index.html").read_bytes() == before
    assert not (tmp_path / ".site.staging").exists()


def test_lenient_build_publishes_valid_rows_and_the_rejected_ones(package, tmp_path):
    package.edit("linhas.csv", "298.5", "muito longe")
    out = tmp_path / "site"
    proc = cli(
        "build", "--data", str(package.path), "--out", str(out), "--as-of", "2026-06-30", "--lenient", "--no-search"
    )
    assert proc.returncode == 0, proc.stderr
    assert "rejeitados.csv" in proc.stdout
    rejected = (out / "dados" / "rejeitados.csv").read_text(encoding="utf-8")
    assert "linhas," in rejected and "extensao_km" in rejected
    assert "muito longe" in rejected
    assert not (out / "linhas" / "12-0140-00").exists()
    assert (out / "linhas" / "sprj0030026" / "index.html").exists()


def test_bad_as_of_is_a_settings_error():
    proc = cli("build", "--data", str(MINIMAL), "--as-of", "30/06/2026")
    assert proc.returncode == 2
    assert '--as-of "30/06/2026" não é uma data no formato AAAA-MM-DD' in proc.stderr


def test_missing_data_folder_is_a_settings_error(tmp_path):
    proc = cli("validate", str(tmp_path / "nao-existe"))
    assert proc.returncode == 2
    assert "nao-existe" in proc.stderr and "não existe" in proc.stderr


def test_ci_output_is_one_line_per_stage_with_timing(tmp_path):
    # a process: what a CI log shows is everything written to its fds 1 and 2 (Pelican's, the workers')
    proc = run_cli("build", "--data", str(MINIMAL), "--out", str(tmp_path / "s"), "--as-of", "2026-06-30",
                   "--index", str(tmp_path / "busca"))
    assert proc.returncode == 0, proc.stderr
    stages = [line for line in proc.stderr.splitlines() if line.startswith("[")]
    assert [s.split("]")[0][1:] for s in stages] == [
        "leitura",
        "validação",
        "tabelas em lotes",  # the tickets, read in batches beside the rest (pipeline/build/batches.py)
        "derivação",
        "publicação",
        "páginas",
        "downloads (em paralelo)",
        "versão e catálogos",  # the download pages rendered once, with the release's facts
        "índice de busca",  # Pagefind, started when the searched pages were done, waited for
    ]
    assert all(s.endswith(" s") for s in stages)
    assert "Done: Processed" not in proc.stdout
    # the pages reported are the pages written: the portal's (some by worker processes) and content/'s
    written = sum(1 for _ in (tmp_path / "s").rglob("*.html"))
    assert f"site gerado em {tmp_path / 's'}: {written} páginas" in proc.stdout + proc.stderr


def test_search_command_finds_records_by_field(tmp_path):
    index = str(tmp_path / "busca")
    built = cli("build", "--data", str(MINIMAL), "--out", str(tmp_path / "s"), "--as-of", "2026-06-30",
                "--index", index)
    assert built.returncode == 0, built.stderr
    proc = cli("search", "uf:GO", "tipo:linha", "--index", index)
    assert proc.returncode == 0
    lines = proc.stdout.splitlines()
    assert lines[0].split()[:2] == ["linha", "12-0140-00"] and "/linhas/12-0140-00/" in lines[0]
    assert lines[-1] == "1 resultado(s)"
    accents = cli("search", "brasília", "--index", index)  # accents folded: BRASILIA
    assert "/linhas/12-0140-00/" in accents.stdout and "/transportadoras/11222333000181/" in accents.stdout
    vencidas = cli("search", "tipo:outorga", "situacao:vencida", "--index", index)
    assert [line.split()[1] for line in vencidas.stdout.splitlines()[:-1]] == ["OUT-2", "OUT-5", "OUT-6"]


def test_search_without_an_index_says_how_to_make_one(tmp_path):
    proc = cli("search", "caldas", "--index", str(tmp_path / "nada"))
    assert proc.returncode == 2
    assert "python -m pipeline build" in proc.stderr


def test_control_characters_in_data_are_not_printed_raw(package):
    package.edit("transportadoras.csv", "11222333000181,VIACAO", "\x1b[2J11222333000181,VIACAO")
    proc = run_cli("validate", str(package.path))  # a process: nothing reaches the terminal raw, whoever writes it
    assert proc.returncode == 1
    line = next(line for line in proc.stderr.splitlines() if 'coluna "cnpj"' in line)
    assert "\x1b" not in proc.stderr
    assert '"\ufffd[2J11222333000181"' in line


def test_build_refuses_to_replace_a_folder_it_did_not_make(tmp_path):
    precious = tmp_path / "documentos"
    precious.mkdir()
    (precious / "carta.txt").write_text("não apague", encoding="utf-8")
    proc = cli("build", "--data", str(MINIMAL), "--out", str(precious), "--no-search")
    assert proc.returncode == 2
    assert f"a pasta de saída (--out) {precious} já existe e não foi gerada pelo portal" in proc.stderr
    assert (precious / "carta.txt").read_text(encoding="utf-8") == "não apague"
    index = cli("build", "--data", str(MINIMAL), "--out", str(tmp_path / "site"), "--index", str(precious))
    assert index.returncode == 2 and "--index" in index.stderr
    assert (precious / "carta.txt").is_file()


def test_a_build_without_the_command_line_index_leaves_its_folder_alone_and_keeps_the_browsers(tmp_path):
    """``--sem-whoosh`` (the nightly job's choice): no Whoosh index is written, not even into a folder
    ``--index`` names, and the browser's search (Pagefind) is made as before."""
    named = tmp_path / "documentos"
    named.mkdir()
    (named / "carta.txt").write_text("não apague", encoding="utf-8")
    proc = cli("build", "--data", str(MINIMAL), "--out", str(tmp_path / "site"), "--as-of", "2026-06-30",
               "--index", str(named), "--sem-whoosh")
    assert proc.returncode == 0, proc.stderr
    assert [p.name for p in named.iterdir()] == ["carta.txt"]
    assert (tmp_path / "site" / "pagefind" / "pagefind-entry.json").is_file()
    search = cli("search", "caldas", "--index", str(named))
    assert search.returncode == 2 and "python -m pipeline build" in search.stderr


def test_a_second_build_replaces_the_first(tmp_path):
    out = tmp_path / "site"
    for _ in range(2):
        proc = cli("build", "--data", str(MINIMAL), "--out", str(out), "--as-of", "2026-06-30",
                   "--index", str(tmp_path / "busca"))
        assert proc.returncode == 0, proc.stderr
    assert (out / ".gerado-pelo-portal").is_file() and (tmp_path / "busca" / ".gerado-pelo-portal").is_file()


@pytest.fixture(scope="module")
def search_index(tmp_path_factory):
    root = tmp_path_factory.mktemp("busca-cli")
    built = cli("build", "--data", str(MINIMAL), "--out", str(root / "s"), "--as-of", "2026-06-30",
                "--index", str(root / "busca"))
    assert built.returncode == 0, built.stderr
    return str(root / "busca")


def found(index: str, *query: str) -> list[dict]:
    proc = cli("search", *query, "--json", "--index", index)
    assert proc.returncode == (0 if proc.stdout else 1), proc.stderr  # 1: nothing found, said on stderr
    return [json.loads(line) for line in proc.stdout.splitlines()]


def test_search_by_field_and_table(search_index):
    hits = found(search_index, "transportadora:cerrado")
    assert {"linha", "transportadora", "outorga"} <= {h["tipo"] for h in hits}
    assert all(h["tipo"] == "linha" for h in found(search_index, "transportadora:cerrado", "--table", "linhas"))
    assert [h["chave"] for h in found(search_index, "grupo:IV", "--table", "enquadramentos")] == [
        f"78-IV-{a}" for a in "abcdefghi"]  # art. 78, group IV: alíneas a to i
    assert {h["chave"] for h in found(search_index, "uf:MS", "--table", "linhas")} == {"MSBO0010001"}


def test_search_ranges_of_dates_and_values(search_index):
    # 12-0140-00's fares in force on 2026-06-30: 88.50 (convencional) and the executivo; 92.10 starts in 2027
    in_range = found(search_index, "valor:[85 TO 90]", "--table", "linhas")
    assert [h["chave"] for h in in_range] == ["12-0140-00"]
    assert found(search_index, "valor:[91 TO 93]", "--table", "linhas") == []
    declared = found(search_index, "data:[2020-01-01 TO 2020-12-31]", "--table", "caducidades")
    assert [h["chave"] for h in declared] == ["Portaria DTR nº 45/2020"]


def test_the_widest_range_and_a_single_day_find_every_record_they_hold(search_index):
    # a range is read from the index's coarse tiers and its fine ones (pipeline/index/whoosh.py RANGE_STEP)
    with open(MINIMAL / "outorgas.csv", encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    every = found(search_index, "data:[1900-01-01 TO 2100-12-31]", "--table", "outorgas")
    assert sorted(h["chave"] for h in every) == sorted(r["id"] for r in rows if r["inicio"])
    day = rows[0]["inicio"]
    on_the_day = found(search_index, f"data:[{day} TO {day}]", "--table", "outorgas")
    assert [h["chave"] for h in on_the_day] == [r["id"] for r in rows if r["inicio"] == day]


def test_search_folds_accents_before_stemming(search_index):
    assert {h["chave"] for h in found(search_index, "transporte", "fronteira")} >= {"77888999000181"}
    for typed in ("corumbá", "CORUMBA", "Corumba"):
        assert [h["chave"] for h in found(search_index, typed, "--table", "linhas")] == ["MSBO0010001"], typed


def test_search_json_lines_carry_type_key_title_and_url(search_index):
    hit = found(search_index, "prefixo:12-0140-00")[0]
    assert hit == {"tipo": "linha", "chave": "12-0140-00", "titulo": hit["titulo"], "url": "/linhas/12-0140-00/"}
    assert hit["titulo"].startswith("Linha 12-0140-00: BRASILIA (DF)")


@pytest.mark.parametrize("query, says", [
    ("data:[2024-01-01 TO", "colchete"),
    ("data:[2024-13-45 TO 2025-01-01]", "intervalo"),
    ("valor:[abc TO 5]", "números como 100"),
    ("cidade:goiania", "campo desconhecido: 'cidade'"),
    ('"sao paulo', "aspas"),
    ("(uf:GO OR uf:DF", "parênteses"),
])
def test_malformed_query_gets_a_message_with_an_example_and_exit_2(search_index, query, says):
    proc = cli("search", query, "--json", "--index", search_index)
    assert proc.returncode == 2
    assert proc.stderr.startswith("consulta inválida: ") and says in proc.stderr and "Ex.:" in proc.stderr
    assert "Traceback" not in proc.stderr and proc.stdout == ""


def test_search_help_lists_the_fields_with_the_schemas_titles():
    proc = cli("search", "--help")
    assert "transportadora (texto): Razão social (transportadoras.razao_social)" in proc.stdout
    assert "valor (número): Valor (R$) (tarifas.valor)" in proc.stdout
