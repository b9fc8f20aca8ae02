"""Art. 12: copies anyone can check. Each outorga and caducidade carries a verification code derived from
its published row, so that a printed copy can be checked against the open data with common tools:

    grep '^OUT-000054,' outorgas.csv | tr -d '\\r\\n' | sha256sum | cut -c1-12

gives the code's twelve hex digits (the page shows them in upper case, in groups of four). The row is the
record's line of the published CSV, exactly as /dados/ serves it: the publish stage hands each line over
(``Published.lines``, pipeline/publish/tabular.py ``verification_lines``).
"""

from __future__ import annotations

import hashlib

CODE_DIGITS = 12
# what /verificar/ answers, said once: the page hands them to its script (data-mensagens, verificar.js)
_EXAMPLE = "-".join("1A2B3C4D5E6F7A8B9C0D"[k:k + 4] for k in range(0, CODE_DIGITS, 4))
MESSAGES = {
    "tamanho": f"O código tem {CODE_DIGITS} dígitos (0 a 9 e A a F), por exemplo {_EXAMPLE}.",
    "valido": "Código válido: pertence ao registro",
    "nao_encontrado": "Código não encontrado nos dados desta data: confira a digitação, ou a data impressa na cópia.",
    "falha": "Não foi possível consultar os códigos",
}
# The tables whose records carry a code: with none of their rows in a build, /verificar/ says that no act
# of its sources has a code, instead of inviting to check the typing
TABLES = ("outorgas", "caducidades")


def code(line: str) -> str:
    """``ABCD-1234-EF56``: the first twelve hex digits of the SHA-256 of ``line`` (UTF-8)."""
    digits = hashlib.sha256(line.encode("utf-8")).hexdigest()[:CODE_DIGITS].upper()
    return "-".join(digits[k:k + 4] for k in range(0, CODE_DIGITS, 4))


def normalise(typed: str) -> str:
    """What a person types (``abcd 1234-ef56``) as the code's hex digits in lower case, or ``""``."""
    digits = "".join(c for c in typed.lower() if c in "0123456789abcdef")
    return digits if len(digits) == CODE_DIGITS else ""


def shard(digits: str) -> str:
    """The lookup file of a code: ``/verificar/<first two digits>.json``."""
    return digits[:2]
