"""Several source folders combined: tables merged by key, conflicts reported, errors located."""

from __future__ import annotations

import shutil

from conftest import MINIMAL, cli

from pipeline.read import read_source
from pipeline.validate import validate


def folders(tmp_path):
    main, extra = tmp_path / "ingerido", tmp_path / "outra-fonte"
    shutil.copytree(MINIMAL, main)
    extra.mkdir()
    shutil.move(main / "tarifas.csv", extra / "tarifas.csv")  # fares come from the other source
    return main, extra


def test_tables_from_two_folders_build_one_package(tmp_path, schema):
    main, extra = folders(tmp_path)
    report = validate(read_source([main, extra], schema), schema)
    assert report.valid, [p.mensagem for p in report.errors]
    assert len(report.accepted["tarifas"].rows) == 6  # from the other folder, foreign keys into the first
    out = tmp_path / "site"
    proc = cli("build", "--data", str(main), "--data", str(extra), "--out", str(out), "--as-of", "2026-06-30",
               "--no-search")
    assert proc.returncode == 0, proc.stderr
    assert "R$ 88,50" in (out / "linhas" / "12-0140-00" / "index.html").read_text(encoding="utf-8").replace("\xa0", " ")


def test_the_same_record_in_two_sources_is_kept_once(tmp_path, schema):
    main, extra = folders(tmp_path)
    shutil.copy(main / "linhas.csv", extra / "linhas.csv")
    report = validate(read_source([main, extra], schema), schema)
    assert report.valid
    assert len(report.accepted["linhas"].rows) == 3
    assert not [p for p in report.problems if p.regra == "conflito-entre-fontes"]
    assert any("linhas: reunida de 2 fontes" in n for n in report.notes)


def test_conflicting_records_keep_the_first_source_and_are_reported(tmp_path, schema):
    main, extra = folders(tmp_path)
    (extra / "transportadoras.csv").write_text(
        "cnpj,razao_social,nome_fantasia,uf,municipio\n"
        "11222333000181,VIACAO CERRADO S.A.,Cerrado,GO,GOIANIA\n"
        "12345678000195,NOVA EMPRESA LTDA,,SP,CAMPINAS\n",
        encoding="utf-8",
    )
    report = validate(read_source([main, extra], schema), schema)
    assert report.valid  # a conflict is a warning: the first source's row stands
    rows = {r[0]: r for r in report.accepted["transportadoras"].rows}
    assert rows["11222333000181"][1] == "VIACAO CERRADO LTDA"
    assert "12345678000195" in rows  # a new carrier from the other source is added
    conflict = next(p for p in report.warnings if p.regra == "conflito-entre-fontes")
    assert conflict.arquivo.endswith("outra-fonte/transportadoras.csv") and conflict.linha == 2
    assert conflict.coluna == "razao_social, uf, municipio"
    assert "ingerido/transportadoras.csv, linha 2" in conflict.detalhe


def test_an_error_in_the_second_source_names_its_file_and_line(tmp_path, schema):
    main, extra = folders(tmp_path)
    with open(extra / "tarifas.csv", "a", encoding="utf-8") as fh:
        fh.write("99-9999-99,A,B,executivo,10.00,2020-01-01,licitacao,\n")
    report = validate(read_source([main, extra], schema), schema)
    error = next(p for p in report.errors if p.regra == "chave-estrangeira")
    assert error.arquivo.endswith("outra-fonte/tarifas.csv") and error.linha == 8
    lenient = validate(read_source([main, extra], schema), schema, lenient=True)
    assert len(lenient.accepted["tarifas"].rows) == 6


def test_a_page_names_the_sources_of_one_publisher_once():
    """pipeline/site/coverage.py named(): the regulator's files under one name, their titles joined, one date when
    they share it; a source alone, or undeclared, as before."""
    from pipeline.read.provenance import Source
    from pipeline.site.coverage import named

    antt = "ANTT — Agência Nacional de Transportes Terrestres"
    timetable = Source("horarios", "h", titulo="Quadro de horários 2026", publicador=antt, data="2026-09")
    sections = Source("secoes", "s", titulo="Linhas e seções 2026", publicador=antt, data="2026-09")
    history = Source("historico", "x", titulo="Histórico de linhas 2026", publicador=antt, data="2026-08")
    decree = Source("decreto", "d", titulo="Decreto nº 952/1993", publicador="Presidência da República", data="1993-10-08")
    undeclared = Source("pasta", "pasta", declarada=False)
    assert named([timetable]) == f"{antt}, Quadro de horários 2026 (dados de 09/2026)"
    assert named([timetable, decree, sections]) == (
        f"{antt}: Quadro de horários 2026 e Linhas e seções 2026 (dados de 09/2026); "
        "Presidência da República, Decreto nº 952/1993 (dados de 08/10/1993)")
    assert named([timetable, history, sections]) == (
        f"{antt}: Quadro de horários 2026 (dados de 09/2026), Histórico de linhas 2026 (dados de 08/2026) e "
        "Linhas e seções 2026 (dados de 09/2026)")
    assert named([undeclared, timetable]) == (
        f"fonte não declarada (pasta pasta); {antt}, Quadro de horários 2026 (dados de 09/2026)")


def test_an_answer_says_which_tables_its_sources_leave_out_in_agreement():
    from pipeline.site.cities import sources_sentence
    from pipeline.site.record import Record

    assert sources_sentence(Record(fonte="X", nao_cobertas=["tarifas máximas"])) == (
        "Fonte: X. Esta resposta não considera tarifas máximas: as fontes deste site não as incluem.")
    assert sources_sentence(Record(fonte="X", nao_cobertas=["seções das linhas", "tarifas máximas"])).endswith(
        "seções das linhas nem tarifas máximas: as fontes deste site não as incluem.")
    assert sources_sentence(Record(fonte="X", nao_cobertas=["tarifas máximas", "bilhetes vendidos (Monitriip)"])).endswith(
        "tarifas máximas nem bilhetes vendidos (Monitriip): as fontes deste site não os incluem.")
