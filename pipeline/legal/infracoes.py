"""Deadlines of infraction notices."""

from __future__ import annotations

from datetime import date

from .dates import add_business_days

DEFENCE_DAYS = 15  # art. 84 sole paragraph: fifteen business days from receipt of the notice
APPEAL_DAYS = 5  # art. 92: five business days from receipt of the decision's notice


def prazo_defesa(notificado_em: date | None) -> date | None:
    """Last day for the defence: notice + 15 business days (art. 84 sole paragraph; art. 96)."""
    return add_business_days(notificado_em, DEFENCE_DAYS) if notificado_em else None


def prazo_recurso(decidido_em: date | None) -> date | None:
    """Last day for the appeal: decision notice + 5 business days (art. 92; art. 96)."""
    return add_business_days(decidido_em, APPEAL_DAYS) if decidido_em else None
