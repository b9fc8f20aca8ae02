"""The reference table ``enquadramentos``: every alínea of art. 78, read from the decree text.

Art. 78 classifies the fines in six groups (incisos I to VI, each ``Grupo N:``), each group listing
its infractions as alíneas ``a)``, ``b)``... Group VI skips ``k``, as the decree does.
"""

from __future__ import annotations

import re
from pathlib import Path

from .. import DECREE_PATH

_GROUP = re.compile(r"^(?P<roman>[IVX]+)\s*(?:-\s*)?Grupo (?P=roman):\s*$")
_ALINEA = re.compile(r"^(?P<letter>[a-z])\)\s*(?P<text>.+?)\s*$")


def article_lines(text: str, number: int) -> list[str]:
    """The non-empty lines of ``Art. number.`` up to the next article heading."""
    lines = text.splitlines()
    start = lines.index(f"Art. {number}.")
    out = []
    for line in lines[start + 1:]:
        if re.match(r"^Art\. \d+\.$", line):
            break
        if line.strip():
            out.append(line.strip())
    return out


def rows(decree_path: Path = DECREE_PATH) -> list[dict]:
    """``[{codigo, grupo, descricao}]`` for every alínea of art. 78, in the decree's order."""
    text = Path(decree_path).read_text(encoding="utf-8")
    group = None
    out = []
    for line in article_lines(text, 78):
        if m := _GROUP.match(line):
            group = m["roman"]
        elif (m := _ALINEA.match(line)) and group:
            out.append({"codigo": f"78-{group}-{m['letter']}", "grupo": group, "descricao": m["text"]})
    if not out:
        raise ValueError(f"{decree_path}: art. 78 has no alínea; is this the decree's text?")
    return out
