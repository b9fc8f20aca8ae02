"""The clocks of the portal's date-times.

A record's date-time (``infracoes.data_hora``: the date and time of an infraction, art. 83 III) is the local
wall-clock time the source gives, with no zone: no source says which clock it used, and Brazil has four
time zones and had summer time only in some states (an infraction in Petrolina (PE) in January 2014 was at
-03:00 while Brasília was at -02:00). Every download writes it as it is, ISO 8601 without an offset
(:func:`moment_text`), and says so (:data:`DATETIME_SENTENCE`): no offset is invented.

Only the portal's own dates carry one: a feed dates an entry at its day's midnight in Brasília's legal time
(:func:`local_moment`), as RFC 4287 requires a zone.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

# Brasília's legal time, for the feeds' dates. zoneinfo knows its history: -03:00, and -02:00 in the
# summers that had horário de verão (until February 2019).
ZONE_NAME = "America/Sao_Paulo"
ZONE = ZoneInfo(ZONE_NAME)
DATETIME_SENTENCE = ("Publicada em ISO 8601 sem fuso horário (AAAA-MM-DDTHH:MM:SS): a hora local, como a fonte a "
                     "registra. A fonte não diz o fuso (o Brasil tem quatro, e o horário de verão valeu só em alguns "
                     "estados), por isso nenhum deslocamento é acrescentado.")


STANDARD = timezone(timedelta(hours=-3))  # Brasília's standard time


def local_moment(moment: datetime) -> datetime:
    """A portal's date-time in Brasília (a feed entry's day at midnight) with its offset then. A wall-clock
    time that happened twice (the hour repeated when the summer time ended) is taken as its first
    occurrence; one that never happened (the hour skipped when it began), with the offset before. Before
    1914 Brazil had no legal time (zoneinfo gives São Paulo's local mean time, -03:06:28, which ISO 8601
    cannot write): such a moment takes the standard -03:00."""
    if moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone(offset(moment)))


def offset(moment: datetime) -> timedelta:
    """The UTC offset of a wall-clock time in Brasília (see :func:`local_moment`): zoneinfo's with
    ``fold=0``, the first occurrence of a repeated hour and the offset before a skipped one."""
    delta = moment.replace(tzinfo=ZONE).utcoffset()
    return STANDARD.utcoffset(None) if delta % timedelta(minutes=1) else delta  # local mean time, before 1914


def moment_text(moment: datetime) -> str:
    """The one spelling of a record's date-time in every download: ISO 8601 with seconds, without an
    offset (the source's wall clock, as it is): ``2026-03-02T14:30:00``."""
    return moment.isoformat(timespec="seconds")
