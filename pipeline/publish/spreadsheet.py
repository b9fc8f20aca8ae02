"""Each table as an XLSX workbook. Text that begins like a formula is stored as text with a leading
apostrophe (as in the CSV), so a spreadsheet never runs it."""

from __future__ import annotations

import re
from datetime import datetime, time
from pathlib import Path

import pandas as pd
from openpyxl import Workbook

from .archive import normalise_zip
from .tabular import cell, neutralise


def write_xlsx(df: pd.DataFrame, resource: dict, path: Path, as_of) -> None:
    fields = [(f["name"], f.get("type", "string")) for f in resource["schema"]["fields"]]
    wb = Workbook(write_only=True)
    stamp = datetime.combine(as_of, time())
    wb.properties.created = wb.properties.modified = stamp
    wb.properties.creator = "portal"
    wb.properties.title = resource.get("title", resource["name"])  # carries "Dados fictícios" when so
    ws = wb.create_sheet(title=resource["name"][:31])
    ws.append([name for name, _ in fields])
    columns = [(df[name].tolist(), ftype) for name, ftype in fields]
    for i in range(len(df)):
        row = []
        for values, ftype in columns:
            v = cell(values[i], ftype)
            if ftype in ("date", "datetime") and v is not None:
                v = values[i]  # real dates in the spreadsheet
            elif isinstance(v, str):
                v = neutralise(v)
            row.append(v)
        ws.append(row)
    wb.save(path)
    # openpyxl stamps "modified" with the clock on save: use the reference date instead.
    modified = stamp.strftime("%Y-%m-%dT%H:%M:%SZ").encode()
    normalise_zip(
        path,
        {
            "docProps/core.xml": lambda xml: re.sub(
                rb"(<dcterms:modified[^>]*>)[^<]*(</dcterms:modified>)", rb"\g<1>" + modified + rb"\g<2>", xml
            )
        },
    )
