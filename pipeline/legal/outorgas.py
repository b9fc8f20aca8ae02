"""Derived fields of outorgas: vencimento and situacao."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date

from ..contract.spelling import day
from . import DECREE_PUBLICATION
from .dates import add_days, add_years

PERMIT_YEARS = 15  # art. 10: fifteen years, renewable once for an equal period
EMERGENCY_DAYS = 180  # art. 41: emergency authorization for one hundred and eighty days


def predates_decree(inicio: date) -> bool:
    """An outorga in force before the decree's publication (art. 94)."""
    return inicio < DECREE_PUBLICATION


@dataclass(frozen=True)
class Term:
    """An outorga's last day and the rule that sets it (``fundamento``: the article first, then the
    rule in plain pt-BR, as pages and the published ``vencimento_fundamento`` show it)."""

    vencimento: date | None
    fundamento: str


def term(instrumento: str, modalidade: str, inicio: date, fim: date | None, prorrogada: bool) -> Term:
    """Last day of an outorga's term, and its basis.

    - Permissions and authorizations that predate the decree, and were still current on its
      publication: kept for 15 years from the publication, renewable once (art. 94).
    - Permissions: ``inicio`` + 15 years (art. 10), plus 15 more when renewed (art. 10; art. 24 XIV).
    - Emergency authorizations: ``inicio`` + 180 days (art. 41; counted by art. 96).
    - Other authorizations: their set end, ``fim`` (art. 3 IV); ``None`` when not set.
    """
    years = PERMIT_YEARS * (2 if prorrogada else 1)
    renewed = f", prorrogado uma vez por igual período ({years} anos ao todo)" if prorrogada else ""
    if predates_decree(inicio) and (fim is None or fim >= DECREE_PUBLICATION):
        return Term(
            add_years(DECREE_PUBLICATION, years),
            f"art. 94 do Decreto nº 952/1993: outorga anterior ao decreto e em vigor na sua publicação "
            f"({day(DECREE_PUBLICATION)}); prazo de {PERMIT_YEARS} anos contado da publicação{renewed}",
        )
    if instrumento == "permissao":
        return Term(
            add_years(inicio, years),
            f"art. 10: permissão por {PERMIT_YEARS} anos contados do início{renewed}",
        )
    if modalidade == "emergencial":
        return Term(
            add_days(inicio, EMERGENCY_DAYS),
            f"art. 41: autorização emergencial por {EMERGENCY_DAYS} dias contados do início (art. 96)",
        )
    if fim is not None:
        return Term(fim, "art. 3º IV: autorização com o fim fixado no ato")
    return Term(None, "art. 3º IV: autorização sem fim fixado no ato; não há vencimento a calcular")


def vencimento(instrumento: str, modalidade: str, inicio: date, fim: date | None, prorrogada: bool) -> date | None:
    """Last day of an outorga's term (see :func:`term` for the rules and their articles)."""
    return term(instrumento, modalidade, inicio, fim, prorrogada).vencimento


def situacao(vencimento: date | None, extinta_em: date | None, as_of: date) -> str:
    """``extinta`` once extinguished (art. 28), else ``vencida`` after its last day, else ``vigente``."""
    if extinta_em is not None and extinta_em <= as_of:
        return "extinta"
    if vencimento is not None and vencimento < as_of:
        return "vencida"
    return "vigente"


def in_force_on(inicio: date, vencimento: date | None, extinta_em: date | None, day: date) -> bool:
    """Whether an outorga was in force on ``day``: begun, not past its last day, not extinguished."""
    return inicio <= day and (vencimento is None or day <= vencimento) and (extinta_em is None or day < extinta_em)
