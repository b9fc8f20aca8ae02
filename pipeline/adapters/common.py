"""What every adapter shares: reading a regulator's export, the ingest report, parsing helpers and
writing the source package.

The regulator's exports are ISO-8859-1 (Latin-1), ``;``-separated, with ``DD/MM/YYYY`` dates. They are
converted *into* the data contract's package (UTF-8, comma, ISO dates, ``true``/``false``, the columns
of ``datasets/datapackage.json`` in its order); they never bypass it. Nothing here prints: a file that
cannot be read at all raises :class:`IngestError` (pt-BR message naming the file), everything else is
data in the :class:`IngestReport`.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field, fields
from datetime import date
from functools import lru_cache
from pathlib import Path

import numpy as np
import orjson

from ..contract.identifiers import cnpj_is_valid, mask_cpf_in, normalise_cnpj, slugify
from ..contract.problems import shown
from ..contract.schema import Schema, load_schema
from ..places import resolve
from ..read.columns import numbered, read_columns
from ..read.provenance import LATER_REGIME, REGIME_KEY, REPORT_NAME, SOURCE_DATE
from ..read.source import FIELD_LIMIT, csv_error_pt, swallowed_lines
from ..read.writer import source_cell, write_table

# The 27 federative units. Any other code at the end of a line (``PUERTO SUAREZ(BOL)``) is a country.
UFS = frozenset("AC AL AM AP BA CE DF ES GO MA MG MS MT PA PB PE PI PR RJ RN RO RR RS SC SE SP TO".split())

# Countries reachable by road from Brazil (and so possible ends of an international line, art. 3 X), by
# their ISO 3166-1 alpha-3 code, which the contract publishes in origem_uf/destino_uf.
ISO_COUNTRIES = frozenset("ARG BOL CHL COL ECU GUF GUY PER PRY SUR URY VEN".split())

# Codes and names the exports use for a country that are not ISO 3166-1 alpha-3, mapped to the ISO
# code. The three-letter ones are the sports/colloquial abbreviations (PAR = Paraguai, URU = Uruguai,
# CHI = Chile) that read like ISO codes but are not (ISO's PAR does not exist; CHI is not Chile's).
# Two-letter ISO alpha-2 codes are deliberately absent: PE and PA are Brazilian UFs.
COUNTRY_ALIASES = {
    "PAR": "PRY",
    "PARAGUAI": "PRY",
    "URU": "URY",
    "URUGUAI": "URY",
    "CHI": "CHL",
    "CHILE": "CHL",
    "ARGENTINA": "ARG",
    "BOLIVIA": "BOL",
    "PERU": "PER",
    "VENEZUELA": "VEN",
    "COLOMBIA": "COL",
    "GUIANA": "GUY",
    "GUIANA FRANCESA": "GUF",
    "SURINAME": "SUR",
    "EQUADOR": "ECU",
}

TEST_COMPANY_MARK = "EMPRESA TESTE"
TEST_COMPANY_NOTE = "Empresa de teste presente na exportação da ANTT; mantida e sinalizada."


class IngestError(Exception):
    """The file cannot be read at all (missing, empty, wrong header): nothing was written."""


# --- the report -------------------------------------------------------------------------------


@dataclass
class IngestReport:
    """What an ingest did, as data: the CLI prints it and it is written as ``ingest-report.json``.

    ``lidas`` counts the data rows of the file (blank lines are not rows); each is either kept
    (``mantidas``), dropped as an exact copy of an earlier row (``duplicadas``) or rejected with a
    reason (``rejeitadas``). Conflicts and flagged carriers never drop a row.
    """

    fonte: str
    adaptador: str
    lidas: int = 0
    mantidas: int = 0
    mescladas: int = 0
    duplicadas: int = 0
    rejeitadas: int = 0
    principal: str = ""  # the table with one row per kept row: its published count equals mantidas
    tabelas: dict[str, int] = field(default_factory=dict)
    rejeitadas_detalhe: list[dict] = field(default_factory=list)
    duplicadas_detalhe: list[dict] = field(default_factory=list)
    mescladas_detalhe: list[dict] = field(default_factory=list)
    sinalizadas: list[dict] = field(default_factory=list)
    conflitos: list[dict] = field(default_factory=list)
    codificacao: str = "latin-1"
    data_da_fonte: dict = field(default_factory=dict)  # the data's date and where it came from
    # places of linhas/secoes without an IBGE code (pipeline/places): foreign, or not yet identified
    municipios_nao_resolvidos: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        self._conflict_index: dict[tuple, dict] = {}  # not a field: stays out of to_dict()

    def keep(self, count: int = 1) -> None:
        self.lidas += count
        self.mantidas += count

    def reject(self, line: int, reason: str, raw: list[str]) -> None:
        self.lidas += 1
        self.rejeitadas += 1
        self.rejeitadas_detalhe.append({"linha": line, "motivo": reason, "registro": list(raw)})

    def merge(self, line: int, first_line: int, reason: str) -> None:
        """A valid row that adds nothing to the main table: its record is the one of ``first_line``
        (e.g. a section listed again for another carrier); what else it says is kept elsewhere."""
        self.lidas += 1
        self.mescladas += 1
        self.mescladas_detalhe.append({"linha": line, "mesclada_com_linha": first_line, "motivo": reason})

    def duplicate(self, line: int, first_line: int) -> None:
        self.lidas += 1
        self.duplicadas += 1
        self.duplicadas_detalhe.append({"linha": line, "igual_a_linha": first_line})

    def conflict(
        self, chave: str, valor_chave: str, campo: str, mantido: str, ignorado: str, line: int, first_line: int
    ) -> None:
        """The same key with another value: the first is kept; repeats of one conflict are grouped."""
        index = (chave, valor_chave, campo, ignorado)
        if index in self._conflict_index:
            self._conflict_index[index]["linhas"].append(line)
            return
        entry = {
            "chave": chave,
            "valor_chave": valor_chave,
            "campo": campo,
            "mantido": mantido,
            "mantido_linha": first_line,
            "ignorado": ignorado,
            "linhas": [line],
        }
        self._conflict_index[index] = entry
        self.conflitos.append(entry)

    def check(self) -> None:
        """Every row read is accounted for exactly once."""
        if self.lidas != self.mantidas + self.mescladas + self.duplicadas + self.rejeitadas:
            raise AssertionError(
                f"contagem inconsistente: lidas={self.lidas} != mantidas={self.mantidas} + "
                f"mescladas={self.mescladas} + duplicadas={self.duplicadas} + rejeitadas={self.rejeitadas}"
            )
        if (self.rejeitadas != len(self.rejeitadas_detalhe) or self.duplicadas != len(self.duplicadas_detalhe)
                or self.mescladas != len(self.mescladas_detalhe)):
            raise AssertionError("detalhes de rejeitadas/duplicadas/mescladas não batem com as contagens")
        if self.principal and self.tabelas.get(self.principal) != self.mantidas:
            raise AssertionError(
                f"{self.principal}.csv tem {self.tabelas.get(self.principal)} linhas, mas mantidas={self.mantidas}")

    def rejections_by_reason(self) -> dict[str, int]:
        """Rejections grouped by the kind of reason (the text before the first ``:``)."""
        out: dict[str, int] = {}
        for r in self.rejeitadas_detalhe:
            kind = r["motivo"].split(":", 1)[0]
            out[kind] = out.get(kind, 0) + 1
        return out

    def to_dict(self) -> dict:
        """The report's fields as they are (already JSON's types): no deep copy of the row lists, which
        ``dataclasses.asdict`` made and which was a large share of an ingest's time."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


# --- reading ----------------------------------------------------------------------------------


@dataclass
class Export:
    """An export's rows as dicts keyed by the header, each with its line number in the file."""

    path: Path
    header: list[str]
    encoding: str
    rows: Iterator[tuple[int, list[str]]]
    layout: int = 0  # which of the layouts given to read_export the header is
    text: str = ""  # the whole file, decoded (the column engine splits it when it is plain: columnar.py)


def _utf8_accent(data: bytes) -> bool:
    """Whether ``data`` holds a UTF-8 encoded accented Latin letter (U+00C0-U+00FF: two bytes, C3 80-BF): a
    file that has some and also bytes that are not UTF-8 mixes two encodings. Looked for by numpy after the
    bytes C3 alone, which ``bytes`` finds first (in C)."""
    if b"\xc3" not in data:
        return False
    arr = np.frombuffer(data, dtype=np.uint8)
    after = arr[np.flatnonzero(arr[:-1] == 0xC3) + 1]
    return bool(((after >= 0x80) & (after <= 0xBF)).any())


# What a download that is not the export starts with (a server may answer with a compressed body, an
# error page or the spreadsheet instead of the CSV).
_NOT_CSV = [(b"\x1f\x8b", "um arquivo gzip (compactado)"), (b"PK\x03\x04", "um arquivo zip (ou uma planilha XLSX)"),
            (b"%PDF", "um PDF"), (b"\xd0\xcf\x11\xe0", "uma planilha do Excel antigo (XLS)"),
            (b"BZh", "um arquivo bzip2 (compactado)"), (b"\xfd7zXZ", "um arquivo xz (compactado)")]


def _decode(data: bytes, path: Path) -> tuple[str, str]:
    """The text and the encoding used. The exports are Latin-1; a copy re-saved as UTF-8 (a
    spreadsheet's "CSV UTF-8") is recognised, since Latin-1 accents almost never form valid UTF-8. A
    file that mixes both (one stray Latin-1 byte in a UTF-8 file) or is UTF-16 is refused, naming the
    line: decoding it all as Latin-1 would publish garbled names."""
    for magic, what in _NOT_CSV:
        if data.startswith(magic):
            raise IngestError(f"{path}: o arquivo não é um CSV, é {what}; baixe ou exporte o CSV")
    head = data[:4096]
    if data.startswith((b"\xff\xfe", b"\xfe\xff")) or (len(head) > 1 and head.count(0) * 3 >= len(head)):
        raise IngestError(f"{path}: o arquivo parece estar em UTF-16 (um byte nulo a cada dois); exporte-o em "
                          "Latin-1 ou UTF-8")
    body = data.rstrip(b" \t")
    if body and not body.endswith((b"\n", b"\r")) and b"\n" in body.strip(b"\r\n"):
        # the regulator's exports end every line, the last too: one cut short (a download stopped at a
        # line's middle, a server's Content-Length that lied) is not published as if it were whole
        line = body.count(b"\n") + 1
        raise IngestError(f"{path}, linha {line}: a última linha não termina com quebra de linha: o arquivo pode "
                          "ter chegado cortado (um download interrompido); nenhuma linha foi ingerida, baixe-o de novo")
    if b"\x00" in data:
        line = data[: data.index(b"\x00")].count(b"\n") + 1
        raise IngestError(f"{path}, linha {line}: byte nulo (0x00), que nenhum texto tem: o arquivo está danificado "
                          "ou não é um CSV; exporte-o de novo")
    if data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
        if not data.isascii():
            try:
                return data.decode("utf-8"), "utf-8"
            except UnicodeDecodeError as exc:
                raise _mixed(data, exc, path) from None
        return data.decode("utf-8"), "utf-8"
    if not data.isascii():
        try:
            _utf8_head(data)
            return data.decode("utf-8"), "utf-8"
        except UnicodeDecodeError as exc:
            if _utf8_accent(data):
                raise _mixed(data, exc, path) from None
    return data.decode("latin-1"), "latin-1"


_HEAD = 1 << 16


def _utf8_head(data: bytes) -> None:
    """Raise the decoder's error for the first byte of ``data`` that is not UTF-8 when its first 64 KiB hold it
    (a sequence the piece's end cuts is not one): a Latin-1 export's first accent is almost always there, and
    the whole file then need not be decoded to learn it."""
    try:
        data[:_HEAD].decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.start <= _HEAD - 4 or len(data) <= _HEAD:
            raise


def _mixed(data: bytes, exc: UnicodeDecodeError, path: Path) -> IngestError:
    line = data[: exc.start].count(b"\n") + 1
    return IngestError(
        f"{path}, linha {line}: o byte 0x{data[exc.start:exc.start + 1].hex()} não é UTF-8, mas o arquivo tem "
        "acentos em UTF-8: mistura duas codificações; corrija a linha ou exporte o arquivo de novo numa só"
    )


def _text_of(path: Path) -> tuple[str, str]:
    """The export's text and encoding, or an :class:`IngestError` naming the file."""
    path = Path(path)
    if path.is_dir():
        raise IngestError(f"{path}: é uma pasta; informe o arquivo exportado")
    if not path.is_file():
        raise IngestError(f"{path}: arquivo não encontrado")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise IngestError(f"{path}: não foi possível ler o arquivo ({exc.strerror or exc})") from None
    return _decode(data, path)


def _first_row(reader, path: Path) -> list[str]:
    try:
        header = next(reader, None)
    except csv.Error as exc:
        raise IngestError(f"{path}, linha 1: o cabeçalho não pôde ser lido: {csv_error_pt(str(exc), ';')}") from None
    if header is None or not any(h.strip() for h in header):
        raise IngestError(f"{path}: arquivo vazio, sem a linha de cabeçalho")
    return header


def _reader(text: str):
    csv.field_size_limit(FIELD_LIMIT)  # process-wide, and others change it: the same limit as a source's
    return csv.reader(io.StringIO(text, newline=""), delimiter=";", strict=True)


HEADER_BYTES = 1024 * 1024  # the most of a file read to find its header (a header is a few hundred bytes)


def read_header(path: Path) -> list[str]:
    """The export's header as the adapters compare it (lower case, spaces trimmed), from its first line
    alone, decoded and checked as the whole file is (``_decode``): picking an adapter does not read the
    file twice."""
    path = Path(path)
    if not path.is_file():
        _text_of(path)  # raises read_export's message: a folder, or no such file
    try:
        with open(path, "rb") as fh:
            head = fh.read(HEADER_BYTES)
    except OSError as exc:
        raise IngestError(f"{path}: não foi possível ler o arquivo ({exc.strerror or exc})") from None
    end = head.find(b"\n")
    text, _ = _decode(head[: end + 1] if end >= 0 else head, path)
    return [h.strip().lower() for h in _first_row(_reader(text), path)]


# Text that went through a wrong encoding: the replacement character, or the pairs a UTF-8 accented
# letter becomes when read as Latin-1 (``Ã§`` for ç, ``Ã£`` for ã, ``Ã©`` for é, ``Ãº`` for ú...).
_DAMAGED = re.compile("\ufffd|[\u00c2\u00c3][\u0080-\u00bf]")


def _damage(path: Path, n: int, header: list[str], cells: list[str]) -> IngestError:
    col, value = next(((h, c) for h, c in zip(header, cells) if _DAMAGED.search(c)), ("", ""))
    found = _DAMAGED.search(value)[0] if value else ""
    what = "o caractere de substituição U+FFFD" if found == "\ufffd" else f'"{found}", um acento em UTF-8 lido como Latin-1'
    return IngestError(
        f'{path}, linha {n}, coluna "{col}": "{value[:80]}" tem {what}: o arquivo passou por uma codificação '
        "errada e os acentos se perderam; baixe ou exporte o arquivo original de novo (nada foi gravado)")


def read_export(path: Path, layouts: list[list[str]]) -> Export:
    """Open a ``;``-separated export and check its header against each of ``layouts`` (the columns, in
    this order; case and surrounding spaces ignored): ``Export.layout`` is the index of the one it is.
    Raises :class:`IngestError` when the file cannot be used at all, also while its rows are read: a
    row whose text was damaged by a wrong encoding refuses the whole file."""
    path = Path(path)
    text, encoding = _text_of(path)
    end = text.find("\n")
    try:  # the header from the first line alone: the rows' reader is made only if the rows are read so
        header = _first_row(_reader(text[: end + 1]), path) if end >= 0 else None
    except IngestError:
        header = None
    if header is None:  # no line break, or a header whose quotes span lines: read as the rows are
        header = _first_row(_reader(text), path)
    found = [h.strip().lower() for h in header]
    if found not in layouts:
        expected = min(layouts, key=lambda cols: len(set(cols) ^ set(found)))  # the nearest layout
        missing = [c for c in expected if c not in found]
        extra = [c for c in found if c not in expected]
        detail = []
        if missing:
            detail.append("faltam as colunas " + ", ".join(missing))
        if extra:  # the file's own text: a few columns, quoted with care (it may be any file, a page, a secret)
            detail.append(f"{len(extra)} coluna(s) não esperada(s), a primeira {shown(extra[0]) if extra[0] else '(vazia)'}")
        if not detail:
            detail.append("as colunas estão em outra ordem")
        hint = " (o separador deve ser ';')" if len(header) == 1 and "," in header[0] else ""
        raise IngestError(
            f"{path}: cabeçalho diferente do esperado: {'; '.join(detail)}{hint}. Esperado: {';'.join(expected)}"
        )

    width = len(header)

    def rows() -> Iterator[tuple[int, list[str]]]:
        reader = _reader(text)
        next(reader)  # the header, read above
        last = reader.line_num
        try:
            for cells in reader:
                start, last = last + 1, reader.line_num
                if not any(c.strip() for c in cells):
                    continue
                if swallowed_lines(cells, start, last, width, ";"):
                    raise IngestError(
                        f"{path}, linha {start}: aspas abertas nesta linha só se fecham na linha {last}; as "
                        f"{last - start} linhas entre elas virariam uma só célula. Corrija as aspas e exporte de novo"
                    )
                if _DAMAGED.search(";".join(cells)):
                    raise _damage(path, start, found, cells)
                yield start, cells
        except csv.Error as exc:  # located where the record that could not be read begins
            raise IngestError(f"{path}, linha {last + 1}: o CSV não pôde ser lido a partir desta linha "
                              f"({csv_error_pt(str(exc), ';')})") from None

    return Export(path, found, encoding, rows(), layouts.index(found), text)


# --- parsing helpers: each returns (value, None) or (None, pt-BR reason) -------------------------


@lru_cache(maxsize=65_536)
def fold_code(text: str) -> str:
    """A coded word of the regulator's exports as it is compared with the layouts' codes (``Semi-Urbano`` ->
    ``SEMI-URBANO``, ``Sim`` -> ``SIM``): upper case, accents dropped, runs of spaces collapsed, punctuation
    kept; never for output. Places and carriers are folded by :func:`pipeline.places.fold_name`."""
    text = unicodedata.normalize("NFKD", text or "").encode("ascii", "ignore").decode("ascii")
    return " ".join(text.upper().split())


@lru_cache(maxsize=65_536)  # a carrier's CNPJ repeats on every row of its lines
def parse_cnpj(value: str, column: str = "cnpj") -> tuple[str | None, str | None]:
    digits = normalise_cnpj((value or "").strip())
    if not re.fullmatch(r"\d{14}", digits):
        return None, f'CNPJ ilegível: coluna "{column}" = "{value}" não tem 14 dígitos'
    if not cnpj_is_valid(digits):
        return None, f'CNPJ inválido: coluna "{column}" = "{value}" tem dígitos verificadores errados'
    return digits, None


_DMY = re.compile(r"(\d{1,2})/(\d{1,2})/(\d{4})")


def parse_date_br(value: str, column: str) -> tuple[str | None, str | None]:
    """``DD/MM/YYYY`` -> ``YYYY-MM-DD``; empty stays empty (``""``, not an error)."""
    value = (value or "").strip()
    if not value:
        return "", None
    m = _DMY.fullmatch(value)
    try:
        if not m:
            raise ValueError
        return date(int(m[3]), int(m[2]), int(m[1])).isoformat(), None
    except ValueError:
        return None, f'data inválida: coluna "{column}" = "{value}" não é uma data DD/MM/AAAA'


def _valid(year: int, month: int, day: int) -> bool:
    try:
        date(year, month, day)
    except ValueError:
        return False
    return True


def month_first_only(value: str) -> bool:
    """Whether ``value`` can be read only as ``MM/DD/YYYY`` (``09/22/2026``): a file that has such a date
    writes some of its dates month first."""
    m = _DMY.fullmatch((value or "").strip())
    return bool(m) and not _valid(int(m[3]), int(m[2]), int(m[1])) and _valid(int(m[3]), int(m[1]), int(m[2]))


def parse_date_either(value: str, column: str, mixed: bool) -> tuple[str | None, str | None]:
    """A date of a file reported to write ``MM/DD/YYYY`` in some rows (which ones is not documented).
    ``mixed`` says whether this file's column has a date that can only be month first. When it has not,
    every date is ``DD/MM/YYYY``, as documented. When it has, a date is read in the only order it can be
    read in, and one that reads both ways as two different days is refused, never guessed."""
    value = (value or "").strip()
    m = _DMY.fullmatch(value)
    if not mixed or not m:
        return parse_date_br(value, column)
    first, second, year = int(m[1]), int(m[2]), int(m[3])
    day_first, month_first = _valid(year, second, first), _valid(year, first, second)
    if day_first and month_first and first != second:
        return None, (f'data ambígua: coluna "{column}" = "{value}" pode ser DD/MM/AAAA ou MM/DD/AAAA, e este '
                      "arquivo traz as duas ordens (a fonte não documenta qual linha usa qual)")
    if day_first:
        return date(year, second, first).isoformat(), None
    if month_first:
        return date(year, first, second).isoformat(), None
    return parse_date_br(value, column)


def parse_place_code(code: str) -> str | None:
    """A UF, or a country as its ISO 3166-1 alpha-3 code; None when it is neither."""
    code = fold_code(code)
    if code in UFS or code in ISO_COUNTRIES:
        return code
    return COUNTRY_ALIASES.get(code)


# How SIGMA and Monitriip write one place: "Município - UF", "MUNICÍPIO(UF)" or "UF/Município".
_PLACE_FORMS = {"Município - UF": re.compile(r"(?P<municipio>.+?)\s+-\s+(?P<uf>[A-Za-z]{2,3})"),
                "MUNICÍPIO(UF)": re.compile(r"(?P<municipio>.+?)\s*\((?P<uf>[A-Za-z]{2,3})\)"),
                "UF/Município": re.compile(r"(?P<uf>[A-Za-z]{2,3})\s*/\s*(?P<municipio>.+)")}


def parse_place(value: str, forms: tuple[str, ...] = tuple(_PLACE_FORMS)) -> tuple[str, str] | None:
    """``(municipality, UF or country)`` of a place written in one of ``forms``; None when it is not."""
    text = " ".join((value or "").split())
    for form in forms:
        m = _PLACE_FORMS[form].fullmatch(text)
        if m and (uf := parse_place_code(m["uf"])):
            return m["municipio"].strip(), uf
    return None


def is_country(code: str) -> bool:
    return code not in UFS


_PAREN_FORM = re.compile(r"(?P<om>.+?)\s*\((?P<ou>[^()]+)\)\s*-\s*(?P<dm>.+?)\s*\((?P<du>[^()]+)\)")
_SLASH_FORM = re.compile(r"(?P<ou>[A-Za-z]{2,3})\s*/\s*(?P<om>.+?)\s+-\s+(?P<du>[A-Za-z]{2,3})\s*/\s*(?P<dm>.+)")


@dataclass(frozen=True)
class Ends:
    """A line's (or section's) terminals, as written in the source (trimmed)."""

    origem_municipio: str
    origem_uf: str
    destino_municipio: str
    destino_uf: str
    via: str = ""  # the tail that names the route: "Via João Monlevade (MG)" (linhas.via)

    @property
    def international(self) -> bool:
        return is_country(self.origem_uf) or is_country(self.destino_uf)


# The tail some SIGMA descriptions carry after the destination, naming the route:
# "ES/Guarapari - MG/Belo Horizonte - Via João Monlevade (MG)".
_VIA_TAIL = re.compile(r"\s+-\s+(?P<via>via\s.+)", re.I)


@lru_cache(maxsize=65_536)  # a line's description repeats on every row of the line
def parse_description(value: str, column: str = "descricao_linha") -> tuple[Ends | None, str | None]:
    """``CIDADE(UF) - CIDADE(UF)`` or ``UF/Cidade - UF/Cidade``, with an optional tail ``- Via …`` -> the
    two ends and the tail (``Ends.via``).

    Municipality names stay as written (trimmed); the codes become a UF or an ISO alpha-3 country. Any
    other third part (``- Outra Coisa``) is ambiguous and refused: it would be read into the name of the
    destination municipality.
    """
    text = " ".join((value or "").split())
    via = ""
    tail = _SLASH_FORM.fullmatch(text) and _VIA_TAIL.search(text)
    if tail:
        text, via = text[: tail.start()], tail["via"]
    m = _PAREN_FORM.fullmatch(text) or _SLASH_FORM.fullmatch(text)
    bad = f'descrição ilegível: coluna "{column}" = "{value}" não está no formato CIDADE(UF) - CIDADE(UF) nem UF/Cidade - UF/Cidade'
    if not m:
        return None, bad
    om, dm = m["om"].strip(), m["dm"].strip()
    if not om or not dm or re.search(r"\)\s*-\s", om + " " + dm) or re.search(r"/.*\s-\s", dm) \
            or (m.re is _SLASH_FORM and re.search(r"\s-\s", dm)):
        return None, bad  # three ends or more, or a tail that is not "- Via …": ambiguous
    ou, du = parse_place_code(m["ou"]), parse_place_code(m["du"])
    for raw, code in ((m["ou"], ou), (m["du"], du)):
        if code is None:
            return None, (
                f'descrição ilegível: coluna "{column}" = "{value}": "{raw.strip()}" não é uma UF nem um país conhecido'
            )
    return Ends(om, ou, dm, du, via), None


# --- the checks every export row passes first --------------------------------------------------


@dataclass
class RowStart:
    """What the first checks of an export row found: the row by column, its normalised CNPJ and
    prefix, the line's ends, and the first reason to reject it (``None`` when there is none yet)."""

    row: dict[str, str]
    cnpj: str
    prefixo: str
    ends: Ends | None
    why: str | None


class RowChecker:
    """Exact duplicates and wrong widths are reported here and give ``None``; otherwise the CNPJ, the
    razão social, the prefix (the schema's pattern) and the description are read, in that order."""

    def __init__(self, report: IngestReport, header: list[str], schema: Schema, lines: bool = True,
                 carrier: bool = True):
        # lines: each row names a line (prefixo, descricao_linha); carrier: each row names a carrier (cnpj, razão)
        self.report, self.header, self.lines, self.carrier = report, header, lines, carrier
        self.prefix_re = re.compile(schema["linhas"].field("prefixo")["constraints"]["pattern"])
        self.seen: dict[tuple, int] = {}  # exact row -> its first line

    def start(self, n: int, raw: list[str]) -> RowStart | None:
        key = tuple(" ".join(c.split()) for c in raw)  # rows that differ only in spaces are the same row
        if key in self.seen:
            self.report.duplicate(n, self.seen[key])
            return None
        self.seen[key] = n
        if len(raw) != len(self.header):
            self.report.reject(
                n, f"número de colunas: a linha tem {len(raw)} colunas; o cabeçalho tem {len(self.header)}", raw
            )
            return None
        row = dict(zip(self.header, raw))
        if not self.carrier:
            return RowStart(row, "", "", None, None)
        cnpj, why = parse_cnpj(row["cnpj"])
        if why is None and not row["razao_social"].strip():
            why = 'razão social ausente: coluna "razao_social" vazia'
        if not self.lines:
            return RowStart(row, cnpj, "", None, why)
        prefixo = row["prefixo"].strip()
        if why is None and not self.prefix_re.fullmatch(prefixo):
            why = f'prefixo ilegível: coluna "prefixo" = "{row["prefixo"]}" não é NN-NNNN-NN nem AAAA0000000'
        ends = None
        if why is None:
            ends, why = parse_description(row["descricao_linha"])
        return RowStart(row, cnpj, prefixo, ends, why)


# --- writing ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class SourceOptions:
    """What the user says of an export that the file does not say itself (``ingest`` options)."""

    url: str = ""  # --fonte-url: where the export was downloaded
    data: str = ""  # --data-referencia: date of the data or of the extraction (AAAA, AAAA-MM, AAAA-MM-DD)
    licenca: str = ""  # --licenca


ANTT = "ANTT — Agência Nacional de Transportes Terrestres"
ANTT_OPEN_DATA = "https://dados.antt.gov.br/"
# Open government data of the federal executive (Decreto nº 8.777/2016, the open-data policy).
OPEN_DATA_LICENCE = "Dados abertos governamentais (Decreto nº 8.777/2016)"
_YEAR_IN_NAME = re.compile(r"(?<!\d)(19\d{2}|20\d{2})(?!\d)")


class OptionError(IngestError):
    """An ingest option is malformed."""


def source_entry(title: str, path: Path, options: SourceOptions, report: IngestReport) -> dict:
    """The ``sources`` entry of an ingested folder (data contract, "Coverage and provenance").

    The regulator's exports carry no date of extraction: the date is ``--data-referencia`` when
    given, else the one year in the file's name (``quadro-de-horarios-2021.csv``), else unknown; the
    report says which.
    """
    date, how = options.data.strip(), "informada com --data-referencia"
    if date and not SOURCE_DATE.match(date):
        raise OptionError(f'--data-referencia "{date}" não é AAAA, AAAA-MM nor AAAA-MM-DD'.replace(" nor ", " nem "))
    if options.url and not options.url.startswith(("http://", "https://")):
        raise OptionError(f'--fonte-url "{options.url}" deve começar com http:// ou https://')
    if not date:
        years = sorted(set(_YEAR_IN_NAME.findall(Path(path).name)))
        date, how = (years[0], "ano tirado do nome do arquivo") if len(years) == 1 else ("", "não informada")
    report.data_da_fonte = {"data": date, "origem": how}
    full_title = f"{title} {date[:4]}" if date else title
    return {
        "name": slugify(f"antt-{full_title}"),
        "title": full_title,
        "publisher": ANTT,
        "path": options.url or ANTT_OPEN_DATA,
        "date": date,
        "license": options.licenca or OPEN_DATA_LICENCE,
        "fictional": False,
        # ANTT's exports, the 2021 timetable as much as today's layouts, are records of the regime that
        # replaced Decreto nº 952/1993: no rule of the decree applies to them
        REGIME_KEY: LATER_REGIME,
        "x-arquivo": Path(path).name,
    }


def write_package(out: Path, tables: dict[str, list[dict]], schema: Schema, source: dict) -> dict[str, int]:
    """Write each table as the contract's CSV (every field of the schema, in its order; missing
    values empty) plus the project's ``datapackage.json`` with this folder's ``sources``. Returns rows
    written per table."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    counts = {}
    for name, rows in tables.items():
        table = schema[name]
        counts[name] = write_table(out / table.filename, table.field_names, rows)
    write_descriptor(out, schema, source)
    return counts


def write_descriptor(out: Path, schema: Schema, source: dict) -> None:
    """The project's ``datapackage.json`` with this folder's ``sources``."""
    descriptor = dict(schema.descriptor, sources=[source])
    # orjson writes what json.dumps(ensure_ascii=False, indent=2) writes, as for the report (write_report)
    (Path(out) / "datapackage.json").write_bytes(orjson.dumps(descriptor, option=orjson.OPT_INDENT_2) + b"\n")


def write_report(out: Path, report: IngestReport) -> Path:
    """``ingest-report.json``, every CPF in any shape masked (LGPD): a rejected row's reason, a conflict's
    losing value, a flagged row's text quote the file, and the report is kept and published."""
    target = Path(out) / REPORT_NAME
    # orjson writes what json.dumps(ensure_ascii=False, indent=2) writes, some 20 times faster (a national
    # file's report holds tens of thousands of conflicts); tests/test_ingest_columns.py compares the two
    target.write_bytes(orjson.dumps(mask_cpf_in(report.to_dict()), option=orjson.OPT_INDENT_2) + b"\n")
    return target


def unresolved_places(package: Path, schema: Schema | None = None, tables: dict | None = None) -> list[dict]:
    """The places the package's lines and sections name that stay without an IBGE code, with why: each
    distinct pair of name and UF resolved once, in the order the rows first name it (origin, then
    destination), the first reason kept for a place two spellings name. ``tables``: the package's tables as
    an adapter holds them before writing them (``{name: rows}`` or ``{name: (columns, count)}``), read
    instead of its files."""
    schema = schema or load_schema()
    found: dict[tuple[str, str], dict] = {}
    met: dict[tuple[str, str], None] = {}  # every pair of the package, in the order the rows first name it
    for name in ("linhas", "secoes"):
        for column in _place_columns(package, schema, name, tables):
            firsts = []  # (row, origin 0 / destination 1, the pair's texts): each pair at its first row
            for side, which in enumerate(("origem", "destino")):
                names, names_text = column(f"{which}_municipio")
                ufs, ufs_text = column(f"{which}_uf")
                width = max(len(ufs_text), 1)
                distinct, first = np.unique(names * width + ufs, return_index=True)
                firsts += [(r, side, (names_text[d // width], ufs_text[d % width]))
                           for d, r in zip(distinct.tolist(), first.tolist())]
            for _, _, texts in sorted(firsts, key=lambda f: (f[0], f[1])):
                met.setdefault(texts)
    for municipio, uf in met:
        place = resolve(municipio, uf)
        if place.codigo_ibge is None:
            found.setdefault((place.uf, place.nome), {"municipio": place.nome, "uf": place.uf, "motivo": place.motivo})
    return [found[k] for k in sorted(found)]


def _place_columns(package: Path, schema: Schema, name: str, tables: dict | None):
    """Table ``name``'s rows, a batch at a time, as a function of a column's name giving each row's number
    among the column's texts (as written: ``source_cell``) and those texts: from ``tables`` when given, else
    from the package's file."""
    if tables is not None:
        table = tables.get(name)
        if table is None:
            return
        def column(field: str) -> tuple[np.ndarray, np.ndarray]:
            codes, values = numbered(table[0][field] if isinstance(table, tuple) else
                                     np.fromiter((row.get(field) for row in table), dtype=object, count=len(table)))
            as_written, texts = numbered(np.fromiter(
                (source_cell(None if v is None or v != v else v) for v in values), dtype=object, count=len(values)))
            return as_written[codes], texts
        yield column
        return
    path = package / schema[name].filename
    if not path.is_file():
        return
    for rows, _, _ in read_columns(schema[name], path, path.name, 1 << 20):
        yield rows.column
