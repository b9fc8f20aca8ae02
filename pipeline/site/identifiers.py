"""Identifiers as people type them lead to the record: ``12014000`` or ``12-0140-00`` to the line,
``04.192.453/0001-18`` to the carrier, ``out-000054`` to the outorga. Each record's identifier is
reduced to its letters and digits in upper case (:func:`key`, the same in ``theme/static/js/ids.js``) and looked up
in ``/busca/ids/<first two characters>.json``, which the search page and the 404 page read."""

from __future__ import annotations

import re

from ..contract import kinds
from ..contract.spelling import join
from ..places import fold_name

_GROUPED = re.compile(r"[0-9]{2}-[0-9]{4}-[0-9]{2}")  # a SIGMA line prefix: its last two digits are the group


# the cells of a key's value in the files of :func:`shards`, in order
FIELDS = ["url", "rotulo", "tipo"]


def key(typed: str) -> str:
    """``Portaria DTR nº 45/2001`` -> ``PORTARIADTRNO452001``; ``12-0140-00`` -> ``12014000``: the
    folded text (accents, case and punctuation dropped, as place names are matched) without spaces."""
    return fold_name(typed).replace(" ", "")


def shards(data) -> dict[str, dict[str, list[str]]]:
    """``{first two characters: {key: [url, label, kind]}}`` for the kinds looked up by identifier
    (pipeline/contract/kinds.py ``lookup_label``: lines, carriers, outorgas and caducidades)."""
    out: dict[str, dict[str, list[str]]] = {}
    entries = [(key(x[k.key]), x["url"], k.lookup_label.format_map(x), k.lookup_type)
               for k in kinds.RECORD_KINDS if k.lookup_label for x in data.records[k.name]]
    for k, url, label, kind in entries:
        if len(k) >= 2:
            out.setdefault(k[:2], {}).setdefault(k, [url, label, kind])
    # a CNPJ whose leading zeros a spreadsheet dropped (04192453000118 read as the number 4192453000118):
    # found too, down to 11 digits, where no record has that key itself
    for k, url, label, kind in entries:
        if len(k) == 14 and k.isdigit():
            for cut in range(1, 4):  # 13, 12 and 11 digits
                if k[:cut] == "0" * cut:
                    out.setdefault(k[cut:cut + 2], {}).setdefault(k[cut:], [url, label, kind])
    # a SIGMA line prefix typed without its last group (12-0140 for 12-0140-00, 12-0140-61...): the line of
    # the group's first prefix, its label naming the others, where no record has that key itself
    line = kinds.BY_NAME["linha"]
    groups: dict[str, list] = {}
    for x in data.records[line.name]:
        if _GROUPED.fullmatch(x[line.key] or ""):
            groups.setdefault(key(x[line.key][:-3]), []).append(x)
    for k, group in groups.items():
        group.sort(key=lambda x: x[line.key])
        label = line.lookup_label.format_map(group[0])
        if len(group) > 1:
            others = [x[line.key] for x in group[1:]]
            shown = others[:4] + ([f"mais {len(others) - 4}"] if len(others) > 4 else [])
            label += f" (também começam por {group[0][line.key][:-3]}: {join(shown)})"
        out.setdefault(k[:2], {}).setdefault(k, [group[0]["url"], label, line.lookup_type])
    return out
