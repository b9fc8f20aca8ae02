"""Reading and validating source packages: valid and invalid fixtures, named by intent."""

from __future__ import annotations

import json

import pytest

from pipeline.read import read_source
from pipeline.validate import validate


def problems(path, schema, lenient=False):
    report = validate(read_source(path, schema), schema, lenient=lenient)
    return report, [(p.regra, p.tabela, p.linha, p.coluna, p.valor) for p in report.errors]


def test_minimal_package_is_valid_and_enquadramentos_come_from_the_decree(package, schema):
    report, errors = problems(package.path, schema)
    assert errors == []
    assert report.valid
    assert len(report.accepted["enquadramentos"].rows) == 43
    assert any("art. 78" in n for n in report.notes)
    assert len(report.accepted["outorgas"].rows) == 6


def test_cnpj_with_wrong_check_digits_names_file_row_and_column(package, schema):
    package.edit("transportadoras.csv", "11222333000181,VIACAO", "11222333000182,VIACAO")
    report, errors = problems(package.path, schema)
    assert ("cnpj-digitos", "transportadoras", 2, "cnpj", "11222333000182") in errors
    message = next(p.mensagem for p in report.errors if p.regra == "cnpj-digitos")
    assert "transportadoras.csv" in message and "linha 2" in message and 'coluna "cnpj"' in message
    assert "dígitos verificadores" in message


def test_unknown_foreign_key_is_reported_with_the_referenced_table(package, schema):
    package.edit("infracoes.csv", "AI-0001,11222333000181,12-0140-00", "AI-0001,11222333000181,99-9999-99")
    report, errors = problems(package.path, schema)
    assert ("chave-estrangeira", "infracoes", 2, "linha_prefixo", "99-9999-99") in errors
    assert "linhas.prefixo" in report.errors[0].detalhe


def test_impossible_date_is_a_type_error(package, schema):
    package.edit("outorgas.csv", "2026-01-10", "2026-02-30")
    _, errors = problems(package.path, schema)
    assert ("tipo", "outorgas", 4, "inicio", "2026-02-30") in errors


def test_value_outside_the_enum_lists_the_allowed_ones(package, schema):
    package.edit("outorgas.csv", "permissao,regular,11222333000181", "concessao,regular,11222333000181")
    report, errors = problems(package.path, schema)
    assert ("lista", "outorgas", 2, "instrumento", "concessao") in errors
    assert "permissao, autorizacao" in report.errors[0].detalhe


def test_extinction_date_without_reason_breaks_art_28(package, schema):
    package.edit("outorgas.csv", "2020-04-15,caducidade,", "2020-04-15,,")
    _, errors = problems(package.path, schema)
    assert ("motivo-extincao-obrigatorio", "outorgas", 5, "motivo_extincao", "") in errors


def test_outorga_without_line_is_only_allowed_for_fretamento(package, schema):
    package.edit("outorgas.csv", "77888999000181,MSBO0010001,", "77888999000181,,")
    _, errors = problems(package.path, schema)
    assert ("linha-obrigatoria", "outorgas", 4, "linha_prefixo", "") in errors
    assert not any(e[0] == "linha-obrigatoria" and e[2] == 6 for e in errors)  # OUT-5 is fretamento


def test_duplicate_primary_key(package, schema):
    package.append("linhas.csv", "12-0140-00,DUP,A,DF,B,GO,interestadual,,10,")
    _, errors = problems(package.path, schema)
    assert any(e[0] in ("unico", "chave-primaria") and e[1] == "linhas" and e[2] == 5 for e in errors)


def test_fare_with_three_decimals(package, schema):
    package.edit("tarifas.csv", "80.00,2019-01-01", "80.005,2019-01-01")
    _, errors = problems(package.path, schema)
    assert ("duas-casas-decimais", "tarifas", 2, "valor", "80.005") in errors


def test_datetime_needs_the_contract_shape(package, schema):
    package.edit("infracoes.csv", "2026-03-02T14:30", "02/03/2026 14:30")
    _, errors = problems(package.path, schema)
    assert ("data-hora-formato", "infracoes", 2, "data_hora", "02/03/2026 14:30") in errors


def test_promotion_ending_before_it_starts(package, schema):
    package.edit("tarifas_promocionais.csv", "2024-03-01,2024-03-31", "2024-03-01,2024-02-28")
    _, errors = problems(package.path, schema)
    assert ("fim-antes-do-inicio", "tarifas_promocionais", 4, "fim", "2024-02-28") in errors


def test_caducidade_of_another_carriers_outorga(package, schema):
    package.edit("caducidades.csv", "OUT-4,77888999000181", "OUT-4,11222333000181")
    _, errors = problems(package.path, schema)
    assert ("caducidade-outra-transportadora", "caducidades", 2, "transportadora_cnpj", "11222333000181") in errors


def test_key_that_cannot_make_a_url_slug(package, schema):
    package.edit("outorgas.csv", "OUT-5,", "../..,")
    _, errors = problems(package.path, schema)
    assert ("chave-sem-slug", "outorgas", 6, "id", "../..") in errors


def test_keys_that_collide_on_the_same_slug(package, schema):
    package.edit("outorgas.csv", "OUT-5,", "out 1,")
    report, errors = problems(package.path, schema)
    assert ("slug-repetido", "outorgas", 6, "id", "out 1") in errors


def test_javascript_link_is_refused(package, schema):
    package.edit("outorgas.csv", "https://example.gov.br/atos/1", "javascript:alert(1)")
    _, errors = problems(package.path, schema)
    assert ("url-insegura", "outorgas", 2, "documento_url", "javascript:alert(1)") in errors


def test_cpf_in_a_text_field_is_refused_and_masked_in_the_report(package, schema):
    package.edit("infracoes.csv", "BR-040 km 90", "motorista 123.456.789-09")
    report, errors = problems(package.path, schema)
    hit = next(p for p in report.errors if p.regra == "dado-pessoal")
    assert (hit.tabela, hit.linha, hit.coluna) == ("infracoes", 3, "local")
    dumped = json.dumps(report.to_dict(), ensure_ascii=False)
    assert "123.456.789-09" not in dumped
    assert "***.***.***-**" in dumped


def test_row_with_wrong_number_of_cells(package, schema):
    package.append("linhas.csv", "XXXX0000001,only,three")
    _, errors = problems(package.path, schema)
    assert ("largura-da-linha", "linhas", 5, None, "3") in errors


def test_missing_required_column_in_header(package, schema):
    lines = (package.path / "linhas.csv").read_text(encoding="utf-8").splitlines()
    lines[0] = lines[0].replace("origem_municipio", "origem")
    (package.path / "linhas.csv").write_text("\n".join(lines) + "\n", encoding="utf-8")
    report, errors = problems(package.path, schema)
    assert ("coluna-ausente", "linhas", 1, "origem_municipio", None) in errors
    assert any(p.regra == "coluna-desconhecida" and p.coluna == "origem" for p in report.warnings)


def test_missing_optional_column_is_a_warning_and_reads_as_empty(package, schema):
    text = (package.path / "linhas.csv").read_text(encoding="utf-8").replace(",extensao_km", "", 1)
    (package.path / "linhas.csv").write_text(text, encoding="utf-8")
    report, errors = problems(package.path, schema)
    assert ("linhas", "extensao_km") not in [(e[1], e[3]) for e in errors]
    assert ("coluna-opcional-ausente", 1, "extensao_km") in [(p.regra, p.linha, p.coluna) for p in report.warnings]


def test_file_not_in_utf8(package, schema):
    (package.path / "transportadoras.csv").write_bytes(
        "cnpj,razao_social,nome_fantasia,uf,municipio\n11222333000181,VIAÇÃO,,DF,\n".encode("latin-1")
    )
    _, errors = problems(package.path, schema)
    assert any(e[0] == "codificacao" and e[1] == "transportadoras" for e in errors)


def test_a_byte_not_utf8_far_into_a_file_read_whole_refuses_the_file_naming_its_line(package, schema):
    """The file is streamed (never decoded whole): the bad byte, past what the reader decodes at once, is found
    by a second look at its line, and the file is refused whole, with no other problem of its rows."""
    rows = [f"{11222333000100 + n},VIACAO {n} LTDA,,DF," for n in range(20_000)]
    rows[15_000] = "11222333000181,VIAÇÃO,,DF,"
    text = "cnpj,razao_social,nome_fantasia,uf,municipio\n" + "\n".join(rows) + "\n"
    (package.path / "transportadoras.csv").write_bytes(text.encode("latin-1"))
    report = validate(read_source(package.path, schema), schema)
    mine = [p for p in report.problems if p.tabela == "transportadoras"]
    assert [(p.regra, p.linha) for p in mine] == [("codificacao", 15_002)]
    assert "0xc7" in mine[0].mensagem and report.rows_read["transportadoras"] == 0


def test_datapackage_path_leaving_the_folder_is_refused(package, schema):
    (package.path / "datapackage.json").write_text(
        json.dumps({"resources": [{"name": "linhas", "path": "../../etc/passwd"}]}), encoding="utf-8"
    )
    _, errors = problems(package.path, schema)
    assert ("caminho-inseguro", "linhas", None, "path", "../../etc/passwd") in errors


def test_folder_of_plain_csvs_with_a_missing_table_is_valid(package, schema):
    (package.path / "caducidades.csv").unlink()
    package.edit("outorgas.csv", "OUT-6,autorizacao", "OUT-6,autorizacao")  # unchanged, still valid
    report, errors = problems(package.path, schema)
    assert errors == []
    assert report.accepted["caducidades"].rows == []
    assert any("caducidades" in n and "não coberta" in n for n in report.notes)
    assert report.coverage["caducidades"] == [] and report.covered("outorgas")
    assert report.to_dict()["linhas_lidas"]["caducidades"] == "não coberto"


@pytest.mark.parametrize("lenient", [False, True])
def test_lenient_keeps_valid_rows_and_cascades_foreign_keys(package, schema, lenient):
    # Carrier 77888999000181 gets a wrong check digit: its outorgas, infractions and caducidade lose
    # their foreign key, and OUT-4's caducidade then points at a rejected outorga.
    for name in ("transportadoras.csv", "outorgas.csv", "infracoes.csv", "caducidades.csv"):
        text = (package.path / name).read_text(encoding="utf-8").replace("77888999000181", "77888999000180")
        (package.path / name).write_text(text, encoding="utf-8")
    report, errors = problems(package.path, schema, lenient=lenient)
    assert ("cnpj-digitos", "transportadoras", 4, "cnpj", "77888999000180") in errors
    if not lenient:
        assert report.accepted == {}
        return
    accepted = report.accepted
    assert [r[0] for r in accepted["transportadoras"].rows] == ["11222333000181", "44555666000181"]
    assert [r[0] for r in accepted["outorgas"].rows] == ["OUT-1", "OUT-2", "OUT-5"]
    assert accepted["caducidades"].rows == []
    assert [r[0] for r in accepted["infracoes"].rows] == ["AI-0001", "AI-0003"]
    rejected = {(p.tabela, p.linha) for p in report.errors}
    assert {("outorgas", 4), ("outorgas", 5), ("outorgas", 7), ("caducidades", 2), ("infracoes", 3)} <= rejected


def test_fine_with_three_decimals(package, schema):
    package.edit("infracoes.csv", "multa,1500.00,", "multa,1500.001,")
    _, errors = problems(package.path, schema)
    assert ("duas-casas-decimais", "infracoes", 2, "valor_multa", "1500.001") in errors


def test_line_end_must_be_a_uf_or_a_country_code(package, schema):
    package.edit("linhas.csv", "CALDAS NOVAS,GO,", "CALDAS NOVAS,ZZ,")
    _, errors = problems(package.path, schema)
    assert ("padrao", "linhas", 2, "destino_uf", "ZZ") in errors
