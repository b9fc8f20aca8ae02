"""Each table as an XLSX workbook (Office Open XML SpreadsheetML, ECMA-376), made for a pt-BR Excel
user and written directly.

Why not a library: on the national infractions the pure-Python writers (openpyxl, xlsxwriter in constant
memory, pyexcelerate) were several times slower than this module, and the one fast library (a binding of
the Rust writer) stamps each file with the clock and is young. A workbook of values is a small fixed set
of XML parts; this module writes them column-wise: each column's cells are turned into XML once per
distinct value, the rows are joined from those pieces, and the sheet is deflated in chunks. A reader sees
what xlsxwriter gives:

- text stays text: an inline string (``t="inlineStr"``), which a spreadsheet never evaluates, so text
  that begins like a formula (``=``, ``+``, ``-``, ``@``) is written as it is, with no apostrophe (the
  CSV, which a spreadsheet does evaluate, neutralises it); control characters and the carriage return
  are written as OOXML escapes (``_x000D_``), as Excel writes them;
- dates, date-times and the timetable's times are real dates and times (serial numbers with the
  formats dd/mm/aaaa and hh:mm; a date-time shows the one spelling of every download, ISO 8601 without
  an offset, ``2026-03-02T14:30:00``: the source's wall clock, as it is); money is
  a number in the R$ format; numbers are numbers; booleans are booleans;
- the header row holds each column's pt-BR title with its machine name in brackets, in bold, frozen,
  with an autofilter; columns have widths from their title and first values;
- each coded column (an enum with labels) is followed by a column of its labels;
- the data sheet comes first (what pandas, LibreOffice and DuckDB read when no sheet is named), then
  ``Leia-me``, which states the release's provenance record for the table (pipeline/publish/provenance.py):
  its description, its coverage (a table no source covers says "As fontes deste site não incluem esta
  tabela", and the workbook opens on this sheet), the rules that could not run (achados), its sources with
  their dates and licences, the date of the calculations, fictional or not, the portal's licence and the
  citation; a third, ``dicionario``, describes every column (name, title, type, description, rules, codes);
- the document properties say the same: title, subject (the package), creator (the portal), description,
  keywords and language, and custom properties (Cobertura, Fontes, Data de referência, Dados fictícios,
  Licença, Citação...);
- the workbook's creation date is the build's reference date, and every zip member carries that date:
  the file is byte-reproducible.

Cells carry no ``r`` reference (ECMA-376 makes it optional): an empty value is an empty ``<c/>``.
"""

from __future__ import annotations

import re
import zipfile
from datetime import date, datetime, time, timedelta
from pathlib import Path
from xml.sax.saxutils import escape

import pandas as pd

from ..contract import dictionary
from .archive import member as open_member
from .archive import write_member
from .provenance import LICENSE, NOT_COVERED, PORTAL, Provenance, source_text
from .tabular import Coded, cell, joined, kinds, straight, text_bytes

_EPOCH = datetime(1899, 12, 30)  # Excel's day 0 (with its 1900 leap-year quirk, for dates after 1900-03-01)
# kept as _xHHHH_: XML cannot carry them (and a CR would be read back as a line feed); a text that
# already holds such a sequence has its underscore escaped, so a reader gets back the very text
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\ufffe\uffff]|_(?=x[0-9A-Fa-f]{4}_)")
_STYLE = {"date": 1, "datetime": 2, "money": 3, "time": 4}
_HEADER = 5  # bold, wrapped
_WRAPPED = 6  # the Leia-me sheet's texts
# a date-time's number format: ISO 8601 without an offset, as every download writes it (clock.moment_text)
_MOMENT_FORMAT = 'yyyy-mm-dd"T"hh:mm:ss'
MAX_WIDTH, MIN_WIDTH, SAMPLE = 60, 8, 1000  # column widths (characters), from the title and first values
MONEY_FORMAT = '"R$" #,##0.00'  # shown with the reader's separators: R$ 1.234,56 in a pt-BR Excel
DICTIONARY_SHEET = "dicionario"
README_SHEET = "Leia-me"
MAX_ROWS = 1_048_575  # a sheet's 1,048,576 rows less the header: a larger table gets no workbook

_CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
    '<Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/docProps/app.xml" ContentType="application/vnd.openxmlformats-officedocument.extended-properties+xml"/>'
    '<Override PartName="/docProps/core.xml" ContentType="application/vnd.openxmlformats-package.core-properties+xml"/>'
    '<Override PartName="/docProps/custom.xml" ContentType="application/vnd.openxmlformats-officedocument.custom-properties+xml"/>'
    '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/worksheets/sheet2.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    '<Override PartName="/xl/worksheets/sheet3.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>'
    "</Types>"
)
_ROOT_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/package/2006/relationships/metadata/core-properties" Target="docProps/core.xml"/>'
    '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/extended-properties" Target="docProps/app.xml"/>'
    '<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/custom-properties" Target="docProps/custom.xml"/>'
    "</Relationships>"
)
_APP = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/extended-properties">'
    "<Application>Portal do transporte rodoviário interestadual de passageiros</Application></Properties>"
)
_WORKBOOK_RELS = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
    '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/>'
    '<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/>'
    '<Relationship Id="rId3" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet2.xml"/>'
    '<Relationship Id="rId4" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet3.xml"/>'
    "</Relationships>"
)
_STYLES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
    '<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">'
    '<numFmts count="4"><numFmt numFmtId="164" formatCode="dd/mm/yyyy"/>'
    f'<numFmt numFmtId="165" formatCode="{escape(_MOMENT_FORMAT, {chr(34): "&quot;"})}"/>'
    f'<numFmt numFmtId="166" formatCode="{escape(MONEY_FORMAT, {chr(34): "&quot;"})}"/>'
    '<numFmt numFmtId="167" formatCode="hh:mm"/>'
    '</numFmts>'
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font>'
    '<font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>'
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>'
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>'
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>'
    '<cellXfs count="7"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>'
    '<xf numFmtId="164" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="165" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="166" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="167" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>'
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1" applyAlignment="1">'
    '<alignment wrapText="1" vertical="top"/></xf>'
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0" applyAlignment="1">'
    '<alignment wrapText="1" vertical="top"/></xf></cellXfs>'
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>'
    "</styleSheet>"
)


def _ooxml_escape(m: re.Match) -> str:
    return f"_x{ord(m[0]):04X}_"


def _text(value: str, style: int = 0) -> str:
    """An inline-string cell."""
    text = _CONTROL.sub(_ooxml_escape, escape(value))
    space = ' xml:space="preserve"' if text[:1].isspace() or text[-1:].isspace() else ""
    s = f' s="{style}"' if style else ""
    return f'<c t="inlineStr"{s}><is><t{space}>{text}</t></is></c>'


_LEAP_BUG = datetime(1900, 3, 1)  # Excel counts a 29 February 1900 that never was: day 60


def _serial(moment: datetime) -> str:
    """Excel's serial number of ``moment``: days since 1899-12-30 from 1900-03-01 on, since 1899-12-31
    before it (1900-01-01 is day 1; Hypothesis found 1900-01-01 read back as 1900-01-02)."""
    delta = moment - (_EPOCH if moment >= _LEAP_BUG else _EPOCH + timedelta(days=1))
    return repr(delta.days + delta.seconds / 86400) if delta.seconds else str(delta.days)


def _cell_xml(raw, ftype: str) -> str:
    """One cell's XML (the reference left out), from its typed value; ``ftype`` is the field's kind
    (:func:`pipeline.publish.tabular.kinds`: the Table Schema type, or ``money``)."""
    value = cell(raw, ftype)
    if value is None:
        return "<c/>"
    if ftype == "datetime" and isinstance(raw, datetime):
        return _moment_xml(raw)
    if ftype in ("date", "datetime") and isinstance(raw, date):
        moment = raw if isinstance(raw, datetime) else datetime.combine(raw, time())
        return f'<c s="{_STYLE[ftype]}"><v>{_serial(moment)}</v></c>'
    if ftype == "time" and isinstance(value, str) and _TIME.fullmatch(value):
        hours, minutes = value.split(":")
        return f'<c s="{_STYLE["time"]}"><v>{(int(hours) * 60 + int(minutes)) / 1440!r}</v></c>'
    if isinstance(value, bool):
        return f'<c t="b"><v>{int(value)}</v></c>'
    if isinstance(value, (int, float)):
        style = f' s="{_STYLE["money"]}"' if ftype == "money" else ""
        return f"<c{style}><v>{value!r}</v></c>"
    return _text(str(value))


def _moment_xml(raw: datetime) -> str:
    """A date-time: its wall clock as a serial number, shown as ISO 8601 without an offset by its number
    format (pipeline/contract/clock.py ``moment_text``: the CSV's spelling)."""
    return f'<c s="{_STYLE["datetime"]}"><v>{_serial(raw.replace(tzinfo=None))}</v></c>'


_TIME = re.compile(r"([01]\d|2[0-3]):[0-5]\d")


def _converter(ftype: str):
    """``_cell_xml(·, ftype)``, with text, dates and date-times taken straight (:func:`.tabular.straight`:
    the same XML; the national infractions' workbook converts about 1.5 million distinct values)."""
    style = _STYLE.get(ftype)

    def moment_xml(raw):
        if type(raw) is datetime:
            return _moment_xml(raw)
        return f'<c s="{style}"><v>{_serial(datetime.combine(raw, time()))}</v></c>'

    return straight(ftype, _cell_xml, lambda raw: _text(raw) if raw else "<c/>", moment_xml)


def _letters(n: int) -> str:
    s = ""
    n += 1
    while n:
        n, r = divmod(n - 1, 26)
        s = chr(65 + r) + s
    return s


def columns(resource: dict) -> list[tuple[str, str, str, dict | None]]:
    """The sheet's columns: ``(field name, kind, header, labels)``; a coded field (an enum with labels in
    the schema) is followed by a column of its labels (``labels`` is the code -> label map there)."""
    out = []
    for f, (name, ftype) in zip(resource["schema"]["fields"], kinds(resource)):
        title = f.get("title") or name
        out.append((name, ftype, f"{title} [{name}]", None))
        if f.get("categories"):
            out.append((name, "string", f"{title} (rótulo)", {c["value"]: c["label"] for c in f["categories"]}))
    return out


def _width(header: str, texts) -> float:
    longest = max([len(header) // 2 + 1] + [len(t) for t in texts])
    return float(min(MAX_WIDTH, max(MIN_WIDTH, longest + 2)))


def _shown(raw, ftype: str) -> str:
    """About the text Excel shows for a value, to size its column."""
    value = cell(raw, ftype)
    if value is None:
        return ""
    if ftype == "date":
        return "00/00/0000"
    if ftype == "datetime":
        return "0000-00-00T00:00:00-00:00"
    if ftype == "money":
        return f"R$ {value:,.2f}"
    return str(value)


def _sheet(dimension: str, widths: list[float], ncols: int, nrows: int, selected: bool = False):
    """The pieces of a worksheet around its rows: frozen header, widths, autofilter."""
    cols = "".join(f'<col min="{i}" max="{i}" width="{w}" customWidth="1"/>' for i, w in enumerate(widths, 1))
    tab = ' tabSelected="1"' if selected else ""
    head = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        f'<dimension ref="{dimension}"/>'
        f'<sheetViews><sheetView{tab} workbookViewId="0">'
        '<pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/>'
        '<selection pane="bottomLeft" activeCell="A2" sqref="A2"/></sheetView></sheetViews>'
        f'<sheetFormatPr defaultRowHeight="15"/><cols>{cols}</cols><sheetData>'
    )
    tail = f'</sheetData><autoFilter ref="A1:{_letters(ncols - 1)}{nrows}"/></worksheet>'
    return head, tail


def dictionary_rows(resource: dict) -> list[list[str]]:
    """The dictionary sheet: a row per field."""
    rows = [["Coluna [nome]", "Título", "Tipo", "Descrição", "Regras", "Códigos e rótulos"]]
    for f in resource["schema"]["fields"]:
        codes = "; ".join(f"{code} = {label}" for code, label in dictionary.labels(f))
        kind = DATETIME_WORDS if f.get("type") == "datetime" else dictionary.type_in_words(f)
        rows.append([f["name"], f.get("title", ""), kind, f.get("description", ""),
                     "; ".join(dictionary.rules_in_words(f)), codes])
    return rows


# a date-time as the downloads write it (pipeline/contract/clock.py moment_text)
DATETIME_WORDS = "data e hora locais, como a fonte as registra, sem fuso horário (AAAA-MM-DDTHH:MM:SS)"


CUSTOM_LIMIT = 255  # characters of a custom document property's text that Excel keeps


def _clip(text: str, limit: int = CUSTOM_LIMIT) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def document_properties(resource: dict, record: Provenance, as_of) -> tuple[str, str]:
    """``docProps/core.xml`` and ``docProps/custom.xml``: the workbook's title, subject, creator,
    description, keywords, language and dates, and the provenance record's custom properties."""
    name = resource["name"]
    created = f"{as_of.isoformat()}T00:00:00Z"
    description = record.tables.get(name, {}).get("description") or resource.get("description", "")
    core = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<cp:coreProperties xmlns:cp="http://schemas.openxmlformats.org/package/2006/metadata/core-properties" '
        'xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:dcterms="http://purl.org/dc/terms/" '
        'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">'
        f"<dc:title>{_xml(resource.get('title', name))}</dc:title>"
        + (f"<dc:subject>{_xml(record.title)}</dc:subject>" if record.title else "")
        + f"<dc:creator>{_xml(PORTAL)}</dc:creator>"
        f"<cp:keywords>{_xml(', '.join(['dados abertos', 'transporte rodoviário', 'Decreto 952/1993', name]))}</cp:keywords>"
        f"<dc:description>{_xml(description)}</dc:description>"
        "<dc:language>pt-BR</dc:language>"
        f"<cp:lastModifiedBy>{_xml(PORTAL)}</cp:lastModifiedBy>"
        f'<dcterms:created xsi:type="dcterms:W3CDTF">{created}</dcterms:created>'
        f'<dcterms:modified xsi:type="dcterms:W3CDTF">{created}</dcterms:modified>'
        "</cp:coreProperties>"
    )
    c = record.coverage(name)
    props: list[tuple[str, str, object]] = []
    if c is not None:
        props.append(("Cobertura", "lpwstr", record.coverage_text(name) if c.situacao == NOT_COVERED else c.situacao))
        sources = record.sources_of(name) if c.situacao != NOT_COVERED else []
        props += [(f"Fonte {i}" if len(sources) > 1 else "Fonte", "lpwstr", source_text(s))
                  for i, s in enumerate(sources, 1)]
        if c.verificadas or c.nao_verificadas:
            props.append(("Regras não verificadas", "lpwstr",
                          ", ".join(r["regra"] for r in c.nao_verificadas) or "nenhuma"))
    props += [
        ("Data de referência", "lpwstr", record.as_of or as_of.isoformat()),
        ("Dados fictícios", "bool", record.fictional),
        ("Licença", "lpwstr", record.licence.get("name", "")),
        ("Licença (endereço)", "lpwstr", record.licence.get("path", "")),
        ("Citação", "lpwstr", record.citation),
        ("Pacote", "lpwstr", record.title),
    ]
    entries = []
    for pid, (key, kind, value) in enumerate([p for p in props if p[2] != ""], 2):
        text = ("true" if value else "false") if kind == "bool" else _xml(_clip(str(value)))
        entries.append(f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="{pid}" '
                       f'name="{_xml(key, quote=True)}"><vt:{kind}>{text}</vt:{kind}></property>')
    custom = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/custom-properties" '
        'xmlns:vt="http://schemas.openxmlformats.org/officeDocument/2006/docPropsVTypes">'
        + "".join(entries) + "</Properties>"
    )
    return core, custom


def _xml(text: str, quote: bool = False) -> str:
    """Text for an XML element or attribute: escaped, and characters XML cannot carry as OOXML escapes."""
    return _CONTROL.sub(_ooxml_escape, escape(text, {'"': "&quot;"} if quote else {}))


def readme_sheet(resource: dict, record: Provenance, selected: bool) -> str:
    """The ``Leia-me`` sheet: the provenance record for the table, an item and its text per row."""
    rows = [("Leia-me", resource.get("title", resource["name"]))] + record.readme(resource["name"])
    tab = ' tabSelected="1"' if selected else ""
    head = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        f'<dimension ref="A1:B{len(rows)}"/>'
        f'<sheetViews><sheetView{tab} workbookViewId="0"/></sheetViews>'
        '<sheetFormatPr defaultRowHeight="15"/>'
        '<cols><col min="1" max="1" width="22" customWidth="1"/><col min="2" max="2" width="110" customWidth="1"/></cols>'
        "<sheetData>"
    )
    body = "".join(f"<row>{_text(k, _HEADER)}{_text(v, _HEADER if n == 0 else _WRAPPED)}</row>"
                   for n, (k, v) in enumerate(rows))
    return head + body + "</sheetData></worksheet>"


def _standalone(resource: dict, as_of) -> Provenance:
    """The record of a workbook written on its own (no release's record given): the table, the date, the licence."""
    return Provenance(title="", description="", as_of=as_of.isoformat(), fictional=False, licence=dict(LICENSE),
                      sources=(), citation="", tables={resource["name"]: {
                          "title": resource.get("title", resource["name"]),
                          "description": resource.get("description", ""), "coverage": None}})


def write_xlsx(df: pd.DataFrame, resource: dict, path: Path, as_of, coded: Coded | None = None,
               record: Provenance | None = None) -> None:
    """The table's workbook: ``Leia-me`` (the provenance ``record``), the data, ``dicionario``."""
    record = record or _standalone(resource, as_of)
    cols = columns(resource)
    stamp = (as_of.year, as_of.month, as_of.day, 0, 0, 0)
    sheet_name = resource["name"][:31]
    quoted = escape(sheet_name, {'"': "&quot;"})
    last_col = _letters(len(cols) - 1)
    core, custom = document_properties(resource, record, as_of)
    # the data first (pandas, LibreOffice and DuckDB read the first sheet), the notes beside it; a table no
    # source covers opens on Leia-me, which says so, any other on its data
    active = 1 if not record.covered(resource["name"]) else 0
    workbook = (
        '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n'
        '<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" '
        'xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">'
        f'<bookViews><workbookView activeTab="{active}"/></bookViews>'
        f'<sheets><sheet name="{quoted}" sheetId="1" r:id="rId1"/>'
        f'<sheet name="{README_SHEET}" sheetId="3" r:id="rId4"/>'
        f'<sheet name="{DICTIONARY_SHEET}" sheetId="2" r:id="rId3"/></sheets>'
        '<definedNames><definedName name="_xlnm._FilterDatabase" localSheetId="0" hidden="1">'
        f"{escape(_sheet_ref(sheet_name))}!$A$1:${last_col}${len(df) + 1}</definedName>"
        f'<definedName name="_xlnm._FilterDatabase" localSheetId="2" hidden="1">'
        f"{DICTIONARY_SHEET}!$A$1:$F${len(resource['schema']['fields']) + 1}</definedName>"
        "</definedNames></workbook>"
    )

    def member(name: str) -> zipfile.ZipInfo:
        info = zipfile.ZipInfo(name, stamp)
        info.compress_type = zipfile.ZIP_DEFLATED
        return info

    coded = coded or Coded(df)
    # each column's cells as XML, once per distinct value
    forms = [coded.forms(name, _converter(ftype)) if labels is None else
             coded.forms(name, lambda v, m=labels: _cell_xml(m.get(v, v) if v not in (None, "") else None, "string"))
             for name, ftype, _, labels in cols]

    head_part = df.iloc[:SAMPLE]
    widths = [_width(header, [_shown(m.get(v, v) if m else v, ftype) for v in head_part[name].tolist()])
              for name, ftype, header, m in cols]
    entries = dictionary_rows(resource)
    dict_widths = [_width(h, [r[i] for r in entries[1:]]) for i, h in enumerate(entries[0])]

    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, text in (("[Content_Types].xml", _CONTENT_TYPES), ("_rels/.rels", _ROOT_RELS),
                           ("docProps/app.xml", _APP), ("docProps/core.xml", core), ("docProps/custom.xml", custom),
                           ("xl/workbook.xml", workbook), ("xl/_rels/workbook.xml.rels", _WORKBOOK_RELS),
                           ("xl/styles.xml", _STYLES),
                           ("xl/worksheets/sheet3.xml", readme_sheet(resource, record, active == 1))):
            write_member(z, member(name), text)
        with open_member(z, member("xl/worksheets/sheet1.xml"), force_zip64=True) as fh:
            head, tail = _sheet(f"A1:{last_col}{len(df) + 1}", widths, len(cols), len(df) + 1, active == 0)
            fh.write((head + "<row>" + "".join(_text(h, _HEADER) for _, _, h, _ in cols) + "</row>").encode("utf-8"))
            for start, stop in coded.spans():  # each row joined by Arrow from the columns' XML, as UTF-8 bytes
                if stop > start:
                    fh.write(text_bytes(joined(["<row>", *(f.text(start, stop) for f in forms), "</row>"])))
            fh.write(tail.encode("utf-8"))
        head, tail = _sheet(f"A1:F{len(entries)}", dict_widths, 6, len(entries))
        body = "".join("<row>" + "".join(_text(v, _HEADER if n == 0 else 0) if v else "<c/>" for v in row) + "</row>"
                       for n, row in enumerate(entries))
        write_member(z, member("xl/worksheets/sheet2.xml"), head + body + tail)


def _sheet_ref(name: str) -> str:
    """A sheet's name as a formula reference: quoted, with quotes doubled."""
    return "'" + name.replace("'", "''") + "'"
