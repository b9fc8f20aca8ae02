"""Brasília's clock, the one spelling of a date-time in every download: the records' date-times are wall-clock
times of Brasília as the sources give them (no zone); every format writes them in ISO 8601 with the offset
they had then (-03:00, or -02:00 in the summers that had horário de verão, until 2019)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

# The time zone of the records' date-times (infracoes.data_hora): Brasília's legal time. zoneinfo knows its
# history: -03:00, and -02:00 in the summers that had horário de verão (until February 2019).
ZONE_NAME = "America/Sao_Paulo"
ZONE = ZoneInfo(ZONE_NAME)
DATETIME_SENTENCE = ("Publicada em ISO 8601 com o deslocamento do horário de Brasília (America/Sao_Paulo): "
                     "AAAA-MM-DDTHH:MM:SS-03:00, ou -02:00 nos verões com horário de verão (até 2019).")


STANDARD = timezone(timedelta(hours=-3))  # Brasília's standard time


def local_moment(moment: datetime) -> datetime:
    """A record's date-time (Brasília's wall clock, without zone, as the sources give it) with its offset.
    A wall-clock time that happened twice (the hour repeated when the summer time ended) is taken as its
    first occurrence; one that never happened (the hour skipped when it began), with the offset before.
    Before 1914 Brazil had no legal time (zoneinfo gives São Paulo's local mean time, -03:06:28, which ISO
    8601 cannot write): such a moment takes the standard -03:00."""
    if moment.tzinfo is not None:
        return moment
    return moment.replace(tzinfo=timezone(offset(moment)))


_DAYS: dict[int, tuple[timedelta, str] | None] = {}  # a day's offset, None on a day the zone changes
_HOURS: dict[tuple[int, int], tuple[timedelta, str]] = {}  # the hours of such a day


def _at(day: int, hour: int) -> tuple[timedelta, str]:
    moment = datetime.fromordinal(day).replace(hour=hour)
    delta = moment.replace(tzinfo=ZONE).utcoffset()
    if delta % timedelta(minutes=1):  # local mean time, before 1914
        delta = STANDARD.utcoffset(None)
    return delta, moment.replace(tzinfo=timezone(delta)).isoformat()[-6:]


def _offset(moment: datetime) -> tuple[timedelta, str]:
    """The offset of a wall-clock time in Brasília and its text ("-03:00"), worked out once per day, and
    per hour on a day the zone changes (its changes all fall on the hour): the writers convert some 500,000
    notices' times each."""
    day = moment.toordinal()
    got = _DAYS.get(day, False)
    if got is False:
        hours = [_at(day, hour) for hour in range(24)]
        got = _DAYS[day] = hours[0] if all(h == hours[0] for h in hours) else None
        if got is None:
            _HOURS.update({(day, hour): h for hour, h in enumerate(hours)})
    return got if got is not None else _HOURS[(day, moment.hour)]


def offset(moment: datetime) -> timedelta:
    """The UTC offset of a wall-clock time in Brasília (see :func:`local_moment`)."""
    return _offset(moment)[0]


def offset_text(moment: datetime) -> str:
    """The offset of a wall-clock time in Brasília as ISO 8601 writes it: ``-03:00``, ``-02:00``."""
    return moment.isoformat()[-6:] if moment.tzinfo is not None else _offset(moment)[1]


def moment_text(moment: datetime) -> str:
    """The one spelling of a date-time in every download: ISO 8601 with seconds and the offset,
    ``2026-03-02T14:30:00-03:00``."""
    if moment.tzinfo is not None:
        return moment.isoformat(timespec="seconds")
    return moment.isoformat(timespec="seconds") + _offset(moment)[1]
