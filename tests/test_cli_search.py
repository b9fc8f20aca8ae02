"""``python -m pipeline search`` as its user sees it: what it says when nothing matches and its exit
statuses, separators typed between places (``São Paulo - SP``), names that are not stemmed (``caiçara`` is not
``Caicó``), and a start that imports only what a search needs."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
from conftest import PROJECT_ROOT, cli


@pytest.fixture(scope="module")
def index(site) -> str:
    return str(site.parent / "busca")


def keys(proc) -> list[str]:
    """The keys of the hits printed (the second column), the count line left out."""
    return [line.split()[1] for line in proc.stdout.splitlines()[:-1]]


# 1. nothing found: a message on stderr and status 1; the statuses in --help


def test_nothing_found_says_so_on_stderr_with_a_hint_and_exits_1(index):
    proc = cli("search", "xilofone", "zarabatana", "--index", index)
    assert proc.returncode == 1
    assert proc.stdout == ""
    first, *hint = proc.stderr.splitlines()
    assert first == "Nenhum resultado para “xilofone zarabatana”."
    assert "menos palavras" in proc.stderr and "municipio:goiania" in proc.stderr and "--help" in proc.stderr


def test_nothing_found_in_one_table_suggests_searching_them_all(index):
    proc = cli("search", "corumbá", "--table", "caducidades", "--index", index)
    assert proc.returncode == 1 and proc.stdout == ""
    assert proc.stderr.startswith("Nenhum resultado para “corumbá” em caducidades.")
    assert "sem --table" in proc.stderr
    assert cli("search", "corumbá", "--index", index).returncode == 0  # found in the other tables


def test_nothing_found_with_json_prints_no_line_and_says_so_on_stderr(index):
    proc = cli("search", "xilofone", "--json", "--index", index)
    assert proc.stdout == "" and proc.stderr.startswith("Nenhum resultado para “xilofone”.")
    assert proc.returncode == 1  # as without --json: a script tells "nothing" from "found" by the status


def test_help_states_the_exit_statuses():
    proc = cli("search", "--help")
    assert proc.returncode == 0
    text = " ".join(proc.stdout.split())
    assert "Saída: 0 com resultados; 1 sem resultados" in text
    assert "2 consulta inválida" in text


# 2. a dash, slash or comma standing alone separates words; inside a word it stays (prefixes, dates)


@pytest.mark.parametrize("typed", [
    ["Brasília - Caldas Novas"],
    ["Brasília", "-", "Caldas", "Novas"],
    ["Brasília – Caldas Novas"],  # the en dash of the pages' titles
    ["BRASILIA(DF) - CALDAS NOVAS(GO)"],  # the regulator's description of the line
    ["Brasília/DF - Caldas Novas/GO"],
    ["Brasília (DF) — Caldas Novas (GO)"],
    ["Caldas Novas - GO", "/", "Brasília , DF"],
    ["- caldas novas -"],
])
def test_a_separator_between_places_is_not_an_operator(index, typed):
    proc = cli("search", *typed, "--table", "linhas", "--index", index)
    assert proc.returncode == 0, proc.stderr
    assert keys(proc) == ["12-0140-00"], proc.stdout


def test_a_city_and_its_uf_written_with_a_dash_or_a_slash(index):
    for typed in ("Caldas Novas - GO", "Caldas Novas/GO", "Caldas Novas (GO)", "caldas novas-go"):
        proc = cli("search", typed, "--table", "municipios", "--index", index)
        assert proc.returncode == 0, (typed, proc.stderr)
        assert "Caldas Novas (GO)" in proc.stdout, typed


def test_a_query_of_separators_alone_is_refused_with_an_example(index):
    proc = cli("search", "-", "–", "--index", index)
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.startswith("consulta inválida: consulta vazia") and "Ex.:" in proc.stderr


def test_a_dash_inside_a_word_is_kept(index):
    proc = cli("search", "12-0140-00", "--index", index)
    assert proc.returncode == 0 and "/linhas/12-0140-00/" in proc.stdout
    dated = cli("search", "tipo:caducidade", "-", "data:[2020-01-01 TO 2020-12-31]", "--index", index)
    assert keys(dated) == ["Portaria"]  # "Portaria DTR nº 45/2020"


# 3. names and titles are folded, not stemmed: caiçara is not Caicó


@pytest.mark.slow  # a real-export build
def test_names_are_not_stemmed_on_the_real_export(real_only_site):
    index = str(real_only_site.parent / "busca")
    caicara = cli("search", "caiçara", "--index", index)
    assert caicara.returncode == 0, caicara.stderr
    assert "VIAÇÃO CAIÇARA LTDA." in caicara.stdout  # the carrier of the real export
    assert not re.search(r"caic[oó]\b", caicara.stdout, re.I), caicara.stdout
    caico = cli("search", "caicó", "--index", index)
    assert caico.returncode == 0 and "Caicó (RN)" in caico.stdout
    assert "CAIÇARA" not in caico.stdout
    assert cli("search", "CAICO", "--table", "municipios", "--index", index).stdout.startswith("cidade")


def test_descriptive_text_is_still_stemmed_and_a_singular_finds_its_plural(index):
    # the enquadramentos' descriptions are free text: "passageiro" finds "passageiros"
    described = cli("search", "passageiro", "--table", "enquadramentos", "--index", index)
    assert described.returncode == 0 and keys(described)
    # a name: TRANSPORTES FRONTEIRA LTDA by its singular, not its stem
    assert "77888999000181" in keys(cli("search", "transporte", "fronteira", "--index", index))


# 4. the search imports what a search needs, not the build


HEAVY = {"pandas", "numpy", "pyarrow", "frictionless", "pelican", "jinja2", "openpyxl", "duckdb", "markdown",
         "pipeline.build", "pipeline.derive", "pipeline.site", "pipeline.validate", "pipeline.publish",
         "pipeline.read", "pipeline.build.batches", "pipeline.adapters"}


def test_the_search_command_does_not_import_the_build(index):
    proc = subprocess.run([sys.executable, "-X", "importtime", "-m", "pipeline", "search", "caldas", "novas",
                           "--index", index], cwd=PROJECT_ROOT, capture_output=True, text=True)
    assert proc.returncode == 0 and "/linhas/12-0140-00/" in proc.stdout
    imported = {line.rsplit("|", 1)[1].strip() for line in proc.stderr.splitlines() if line.startswith("import time:")}
    assert "whoosh.index" in imported  # the measure works
    heavy = sorted(m for m in imported if any(m == h or m.startswith(h + ".") for h in HEAVY))
    assert heavy == [], heavy
