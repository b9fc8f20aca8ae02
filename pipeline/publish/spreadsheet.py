"""Each table as an XLSX workbook, written by xlsxwriter in constant memory (row by row, as the table is
read; about 2.6 times faster than openpyxl on the national infractions, per the issue's measurement).

Text is stored as text (``strings_to_formulas``, ``_to_numbers`` and ``_to_urls`` off), so a cell never
runs as a formula; text that begins like one also gets a leading apostrophe, as in the CSV, so every
download shows the same value. Dates are real dates. The workbook's creation date is the reference date
of the build, which makes the file byte-reproducible (xlsxwriter stamps the zip with that date too).
"""

from __future__ import annotations

from datetime import date, datetime, time
from pathlib import Path

import pandas as pd
import xlsxwriter

from .tabular import cell, neutralise

_OPTIONS = {
    "constant_memory": True,
    "strings_to_formulas": False,
    "strings_to_numbers": False,
    "strings_to_urls": False,
}


def write_xlsx(df: pd.DataFrame, resource: dict, path: Path, as_of) -> None:
    fields = [(f["name"], f.get("type", "string")) for f in resource["schema"]["fields"]]
    wb = xlsxwriter.Workbook(str(path), _OPTIONS)
    try:
        stamp = datetime.combine(as_of, time())
        wb.set_properties({"created": stamp, "author": "portal", "title": resource.get("title", resource["name"])})
        formats = {"date": wb.add_format({"num_format": "dd/mm/yyyy"}),
                   "datetime": wb.add_format({"num_format": "dd/mm/yyyy hh:mm"})}
        ws = wb.add_worksheet(resource["name"][:31])
        ws.write_row(0, 0, [name for name, _ in fields])
        columns = [(df[name].tolist(), ftype) for name, ftype in fields]
        for i in range(len(df)):
            row = i + 1
            for col, (values, ftype) in enumerate(columns):
                raw = values[i]
                value = cell(raw, ftype)
                if value is None:
                    continue
                if ftype in ("date", "datetime") and isinstance(raw, date):
                    ws.write_datetime(row, col, raw if isinstance(raw, datetime) else datetime.combine(raw, time()),
                                      formats[ftype])
                elif isinstance(value, bool):
                    ws.write_boolean(row, col, value)
                elif isinstance(value, (int, float)):
                    ws.write_number(row, col, value)
                else:
                    ws.write_string(row, col, neutralise(str(value)))
    finally:
        wb.close()
