"""Identifiers of the domain: CNPJ and URL slugs."""

from __future__ import annotations

import re
import unicodedata

MAX_SLUG = 80  # characters of a record's URL segment (file systems allow 255 bytes per name)

_CNPJ_W1 = (5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2)
_CNPJ_W2 = (6,) + _CNPJ_W1


def _cnpj_digit(digits: str, weights: tuple[int, ...]) -> str:
    rest = sum(int(d) * w for d, w in zip(digits, weights)) % 11
    return "0" if rest < 2 else str(11 - rest)


def cnpj_check_digits(base12: str) -> str:
    """The two check digits of a CNPJ whose first 12 digits are ``base12`` (Receita Federal rule)."""
    d1 = _cnpj_digit(base12, _CNPJ_W1)
    return d1 + _cnpj_digit(base12 + d1, _CNPJ_W2)


def normalise_cnpj(value: str) -> str:
    """``04.192.453/0001-18`` -> ``04192453000118``; other text is returned stripped, unchanged."""
    value = (value or "").strip()
    if re.fullmatch(r"\d{2}\.\d{3}\.\d{3}/\d{4}-\d{2}", value):
        return re.sub(r"\D", "", value)
    return value


def cnpj_is_valid(value: str) -> bool:
    """True for 14 digits, not all equal, whose check digits are right."""
    if not re.fullmatch(r"\d{14}", value or "") or len(set(value)) == 1:
        return False
    return cnpj_check_digits(value[:12]) == value[12:]


def format_cnpj(value: str) -> str:
    """``04192453000118`` -> ``04.192.453/0001-18`` (for display)."""
    if not re.fullmatch(r"\d{14}", value or ""):
        return value
    return f"{value[:2]}.{value[2:5]}.{value[5:8]}/{value[8:12]}-{value[12:]}"


def slugify(value: str) -> str:
    """Lower-case ASCII slug: accents dropped, every other run of characters becomes ``-``.

    ``Portaria DTR nº 45/2001`` -> ``portaria-dtr-no-45-2001``. Returns ``""`` when nothing is left,
    which the validation reports as an unsafe key.
    """
    text = unicodedata.normalize("NFKD", value or "")
    text = text.replace("º", "o").replace("ª", "a")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode("ascii")
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


_CPF = re.compile(r"(?<![0-9])[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2}(?![0-9])")


_BARE_CPF = re.compile(r"(?<![0-9])[0-9]{11}(?![0-9])")


def cpf_is_valid(digits: str) -> bool:
    """The Receita Federal's check digits of an 11-digit CPF (repeated digits are not a CPF)."""
    if not re.fullmatch(r"[0-9]{11}", digits) or len(set(digits)) == 1:
        return False
    for n in (9, 10):
        total = sum(int(d) * w for d, w in zip(digits[:n], range(n + 1, 1, -1)))
        if str(total * 10 % 11 % 10) != digits[n]:
            return False
    return True


def has_cpf(text: str) -> bool:
    """Whether ``text`` holds something shaped like a natural person's CPF (000.000.000-00)."""
    return bool(_CPF.search(text))


def has_bare_cpf(text: str) -> bool:
    """Whether ``text`` holds an 11-digit run, alone, whose check digits are a CPF's (52998224725)."""
    return any(cpf_is_valid(m[0]) for m in _BARE_CPF.finditer(text))


def mask_cpf(text: str) -> str:
    """Every CPF-shaped run masked, so that no report republishes one (LGPD)."""
    text = _CPF.sub("***.***.***-**", text)
    return _BARE_CPF.sub(lambda m: "*" * 11 if cpf_is_valid(m[0]) else m[0], text)

