"""Departure times the source did not give: 00:00 written where the regulator's export has no time.

This is not a rule of Decreto nº 952/1993 (the decree says nothing of how a timetable is exported): it is
the portal's reading of the regulator's file, applied where the pages answer a passenger (the pairs of
places, pipeline/site/cities.py), so that a time nobody gave is neither shown as a midnight departure nor
counted in the weekly departures.

Measured on the real 2021 export (``../shared/data/antt/quadro-de-horarios-2021.csv``): 38 of its 3,896
lines give no time but 00:00, among them 28 of its 49 semi-urban lines (most of them one row, "00:00 every
day", for a service that runs all day long) and six Sena Madureira - Porto Seguro lines. Nine more lines
give 00:00 in one direction only, beside real times in the other (São Bernardo do Campo - Fortaleza's
returns, for one): those are taken at their word, since the line shows that its times were filled in.
"""

from __future__ import annotations

from collections.abc import Iterable

PLACEHOLDER_TIME = "00:00"

# what a page and the pair's JSON say instead of such a time
NOTE = "horário não informado pela fonte (00:00 na exportação)"


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
