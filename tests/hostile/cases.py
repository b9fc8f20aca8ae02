"""The hostile corpus: classes of bad input, each as a mutation of a copy of the minimal package and
the outcome expected in strict and lenient mode (see README.md beside this file)."""

from __future__ import annotations

import csv
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from pipeline.contract.schema import load_schema

SCHEMA = load_schema()
REJECTS, FAILS, ACCEPTS, MASKS = "rejeita", "falha", "aceita", "mascara"
# classes whose cell lenient mode publishes masked (a CPF in free text, LGPD) instead of refusing the row
MASKED_CLASSES = {"cpf-sem-pontuacao", "cpf-com-pontuacao"}


@dataclass(frozen=True)
class Case:
    classe: str  # the class of hostile input
    tabela: str  # the table it is applied to ("datapackage" for the descriptor)
    mutate: Callable[[Path], None]  # changes the package copy in place
    regras: tuple[str, ...]  # rule slugs, any of which the strict report must name (empty: valid)
    lenient: str  # REJECTS, FAILS, ACCEPTS or MASKS
    linha: int | None = None  # the line the report must name
    coluna: str | None = None  # the column the report must name
    valor: str | None = None  # for ACCEPTS: the value that must come out of every download intact

    @property
    def id(self) -> str:
        return f"{self.classe}[{self.tabela}{'.' + self.coluna if self.coluna else ''}]"


# --- how a package copy is changed ---------------------------------------------------------------


def _rows(folder: Path, table: str) -> list[list[str]]:
    with open(folder / f"{table}.csv", encoding="utf-8", newline="") as fh:
        return list(csv.reader(fh))


def _write_rows(folder: Path, table: str, rows: list[list[str]]) -> None:
    with open(folder / f"{table}.csv", "w", encoding="utf-8", newline="") as fh:
        csv.writer(fh, lineterminator="\r\n").writerows(rows)  # CRLF: a bare CR in a cell gets quoted


def set_cell(table: str, column: str, value: str, row: int = 1) -> Callable[[Path], None]:
    """The cell of ``column`` in data row ``row`` (1 = the first after the header) becomes ``value``."""

    def mutate(folder: Path) -> None:
        rows = _rows(folder, table)
        rows[row][rows[0].index(column)] = value
        _write_rows(folder, table, rows)

    return mutate


def raw(table: str, change: Callable[[bytes], bytes]) -> Callable[[Path], None]:
    def mutate(folder: Path) -> None:
        path = folder / f"{table}.csv"
        path.write_bytes(change(path.read_bytes()))

    return mutate


def replace_file(table: str, make: Callable[[Path], None]) -> Callable[[Path], None]:
    def mutate(folder: Path) -> None:
        path = folder / f"{table}.csv"
        path.unlink()
        make(path)

    return mutate


def descriptor(content: str) -> Callable[[Path], None]:
    def mutate(folder: Path) -> None:
        (folder / "datapackage.json").write_text(content, encoding="utf-8")

    return mutate


def _unclosed_quote(data: bytes) -> bytes:
    lines = data.split(b"\n")
    first = lines[1].split(b",")
    first[1] = b'"' + first[1]
    lines[1] = b",".join(first)
    return b"\n".join(lines)


def _duplicate_header(data: bytes) -> bytes:
    header, rest = data.split(b"\n", 1)
    names = header.split(b",")
    names[1] = names[0]
    return b",".join(names) + b"\n" + rest


def _latin1_byte(data: bytes) -> bytes:
    lines = data.split(b"\n")
    lines[2] = lines[2] + b"\xe9" if len(lines) > 3 and lines[2] else lines[1] + b"\xe9"
    return b"\n".join(lines)


# --- which fields each class applies to --------------------------------------------------------------


def _first(table: str, predicate) -> dict | None:
    return next((f for f in SCHEMA[table].fields if predicate(f)), None)


def _constraints(f: dict) -> dict:
    return f.get("constraints", {})


def _free_text(f: dict) -> bool:
    c = _constraints(f)
    return f.get("type", "string") == "string" and not c.get("pattern") and not c.get("enum")


def _patterned(f: dict) -> bool:
    return bool(_constraints(f).get("pattern"))


def _required_free(f: dict) -> bool:
    return _free_text(f) and _constraints(f).get("required")


def _typed(kind: str):
    return lambda f: f.get("type", "string") == kind


def _non_key_free_text(table: str):
    keys = SCHEMA[table].key_fields
    return lambda f: _free_text(f) and f["name"] not in keys


TABLES = [name for name in SCHEMA.tables if name != "enquadramentos"]  # the decree supplies that one

# (class, field predicate per table, values, accepted rule slugs); each value makes one case per table
CELL_CLASSES: list[tuple[str, Callable[[str], Callable[[dict], bool]], list[str], tuple[str, ...]]] = [
    ("data-com-digitos-nao-ascii", lambda t: _typed("date"), ["２０２０-01-05", "٢٠٢٠-01-05"], ("data-invalida", "tipo")),
    ("data-sem-zeros", lambda t: _typed("date"), ["2020-1-5"], ("data-invalida", "tipo")),
    ("data-com-quebra-de-linha", lambda t: _typed("date"), ["2020-01-05\n"], ("data-invalida", "tipo")),
    ("data-ano-9999", lambda t: _typed("date"), ["9999-12-31"], ("data-fora-do-intervalo",)),
    ("numero-infinito", lambda t: _typed("number"), ["inf", "1e309", "NaN"], ("numero-formato", "tipo", "maior-que", "minimo")),
    ("numero-com-expoente", lambda t: _typed("number"), ["1e2", "12.5e0"], ("numero-formato", "tipo")),
    ("numero-com-sublinhado", lambda t: _typed("number"), ["1_000"], ("numero-formato", "tipo")),
    ("numero-com-espaco", lambda t: _typed("number"), [" 12.5", "12.5 "], ("numero-formato", "tipo")),
    ("numero-arabe-indico", lambda t: _typed("number"), ["١٢"], ("numero-formato", "tipo")),
    ("numero-enorme", lambda t: _typed("number"), ["9223372036854775808", "1" + "0" * 400],
     ("numero-grande", "tipo")),
    ("padrao-com-quebra-de-linha", lambda t: _patterned, ["{value}\n"],
     ("espacos-nas-pontas", "padrao", "chave-estrangeira")),
    ("obrigatorio-so-espacos", lambda t: _required_free, ["   "], ("obrigatorio",)),
    ("caractere-nul", lambda t: _free_text, ["abc\x00def"], ("caractere-de-controle",)),
    ("sequencia-de-escape", lambda t: _free_text, ["\x1b[31mvermelho\x1b[0m"], ("caractere-de-controle",)),
    ("texto-de-200-kib", lambda t: _free_text, ["x" * 200_000], ("texto-longo",)),
    ("cpf-sem-pontuacao", _non_key_free_text, ["52998224725"], ("cpf-sem-pontuacao",)),
    ("cpf-com-pontuacao", _non_key_free_text, ["529.982.247-25"], ("dado-pessoal",)),
]


def _cell_cases() -> list[Case]:
    out = []
    for classe, predicate_for, values, regras in CELL_CLASSES:
        applies = [(t, f) for t in TABLES if (f := _first(t, predicate_for(t))) is not None]
        # one case per table; the class's values take turns, and each is used at least once
        for n, (table, f) in enumerate(applies + applies[: max(0, len(values) - len(applies))]):
            original = _rows_of(table)[1][SCHEMA[table].field_names.index(f["name"])]
            v = values[n % len(values)].replace("{value}", original)
            lenient = MASKS if classe in MASKED_CLASSES else REJECTS
            out.append(Case(classe, table, set_cell(table, f["name"], v), regras, lenient, 2, f["name"], v))
    return out


def _rows_of(table: str) -> list[list[str]]:
    from conftest import MINIMAL

    return _rows(MINIMAL, table)


def _file_cases() -> list[Case]:
    out = []
    for table in TABLES:
        out += [
            Case("aspas-sem-fechamento", table, raw(table, _unclosed_quote), ("aspas-sem-fechamento", "csv-ilegivel"),
                 FAILS, 2),
            Case("coluna-repetida", table, raw(table, _duplicate_header), ("coluna-repetida",), FAILS, 1),
            Case("arquivo-de-zero-bytes", table, raw(table, lambda d: b""), ("arquivo-vazio",), FAILS),
            Case("separado-por-tabulacao", table, raw(table, lambda d: d.replace(b",", b"\t")), ("separador",), FAILS, 1),
            Case("separado-por-ponto-e-virgula", table, raw(table, lambda d: d.replace(b",", b";")), ("separador",),
                 FAILS, 1),
            Case("cabecalho-em-maiusculas", table, raw(table, lambda d: d.split(b"\n", 1)[0].upper() + b"\n"
                                                        + d.split(b"\n", 1)[1]), ("coluna-ausente",), FAILS, 1),
            Case("utf-16", table, raw(table, lambda d: d.decode("utf-8").encode("utf-16")), ("codificacao",), FAILS, 1),
            Case("byte-latin-1-em-utf-8", table, raw(table, _latin1_byte), ("codificacao",), FAILS),
            Case("pasta-no-lugar-do-arquivo", table, replace_file(table, lambda p: p.mkdir()), ("arquivo-ilegivel",),
                 FAILS),
            Case("link-simbolico-em-laco", table, replace_file(table, lambda p: os.symlink(p.name, p)),
                 ("arquivo-ilegivel",), FAILS),
            Case("linha-com-celulas-a-mais", table, raw(table, lambda d: d.rstrip(b"\n") + b",extra\n"),
                 ("largura-da-linha",), REJECTS),
        ]
        if SCHEMA[table].primary_key:
            out.append(Case("chave-repetida-na-mesma-fonte", table,
                            raw(table, lambda d: d.rstrip(b"\n") + b"\n" + d.split(b"\n")[1] + b"\n"),
                            ("chave-primaria", "unico"), REJECTS))
    return out


def _descriptor_cases() -> list[Case]:
    return [
        Case("descritor-lista", "datapackage", descriptor("[]"), ("descritor-invalido",), FAILS),
        Case("descritor-json-invalido", "datapackage", descriptor("{"), ("descritor-invalido",), FAILS),
        Case("descritor-recurso-nao-objeto", "datapackage", descriptor('{"resources": ["linhas"]}'),
             ("descritor-invalido",), FAILS),
        Case("descritor-caminho-com-nul", "datapackage",
             descriptor(json.dumps({"resources": [{"name": "linhas", "path": "lin\x00has.csv"}]})),
             ("descritor-invalido",), FAILS),
        Case("descritor-caminho-longo", "datapackage",
             descriptor(json.dumps({"resources": [{"name": "linhas", "path": "a" * 5000 + ".csv"}]})),
             ("descritor-invalido",), FAILS),
        Case("descritor-caminho-para-fora", "datapackage",
             descriptor(json.dumps({"resources": [{"name": "linhas", "path": "../../../etc/passwd"}]})),
             ("caminho-inseguro",), FAILS),
    ]


def _key_cases() -> list[Case]:
    # a CPF in a key column: a key cannot be masked (it names the record), so even lenient mode refuses the
    # row, with its line; bare, spaced or slashed, as a protocol number may hold one
    cpf_in_keys = [Case("cpf-em-chave", "historico_linhas", set_cell("historico_linhas", "protocolo", cpf),
                        ("cpf-sem-pontuacao", "dado-pessoal"), REJECTS, 2, "protocolo", cpf)
                   for cpf in ("52998224725", "529 982 247 25", "CPF 529.982.247/25")]
    return cpf_in_keys + [
        Case("chave-de-300-caracteres", "outorgas", lambda folder: set_cell("outorgas", "id", "OUT-" + "9" * 296)(folder),
             ("chave-longa",), REJECTS, 2, "id"),
        Case("chave-de-300-caracteres", "caducidades",
             set_cell("caducidades", "ato", "Portaria nº " + "1" * 290), ("chave-longa",), REJECTS, 2, "ato"),
        Case("chave-sem-endereco", "outorgas", set_cell("outorgas", "id", "!!!"), ("chave-sem-slug",), REJECTS, 2, "id"),
        Case("horario-sem-zeros", "horarios", set_cell("horarios", "horario", "6:0"), ("horario-formato", "tipo"),
             REJECTS, 2, "horario"),
        Case("data-hora-sem-zeros", "infracoes", set_cell("infracoes", "data_hora", "2026-3-2T14:30"),
             ("data-hora-formato", "tipo"), REJECTS, 2, "data_hora"),
    ]


def _accepted_cases() -> list[Case]:
    """Hostile text that is valid: published intact in every download, neutralised in spreadsheets."""
    return [
        Case("retorno-de-carro-sozinho", "transportadoras",
             set_cell("transportadoras", "razao_social", "VIACAO\rCERRADO LTDA"), (), ACCEPTS,
             valor="VIACAO\rCERRADO LTDA"),
        Case("formula-depois-de-retorno", "transportadoras",
             set_cell("transportadoras", "nome_fantasia", "\r=1+1"), (), ACCEPTS, valor="\r=1+1"),
        Case("formula-de-planilha", "linhas", set_cell("linhas", "itinerario", "=HYPERLINK(\"http://x\")"), (), ACCEPTS,
             valor="=HYPERLINK(\"http://x\")"),
        Case("quebra-de-linha-no-texto", "infracoes", set_cell("infracoes", "local", "BR-040,\nkm 12"), (), ACCEPTS,
             valor="BR-040,\nkm 12"),
        Case("html-no-texto", "linhas", set_cell("linhas", "itinerario", "<img src=x onerror=alert(1)>"), (), ACCEPTS,
             valor="<img src=x onerror=alert(1)>"),
        Case("truque-de-caminho-na-chave", "outorgas", set_cell("outorgas", "id", "../../etc/OUT-1"), (), ACCEPTS,
             valor="../../etc/OUT-1"),
    ]


CASES: list[Case] = _cell_cases() + _file_cases() + _descriptor_cases() + _key_cases() + _accepted_cases()


def params(cases: list[Case], ids: list[str]) -> list:
    """The cases as pytest parameters: the first case of each class runs in every tier, the others (the
    same class on other tables, the class's other values) are marked ``slow`` (``make test`` runs them,
    ``make test-fast`` does not)."""
    import pytest

    seen: set[str] = set()
    out = []
    for case, case_id in zip(cases, ids, strict=True):
        out.append(pytest.param(case, id=case_id, marks=pytest.mark.slow if case.classe in seen else ()))
        seen.add(case.classe)
    return out
