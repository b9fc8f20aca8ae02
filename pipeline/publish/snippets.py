"""How to read a published table keeping its identifiers as text: the snippets the download pages show.

Read with their defaults, pandas (``read_csv``, ``read_json`` and ``read_excel`` alike), R and Excel take
a column of digits for a number: the CNPJ ``00018127000138`` becomes 18127000138 and a notice number loses
its leading zeros. The JSON carries them as strings and the XLSX as text cells, but only the reader can
keep them: each snippet names the table's text columns, read from its published schema (every field of
type ``string``), and reads them as text; the other columns keep their reader's types. A missing value
is an empty cell (``missingValues: [""]``): the snippets take nothing else for missing ("NA" is a text).

:func:`snippets` gives, for a table, ``pandas`` and ``duckdb`` (Python, run by the tests against every
published table), ``r`` (readr) and ``excel`` (Power Query M, for Dados > Obter Dados > Consulta em Branco
> Editor Avançado); ``pandas_json`` and ``pandas_xlsx`` read the other two files the same way (the XLSX's
data is its first sheet, named for the table, before ``Leia-me``).
"""

from __future__ import annotations

import json

_PYTHON_WIDTH = 100


def text_columns(schema: dict) -> list[str]:
    """The columns to read as text: every field of type ``string`` in the published table schema."""
    fields = (schema.get("schema") or schema).get("fields", [])
    return [f["name"] for f in fields if f.get("type", "string") == "string"]


def _quoted(text: str) -> str:
    """A string literal Python, R and SQL-in-Python all read back as ``text``."""
    return json.dumps(text, ensure_ascii=False)


def _wrapped(items: list[str], indent: str, width: int = _PYTHON_WIDTH) -> str:
    """``items`` joined by ", ", broken into lines of at most ``width`` characters after ``indent``."""
    lines, line = [], ""
    for item in items:
        candidate = f"{line}, {item}" if line else item
        if line and len(indent) + len(candidate) + 1 > width:
            lines.append(line + ",")
            line = item
        else:
            line = candidate
    if line:
        lines.append(line)
    return ("\n" + indent).join(lines)


def snippets(table: str, schema: dict, base: str = "", addresses: dict[str, str] | None = None) -> dict[str, str]:
    """The snippets for ``table`` (its published resource, or its ``schema``), reading its files at
    ``base`` (the address of ``/dados/``, ending in "/": ``https://exemplo.github.io/portal/dados/``; "" for
    files in the working folder), or at the address ``addresses`` gives a file served elsewhere (a
    release's asset, pipeline/publish/hosting.py). Each assigns the table to a variable named after it."""
    texts = text_columns(schema)
    addresses = addresses or {}
    csv_path, json_path, xlsx_path, parquet_path = (addresses.get(f"{table}.{ext}") or f"{base}{table}.{ext}"
                                                    for ext in ("csv", "json", "xlsx", "parquet"))
    comment = "# as colunas de texto lidas como texto: CNPJs, prefixos e números mantêm os zeros à esquerda"

    def pandas(reader: str, path: str, names: list[str], *more: str) -> str:
        dtypes = "{" + _wrapped([f"{_quoted(c)}: str" for c in names], "         ") + "}"
        return ("import pandas as pd\n\n"
                f"{comment}\n"
                f"texto = {dtypes}\n"
                f"{table} = pd.{reader}(\n"
                f"    {_quoted(path)},\n"
                f"    {', '.join(('dtype=texto',) + more)},\n"
                ")\n")

    # the workbook's header is "Título [nome]", and a coded column has a column of its labels beside it
    headers = [header for name, ftype, header, labels in _sheet_columns(table, schema)
               if labels is not None or name in texts]
    types = _wrapped([f"'{c}': 'VARCHAR'" for c in texts], " " * 17)
    duckdb = (
        "import duckdb\n\n"
        "# as colunas de texto lidas como VARCHAR: CNPJs, prefixos e números mantêm os zeros à esquerda\n"
        f"{table} = duckdb.sql(\"\"\"\n"
        "    SELECT *\n"
        "    FROM read_csv(\n"
        f"        '{csv_path.replace(chr(39), chr(39) * 2)}',\n"
        "        header = true,\n"
        "        nullstr = ''" + (f",\n        types = {{{types}}}" if texts else "") + "\n"
        "    )\n"
        "\"\"\")\n"
    )
    r_types = _wrapped([f"{c} = col_character()" for c in texts] + [".default = col_guess()"], " " * 6)
    r = (
        "library(readr)\n\n"
        "# as colunas de texto lidas como texto: CNPJs, prefixos e números mantêm os zeros à esquerda\n"
        f"{table} <- read_csv(\n"
        f"  {_quoted(csv_path)},\n"
        "  col_types = cols(\n"
        f"      {r_types}\n"
        "  ),\n"
        "  na = \"\"\n"
        ")\n"
    )
    remote = "://" in csv_path
    m_types = _wrapped([f'{{"{c}", type text}}' for c in texts], " " * 8)
    excel = (
        "// Excel: Dados > Obter Dados > De Outras Fontes > Consulta em Branco > Editor Avançado\n"
        "// as colunas de texto como texto: CNPJs, prefixos e números mantêm os zeros à esquerda\n"
        + ("" if remote else "// (File.Contents: o caminho completo do arquivo baixado)\n")
        + "let\n"
        f"    Fonte = Csv.Document({'Web' if remote else 'File'}.Contents({_quoted(csv_path)}),\n"
        "        [Delimiter = \",\", Encoding = 65001, QuoteStyle = QuoteStyle.Csv]),\n"
        "    Cabecalho = Table.PromoteHeaders(Fonte, [PromoteAllScalars = true]),\n"
        f"    Tipos = Table.TransformColumnTypes(Cabecalho, {{\n        {m_types}}})\n"
        "in\n"
        "    Tipos\n"
    )
    return {
        "pandas": pandas("read_csv", csv_path, texts, "keep_default_na=False", 'na_values=[""]'),
        "duckdb": duckdb,
        "r": r,
        "excel": excel,
        "pandas_json": pandas("read_json", json_path, texts),
        # Parquet keeps the published types (text stays text): no list of columns to give, and read in seconds
        "pandas_parquet": ("import pandas as pd\n\n"
                           "# o Parquet guarda os tipos: CNPJs, prefixos e números já vêm como texto, com os zeros à esquerda\n"
                           f"{table} = pd.read_parquet({_quoted(parquet_path)})\n"),
        "pandas_xlsx": pandas("read_excel", xlsx_path, headers, f"sheet_name={_quoted(table[:31])}",
                              "keep_default_na=False", 'na_values=[""]'),
    }


def _sheet_columns(table: str, schema: dict):
    from .spreadsheet import columns

    resource = schema if "schema" in schema else {"name": table, "schema": schema}
    return columns(resource)
