"""Identifiers of the domain: CNPJ and URL slugs."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

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
    if re.fullmatch(r"[0-9]{2}\.[0-9]{3}\.[0-9]{3}/[0-9]{4}-[0-9]{2}", value):
        return re.sub(r"[^0-9]", "", value)
    return value


def cnpj_is_valid(value: str) -> bool:
    """True for 14 digits, not all equal, whose check digits are right."""
    if not re.fullmatch(r"[0-9]{14}", value or "") or len(set(value)) == 1:
        return False
    return cnpj_check_digits(value[:12]) == value[12:]


def format_cnpj(value: str) -> str:
    """``04192453000118`` -> ``04.192.453/0001-18`` (for display)."""
    if not re.fullmatch(r"[0-9]{14}", value or ""):
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

# What may stand between the digits of a CPF written by hand: spaces of any kind (NBSP, ideographic),
# dots, hyphens and dashes, slashes (ASCII and full-width), and invisible characters (zero-width space,
# joiners, word joiner, BOM, soft hyphen). Digits are any script's (Unicode Nd: full-width, Arabic-Indic).
_SEP = r"[\s.\-/\u00ad\u2010-\u2015\u2212\u200b-\u200d\u2060\ufeff\uff0d\uff0e\uff0f]"
_DIGIT_RUN = re.compile(rf"\d(?:{_SEP}*\d)*")
_GROUP = re.compile(r"\d+")
_SOME_DIGITS = re.compile(r"\d")
_CPF_DIGITS = 11


def ascii_digits(text: str) -> str:
    """Every decimal digit of any script as its ASCII digit (``５２９`` and ``٥٢٩`` -> ``529``)."""
    return "".join(str(unicodedata.decimal(ch)) if ch.isdecimal() and not ch.isascii() else ch for ch in text)


def cpf_is_valid(digits: str) -> bool:
    """The Receita Federal's check digits of an 11-digit CPF (repeated digits are not a CPF)."""
    if not re.fullmatch(r"[0-9]{11}", digits) or len(set(digits)) == 1:
        return False
    for n in (9, 10):
        total = sum(int(d) * w for d, w in zip(digits[:n], range(n + 1, 1, -1)))
        if str(total * 10 % 11 % 10) != digits[n]:
            return False
    return True


def cpf_spans(text: str) -> list[tuple[int, int]]:
    """Where ``text`` holds a CPF in any shape: 11 digits of any script whose check digits are a CPF's,
    whatever separators, spaces or invisible characters stand between them (``529 982 247 25``,
    ``529.982.247/25``, ``５２９９８２２４７２５``, ``529\u200b982\u200b247\u200b25``). Digits joined by
    punctuation alone are one number and are read whole (a process number ``50000.010600/1999-78`` holds
    no CPF; a CNPJ's 14 digits are not one); numbers apart by spaces are read alone or together
    (``529 982 247 25``, ``CPF 529.982.247-25 2021``). Returns (start, end) of each, in order."""
    if len(_SOME_DIGITS.findall(text)) < _CPF_DIGITS:
        return []
    spans = []
    for run in _DIGIT_RUN.finditer(text):
        words: list[list] = []  # [start, end, digits] of each number of the run (split where a space is)
        last_end = None
        for m in _GROUP.finditer(run[0]):
            start, end = m.start() + run.start(), m.end() + run.start()
            if words and not any(ch.isspace() for ch in text[last_end:start]):
                words[-1][1], words[-1][2] = end, words[-1][2] + ascii_digits(m[0])
            else:
                words.append([start, end, ascii_digits(m[0])])
            last_end = end
        i = 0
        while i < len(words):
            digits, j = "", i
            while j < len(words) and len(digits) < _CPF_DIGITS:
                digits += words[j][2]
                j += 1
            if len(digits) == _CPF_DIGITS and cpf_is_valid(digits):
                spans.append((words[i][0], words[j - 1][1]))
                i = j
            else:
                i += 1
    return spans


def has_cpf(text: str) -> bool:
    """Whether ``text`` holds something shaped like a natural person's CPF (000.000.000-00), check digits
    or not: refused in any text column, identifiers included."""
    return bool(_CPF.search(text))


def has_any_cpf(text: str) -> bool:
    """Whether ``text`` holds a CPF in any shape (``cpf_spans``): refused in free text."""
    return bool(cpf_spans(text))


def mask_cpf(text: str) -> str:
    """Every CPF in ``text``, in any shape, masked digit by digit (separators kept), so that no report,
    message or change log republishes one (LGPD)."""
    if not isinstance(text, str) or len(text) < _CPF_DIGITS:  # too short to hold 11 digits
        return text
    return _masked(text)


@lru_cache(maxsize=1 << 16)  # a report repeats its reasons and values many times
def _masked(text: str) -> str:
    text = _CPF.sub("***.***.***-**", text)
    spans = cpf_spans(text)
    if not spans:
        return text
    out, last = [], 0
    for start, end in spans:
        out += [text[last:start], "".join("*" if ch.isdecimal() else ch for ch in text[start:end])]
        last = end
    return "".join(out) + text[last:]


_PLAIN = (int, float, bool, type(None))  # what holds no text


def mask_cpf_in(value):
    """``mask_cpf`` over every text of a JSON-like value (dicts' keys and values, lists). An ingest report
    holds some half a million texts (the conflicts of a national file): the common ones, a ``str`` too short
    to hold 11 digits or no text at all, are taken without a call."""
    kind = type(value)
    if kind is str:
        return value if len(value) < _CPF_DIGITS else _masked(value)
    if kind is dict:
        return {(k if type(k) is str and len(k) < _CPF_DIGITS else mask_cpf_in(k)):
                (v if type(v) in _PLAIN else (v if len(v) < _CPF_DIGITS else _masked(v)) if type(v) is str
                 else mask_cpf_in(v))
                for k, v in value.items()}
    if kind is list:
        return [v if type(v) in _PLAIN else (v if len(v) < _CPF_DIGITS else _masked(v)) if type(v) is str
                else mask_cpf_in(v) for v in value]
    if isinstance(value, str):  # a subclass (numpy's str_)
        return mask_cpf(value)
    if isinstance(value, dict):
        return {mask_cpf_in(k): mask_cpf_in(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [mask_cpf_in(v) for v in value]
    return value
