"""Departure times the source did not give: 00:00 written where the regulator's export has no time.

This is not a rule of Decreto nº 952/1993 (the decree says nothing of how a timetable is exported): it is
the portal's reading of the regulator's file, applied where the pages answer a passenger (the pairs of
places, pipeline/site/cities.py), so that a time nobody gave is neither shown as a midnight departure nor
counted in the weekly departures.

Measured on the real 2021 export (``../shared/data/antt/quadro-de-horarios-2021.csv``): 38 of its 3,896
lines give no time but 00:00, among them 28 of its 49 semi-urban lines (most of them one row, "00:00 every
day", for a service that runs all day long) and six Sena Madureira - Porto Seguro lines. Nine more lines
give 00:00 in one direction only, beside real times in the other (São Bernardo do Campo - Fortaleza's
returns, for one: 16 rows, 58 departures a week): a direction whose every time is 00:00 is read as given
no time too, and the page says that this is the portal's inference from the other direction's real times.
A 00:00 among real times of its own direction is taken at its word.
"""

from __future__ import annotations

from collections.abc import Iterable

PLACEHOLDER_TIME = "00:00"

# what a page and the pair's JSON say instead of such a time: the whole line gave 00:00, or this direction only
NOTE = "horário não informado pela fonte (00:00 na exportação)"
NOTE_ONE_DIRECTION = ("horário não informado pela fonte, inferido pelo portal: 00:00 em todas as partidas deste "
                      "sentido na exportação, com horários informados no outro")


def has_placeholder_times(times: Iterable[str]) -> bool:
    """True when a line's timetable (every departure of the line, both directions, every carrier) gives
    no time but 00:00: then 00:00 is the export's placeholder, not a departure at midnight. A line with
    no departure at all has no placeholder (nothing is said of its times)."""
    seen = False
    for time in times:
        if time != PLACEHOLDER_TIME:
            return False
        seen = True
    return seen


def placeholder_notes(times_by_direction: dict[str, Iterable[str]]) -> dict[str, str]:
    """Each direction of a line whose times are the export's placeholder, with what the page says of them:
    :data:`NOTE` when the whole line gives no time but 00:00, :data:`NOTE_ONE_DIRECTION` when the other
    direction gives real times (an inference, said as one). A direction with a real time is absent."""
    empty = {d: has_placeholder_times(times) for d, times in times_by_direction.items()}
    if all(empty.values()):
        return {d: NOTE for d, e in empty.items() if e}
    return {d: NOTE_ONE_DIRECTION for d, e in empty.items() if e}
