"""The adapters' column engine (pipeline/adapters/columnar.py): SIGMA's sections, paralysed services, line
history and itineraries, read by Arrow when the file is plain and by the csv module otherwise, give the same package and the
same report either way, and say of each row what the row loop said."""

from __future__ import annotations

import csv
import json
import random
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from conftest import FIXTURES
from hypothesis import example, given, settings
from hypothesis import strategies as st

from pipeline.adapters import IngestError, columnar, ingest
from pipeline.adapters.antt_historico import History
from pipeline.adapters.antt_linhas_secoes import LinesAndSections
from pipeline.adapters.antt_paralisados import Paralysed
from pipeline.adapters.antt_pontos import Stops
from pipeline.adapters.columnar import read_frame
from pipeline.adapters.common import _DAMAGED, unresolved_places
from pipeline.read.writer import write_columns, write_table

ANTT = FIXTURES / "antt"
FILES = {"antt-linhas-secoes": ("linhas-secoes-sigma.csv", LinesAndSections),
         "antt-servicos-paralisados": ("paralisados-sigma.csv", Paralysed),
         "antt-historico-linhas": ("historico-sigma.csv", History),
         "antt-pontos-esquema-operacional": ("pontos-sigma.csv", Stops)}


def _rows(name: str) -> tuple[list[str], list[list[str]]]:
    with open(ANTT / name, encoding="latin-1", newline="") as fh:
        header, *rows = list(csv.reader(fh, delimiter=";"))
    return header, rows


def _hostile(header: list[str], rows: list[list[str]], seed: int) -> list[list[str]]:
    """The fixture's rows, many times, with repeats (some with other spaces), broken cells, blank rows and rows
    that say otherwise of a key an earlier row set."""
    rng = random.Random(seed)
    at = {c: i for i, c in enumerate(header)}
    out = [r[:] for r in rows * 6]
    broken = {"cnpj": ["12.345.678/0001-00", "123"], "razao_social": ["", "EMPRESA TESTE DA ANTT"],
              "prefixo": ["XX"], "descricao_linha": ["Goiania - Palmas", "GO/Goiânia - SP/São Paulo - Outra"],
              "ambito_linha": ["ESTADUAL", "Semi-Urbano"], "uf_origem": ["XX"], "municipio_destino": [""],
              "extensao_secao": ["abc", "1.109,6"], "outorga_secao": ["OUTRA", "Autorização Judicial"],
              "data_paralisacao": ["", "31/02/2026", "05/06/2026"], "data_atualizacao": ["", "05/06/2026"],
              "protocolo_historico": [""], "tipo_servico": [" Leito "], "situacao_servico": ["Inativo"],
              "sequencia_ponto_linha": ["0", "x"], "nome_ponto_parada": ["TERMINAL"], "municipio_uf": ["Goiânia"],
              "lanche": ["Talvez"], "tipo_veiculo": [""]}
    for column, values in broken.items():
        if column in at:
            for value in values:
                out[rng.randrange(len(out))][at[column]] = value
    for _ in range(8):
        copy = out[rng.randrange(len(out))][:]
        if rng.random() < .5:
            copy[1] = "  " + copy[1].replace(" ", "   ") + " "
        out.insert(rng.randrange(len(out)), copy)
    for _ in range(6):
        other = out[rng.randrange(len(out))][:]
        for column in ("razao_social", "descricao_linha", "tipo_servico", "outorga_secao", "situacao_servico"):
            if column in at and rng.random() < .5:
                other[at[column]] = out[rng.randrange(len(out))][at[column]]
        out.insert(rng.randrange(len(out)), other)
    for column in ("municipio_origem", "municipio_destino"):  # places no list knows, one with a comma
        if column in at:
            for value in ("Vila Nova, do Sul", "Povoado Inexistente"):
                out[rng.randrange(len(out))][at[column]] = value
    out.insert(rng.randrange(len(out)), [""] * len(header))
    return out


def _write(path: Path, header: list[str], rows: list[list[str]], quote: bool) -> Path:
    def cell(text: str) -> str:
        return '"' + text.replace('"', '""') + '"' if quote else text
    path.write_bytes(("\r\n".join(";".join(cell(c) for c in r) for r in [header, *rows]) + "\r\n").encode("latin-1"))
    return path


def _package(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("adapter", FILES)
@pytest.mark.parametrize("seed", [1, 2])
def test_arrow_and_the_csv_module_give_the_same_package_and_report(adapter, seed, tmp_path, monkeypatch):
    name, cls = FILES[adapter]
    header, rows = _rows(name)
    rows = _hostile(header, rows, seed)
    (tmp_path / "plain").mkdir()
    (tmp_path / "quoted").mkdir()
    plain = _write(tmp_path / "plain" / "export.csv", header, rows, quote=False)
    quoted = _write(tmp_path / "quoted" / "export.csv", header, rows, quote=True)
    # both files are split by Arrow (their csv reader left unread), every cell of the second wrapped in quotes
    split, split_quoted = read_frame(plain, cls.LAYOUTS), read_frame(quoted, cls.LAYOUTS)
    assert next(split.export.rows, None) is not None and next(split_quoted.export.rows, None) is not None
    with monkeypatch.context() as patched:  # the same quoted file read by the csv module
        patched.setattr(columnar, "plain_lines", lambda *args, **kwargs: False)
        read = read_frame(quoted, cls.LAYOUTS)
        assert next(read.export.rows, None) is None
        ingest(adapter, quoted, tmp_path / "c")
    assert read.rows.row_numbers.tolist() == split.rows.row_numbers.tolist() == split_quoted.rows.row_numbers.tolist()
    a = ingest(adapter, plain, tmp_path / "a")
    ingest(adapter, quoted, tmp_path / "b")
    assert _package(tmp_path / "a") == _package(tmp_path / "b") == _package(tmp_path / "c")
    assert a.lidas == len(rows) - 1  # the blank row is no row
    assert a.duplicadas >= 8 and a.rejeitadas >= 5 and a.mantidas > 0
    assert a.lidas == a.mantidas + a.mescladas + a.duplicadas + a.rejeitadas
    # what a reader of the report sees, row by row: each repeat names the earlier line it repeats
    cells = {n: [" ".join(c.split()) for c in r] for n, r in enumerate([header, *rows], start=1)}
    for d in a.duplicadas_detalhe:
        assert cells[d["linha"]] == cells[d["igual_a_linha"]] and d["igual_a_linha"] < d["linha"]
    cnpj_lines = [r["linha"] for r in a.rejeitadas_detalhe if r["motivo"].startswith("CNPJ")]
    assert cnpj_lines and all(cells[line][0] in ("12.345.678/0001-00", "123") for line in cnpj_lines)
    assert [r["linha"] for r in a.rejeitadas_detalhe] == sorted(r["linha"] for r in a.rejeitadas_detalhe)
    # the places without an IBGE code, found in the tables before they are written: those of the package
    assert a.municipios_nao_resolvidos == unresolved_places(tmp_path / "a")
    if adapter == "antt-linhas-secoes":  # its sections' ends are in secoes
        assert {"Povoado Inexistente", "Vila Nova, do Sul"} & {m["municipio"] for m in a.municipios_nao_resolvidos}


@pytest.mark.parametrize("cell, read_by", [
    ('"GO/Goiânia - TO/Palmas"', "arrow"),  # a cell wrapped whole in quotes
    ('""', "arrow"),  # an empty cell in quotes
    ('"GO/Goiânia - TO/""Palmas"""', "csv"),  # a doubled quote
    ('GO/Goiânia - TO/"Palmas"', "csv"),  # quotes inside a cell
    ('"GO/Goiânia; TO/Palmas"', "csv"),  # the delimiter inside quotes
    ('"GO/Goiânia" - TO/Palmas', "linha 3: o CSV não pôde ser lido a partir desta linha (aspas fechadas seguidas "
                                 "de outro caractere que não o ponto e vírgula; duplique as aspas dentro do texto)"),
    ('"GO/Goiânia\r\nTO/Palmas"', "csv"),  # a line break inside quotes
    ('"GO/Goiânia - TO/Palmas', "linha 3: o CSV não pôde ser lido a partir desta linha (aspas fechadas "
                                "seguidas de outro caractere que não o ponto e vírgula"),  # a quote never closed
])
def test_a_file_whose_quotes_do_not_wrap_whole_cells_is_read_by_the_csv_module(cell, read_by, tmp_path):
    """The regulator quotes every cell of some files: such a file is split by Arrow. Any other quote goes to
    the csv module: the cells read are the csv module's, or the file is refused at the line it says."""
    header, rows = _rows("linhas-secoes-sigma.csv")
    at = header.index("descricao_linha")
    lines = [";".join(f'"{c}"' for c in r) for r in rows]
    lines[1] = ";".join(f'"{c}"' if i != at else cell for i, c in enumerate(rows[1]))
    path = tmp_path / "export.csv"
    path.write_bytes(("\r\n".join([";".join(header), *lines]) + "\r\n").encode("latin-1"))
    if read_by not in ("arrow", "csv"):
        with pytest.raises(IngestError) as refused:
            read_frame(path, LinesAndSections.LAYOUTS)
        assert str(refused.value).startswith(f"{path}, {read_by}")
        return
    frame = read_frame(path, LinesAndSections.LAYOUTS)
    assert (next(frame.export.rows, None) is not None) == (read_by == "arrow")
    with open(path, encoding="latin-1", newline="") as fh:
        expected = list(csv.reader(fh, delimiter=";"))[1:]
    assert [frame.raw(p) for p in range(len(frame.rows))] == expected
    assert frame.raw(1)[at] == next(csv.reader([cell], delimiter=";"))[0]


@pytest.mark.parametrize("damage", ["SÃ£o Paulo", "S\ufffdo Paulo", "CONCEIÃ\u0087ÃƒO", "ÂºA"])
def test_a_plain_file_with_damaged_text_is_refused_at_its_line_and_column(damage, tmp_path):
    header, rows = _rows("paralisados-sigma.csv")
    at = {c: i for i, c in enumerate(header)}
    rows[2][at["municipio_destino"]] = damage
    path = tmp_path / "export.csv"
    path.write_bytes(("\r\n".join(";".join(r) for r in [header, *rows]) + "\r\n").encode("utf-8"))
    with pytest.raises(IngestError) as refused:
        ingest("antt-servicos-paralisados", path, tmp_path / "out")
    assert f'{path}, linha 4, coluna "municipio_destino": "{damage}"' in str(refused.value)
    assert not (tmp_path / "out").exists()


def test_a_row_of_another_width_is_rejected_and_its_repeat_is_a_repeat(tmp_path):
    header, rows = _rows("paralisados-sigma.csv")
    short = rows[0][:-1]
    path = _write(tmp_path / "export.csv", header, [*rows, short, short], quote=True)
    report = ingest("antt-servicos-paralisados", path, tmp_path / "out")
    last = len(rows) + 2
    assert {"linha": last + 1, "igual_a_linha": last} in report.duplicadas_detalhe
    [width] = [r for r in report.rejeitadas_detalhe if r["linha"] == last]
    assert width["motivo"] == f"número de colunas: a linha tem {len(header) - 1} colunas; o cabeçalho tem {len(header)}"
    assert width["registro"] == short


def test_a_conflict_names_both_lines_and_keeps_the_first_value(tmp_path):
    header, rows = _rows("historico-sigma.csv")
    at = {c: i for i, c in enumerate(header)}
    other = rows[1][:]  # 20/03/2025: one reading only, in a file that mixes both orders
    other[at["decricao_historico"]] = "Outra descrição do mesmo registro"
    path = _write(tmp_path / "export.csv", header, [*rows, other], quote=False)
    report = ingest("antt-historico-linhas", path, tmp_path / "out")
    [conflict] = [c for c in report.conflitos if c["campo"] == "descricao"]
    assert conflict["mantido"] == " ".join(rows[1][at["decricao_historico"]].split())
    assert conflict["ignorado"] == "Outra descrição do mesmo registro"
    assert (conflict["mantido_linha"], conflict["linhas"]) == (3, [len(rows) + 2])
    assert {"linha": len(rows) + 2, "mesclada_com_linha": 3,
            "motivo": "o mesmo registro (linha, protocolo, data) já foi lido"} in report.mescladas_detalhe
    published = json.loads((tmp_path / "out" / "ingest-report.json").read_text(encoding="utf-8"))
    assert published["conflitos"] == report.conflitos


_CELLS = st.one_of(st.none(), st.booleans(), st.text(alphabet=st.sampled_from(list('ab ,"\n\r;=é')), max_size=6))


@settings(max_examples=60, deadline=None)
@given(cells=st.lists(st.text(alphabet=st.sampled_from("aSÃÂ\u00c4\u0080\u00a7\u00bf\u00c0\ufffd1 "), max_size=4),
                      min_size=1, max_size=6))
def test_the_column_engine_refuses_damaged_text_where_the_csv_reader_does(cells, tmp_path_factory):
    """Cells of accents, their damaged forms and the replacement character, in a plain file: Arrow's split
    refuses the file exactly when the csv reader would, naming the first damaged row's line and column."""
    header, rows = _rows("paralisados-sigma.csv")
    at = header.index("municipio_destino")
    for k, cell in enumerate(cells):
        rows[k][at] = cell
    path = tmp_path_factory.mktemp("d") / "export.csv"
    path.write_bytes(("\r\n".join(";".join(r) for r in [header, *rows]) + "\r\n").encode("utf-8"))
    bad = [k for k, cell in enumerate(cells) if _DAMAGED.search(cell)]
    if not bad:
        assert [r[at] for r in (read_frame(path, Paralysed.LAYOUTS).raw(p) for p in range(len(cells)))] == cells
        return
    with pytest.raises(IngestError) as refused:
        read_frame(path, Paralysed.LAYOUTS)
    assert f'{path}, linha {bad[0] + 2}, coluna "municipio_destino": "{cells[bad[0]]}"' in str(refused.value)


@settings(max_examples=150, deadline=None)
@given(rows=st.lists(st.lists(_CELLS, min_size=3, max_size=3), max_size=8), left_out=st.sets(st.sampled_from("xyz")))
def test_write_columns_writes_what_write_table_writes(rows, left_out, tmp_path_factory):
    fields = ["x", "y", "z"]
    folder = tmp_path_factory.mktemp("w")
    records = [{f: v for f, v in zip(fields, r) if f not in left_out} for r in rows]
    write_table(folder / "rows.csv", fields, records)
    columns = {}
    for i, f in enumerate(fields):
        if f not in left_out:
            column = np.empty(len(rows), dtype=object)
            for k, r in enumerate(rows):
                column[k] = r[i]
            columns[f] = column
    write_columns(folder / "columns.csv", fields, columns, len(rows))
    assert (folder / "columns.csv").read_bytes() == (folder / "rows.csv").read_bytes()


# --- the ingest report: written by orjson, the bytes json.dumps wrote, every CPF masked -------------------

_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30) | st.sampled_from(
    ["529.982.247-25", "CPF 52998224725 ", "５２９９８２２４７２５", "12.345.678/0001-95", "\x00\x1f\u2028\"\\"])
_JSON = st.recursive(st.none() | st.booleans() | st.integers(-10 ** 12, 10 ** 12) | _TEXT,
                     lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=20)


def _masked_slowly(value):
    """The definition: mask_cpf over every text, keys included."""
    from pipeline.contract.identifiers import mask_cpf

    if isinstance(value, str):
        return mask_cpf(value)
    if isinstance(value, dict):
        return {_masked_slowly(k): _masked_slowly(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_masked_slowly(v) for v in value]
    return value


@settings(max_examples=300, deadline=None)
@given(_JSON)
def test_the_report_is_written_as_json_dumps_wrote_it_with_every_cpf_masked(value):
    import orjson

    from pipeline.contract.identifiers import mask_cpf_in

    masked = mask_cpf_in(value)
    assert masked == _masked_slowly(value)
    assert orjson.dumps(masked, option=orjson.OPT_INDENT_2) == json.dumps(masked, ensure_ascii=False, indent=2).encode()


def test_a_hostile_report_holds_no_cpf_and_reads_as_before(tmp_path):
    from pipeline.adapters.common import REPORT_NAME
    from pipeline.contract.identifiers import has_any_cpf

    path = tmp_path / "secoes.csv"
    header, row = (FIXTURES / "antt" / "linhas-secoes-sigma.csv").read_text(encoding="latin-1").splitlines()[:2]
    cells = row.split(";")
    bad = [";".join(c if k else "529.982.247-25" for k, c in enumerate(cells)), row]
    path.write_text("\n".join([header, *bad]) + "\n", encoding="latin-1")
    ingest("antt-linhas-secoes", path, tmp_path / "out")
    text = (tmp_path / "out" / REPORT_NAME).read_text(encoding="utf-8")
    assert not has_any_cpf(text) and "***.***.***-**" in text
    assert text == json.dumps(json.loads(text), ensure_ascii=False, indent=2) + "\n"


@settings(max_examples=150, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=5), st.sampled_from(["São Paulo", "SAO PAULO", "Sao Paulo", "Ímola",
                                                                 "\U0001f68c", "ÿ", "z", ""])), max_size=12),
       st.booleans())
def test_rows_are_ranked_as_python_sorts_their_values(values, numbered_column):
    """``columnar.ranked``, which orders texts by Arrow (their UTF-8 bytes), gives each row the rank Python's
    ``sorted`` gives its value among the distinct values, accents, astral characters and the empty text
    included; as do other values (numbers), which Python sorts."""
    from pipeline.adapters.columnar import Numbered, ranked

    for column in (values, [float(len(v)) for v in values]):
        array = columnar.objects(column)
        if numbered_column and column is values:
            codes, texts = pd.factorize(array)
            array = Numbered(codes, texts)
        order = sorted(set(column))
        assert ranked(array).tolist() == [order.index(v) for v in column]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.binary(max_size=6), max_size=10), st.integers(0, 3))
def test_cells_of_latin_1_bytes_are_decoded_as_python_decodes_them(cells, skip):
    """``columnar.decoded``, which makes Latin-1 cells UTF-8 in numpy for Arrow, gives the texts
    ``bytes.decode("latin-1")`` gives, every byte value and an empty cell included, also for a slice of
    the cells (an array that starts inside its buffers)."""
    import pyarrow as pa

    from pipeline.adapters.columnar import decoded

    array = pa.array(cells, pa.binary())
    assert decoded(array, "latin-1") == [c.decode("latin-1") for c in cells]
    part = array.slice(min(skip, len(cells)))
    assert decoded(part, "latin-1") == [c.decode("latin-1") for c in cells[min(skip, len(cells)):]]
    texts = [c.decode("latin-1") for c in cells]
    assert decoded(pa.array([t.encode("utf-8") for t in texts], pa.binary()), "utf-8") == texts


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=12) | st.lists(st.sampled_from([b"\xc3", b"\x80", b"\xbf", b"\xc0", b"\x7f", b"a"]),
                                         max_size=8).map(b"".join))
def test_a_utf_8_accent_is_found_where_the_pattern_finds_it(data):
    """``common._utf8_accent`` (numpy after each C3 byte) finds a UTF-8 accented letter where the pattern
    C3 80-BF does: the test of a file that mixes Latin-1 and UTF-8."""
    import re

    from pipeline.adapters.common import _utf8_accent

    assert _utf8_accent(data) == bool(re.search(rb"\xc3[\x80-\xbf]", data))


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 64) | st.integers((1 << 16) - 12, (1 << 16) + 2), st.sampled_from(["é".encode(), "€".encode(), "😀".encode(),
                                                       b"\xe9", b"\xc3", b"\xf0\x9f"]), st.booleans())
def test_the_encoding_is_told_as_decoding_the_whole_file_tells_it(at, inserted, accent):
    """``common._decode`` looks for a byte that is not UTF-8 in the first 64 KiB before decoding the whole file:
    a file with a UTF-8 sequence or a Latin-1 byte anywhere, across that piece's end too, is read as UTF-8,
    as Latin-1 or refused (two encodings) as decoding it whole says."""
    from pipeline.adapters.common import IngestError, _decode

    data = b"a;b\n" + b"x" * at + inserted + b"\n" + ("ã".encode() if accent else b"") + b"\n"
    try:
        whole = data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        whole = None if accent else (data.decode("latin-1"), "latin-1")
    if whole is None:
        with pytest.raises(IngestError, match="mistura duas codificações"):
            _decode(data, Path("x.csv"))
    else:
        assert _decode(data, Path("x.csv")) == whole


@settings(max_examples=300, deadline=None)
@given(st.lists(st.text(st.sampled_from(["a", "b", " ", "\t", "\x1f", "\xa0", "\u2028", "é", "\n"]), max_size=5),
                max_size=6))
@example(["a ", "b"])
@example(["a", " b"])
@example(["a", "b "])
@example([" a"])
@example(["a  b"])
@example(["a\x1fb"])
def test_texts_are_folded_as_split_and_join_fold_each(texts):
    """``columnar.fold_all``, which looks at the texts together to learn that folding changes none of them, gives
    each text's ``" ".join(text.split())``: ASCII and Unicode spaces, at either end, in runs, or none."""
    from pipeline.adapters.columnar import fold_all

    assert fold_all(texts) == [" ".join(t.split()) for t in texts]
