"""Promotional fares (art. 6 sole paragraph)."""

from __future__ import annotations

from datetime import date

NOTICE_DAYS = 30  # art. 6 sole paragraph I: communicated at least thirty days in advance


def antecedencia_dias(comunicado_em: date, inicio: date) -> int:
    """Days between the communication to the regulator and the promotion's first day."""
    return (inicio - comunicado_em).days


def antecedencia_ok(dias: int) -> bool:
    """At least thirty days' notice (art. 6 sole paragraph I)."""
    return dias >= NOTICE_DAYS


def acima_do_maximo(valor: float, tarifa_maxima: float | None) -> bool:
    """A promotional fare must stay below the maximum fare in force on its first day (art. 6;
    charging above it is an infraction, art. 78 III c). Equal is not a promotion either."""
    return tarifa_maxima is not None and valor >= tarifa_maxima


def situacao(inicio: date, fim: date, as_of: date) -> str:
    """``futura`` before its first day, ``encerrada`` after its last, else ``vigente``."""
    if as_of < inicio:
        return "futura"
    if as_of > fim:
        return "encerrada"
    return "vigente"
