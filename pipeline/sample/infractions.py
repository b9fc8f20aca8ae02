"""Infraction notices (autos de infração, arts. 74 to 79): streamed in calendar order, each by a
carrier on a day one of its outorgas is in force, under a code of art. 78."""

from __future__ import annotations

import bisect
import itertools
import random
from array import array
from collections.abc import Iterator
from datetime import date

from ..legal.dates import add_days
from ..legal.enquadramentos import rows as enquadramento_rows
from .carriers import Carrier
from .lines import Line
from .outorgas import Outorga, windows
from .places import PLACES, RODOVIAS

# Fine per art. 78 group (R$): before and after the 2019-07-01 update (art. 79).
_MULTAS = {
    "I": ("1250.00", "1640.00"), "II": ("2500.00", "3280.00"), "III": ("3750.00", "4920.00"),
    "IV": ("5000.00", "6560.00"), "V": ("6250.00", "8200.00"), "VI": ("7500.00", "9840.00"),
}
_GROUP_WEIGHT = {"I": 1.0, "II": 0.8, "III": 0.6, "IV": 1.6, "V": 1.0, "VI": 1.2}
_PENALIDADES = ("multa", "retencao", "apreensao", "inidoneidade")  # art. 74
INFRACTIONS_FROM = date(2014, 1, 1)


def rows_infracoes(rng: random.Random, outorgas: list[Outorga], planted: list[tuple[Carrier, Line, date, int]],
                   n: int, as_of: date) -> Iterator[dict]:
    """``n`` notices: the ``planted`` ones (carrier, line, day, minute, all under 78-VI-a) and random
    ones, a few of them recent enough to be still pending, numbered in calendar order."""
    last = add_days(as_of, -1)
    spans = windows(outorgas, INFRACTIONS_FROM, last, lines_only=False)
    recent_from = add_days(as_of, -75)
    recent = [i for i, w in enumerate(spans) if w[2] >= recent_from]
    cum_all = list(itertools.accumulate((w[2] - w[1]).days + 1 for w in spans))
    cum_recent = list(itertools.accumulate((spans[i][2] - max(spans[i][1], recent_from)).days + 1
                                           for i in recent))
    # Sort (day, minute, source) packed in one integer so auto numbers follow the calendar.
    packed = array("q")
    for _ in range(n - len(planted)):
        if recent and rng.random() < 0.06:
            j = recent[bisect.bisect_right(cum_recent, rng.random() * cum_recent[-1])]
            start = max(spans[j][1], recent_from)
        else:
            j = bisect.bisect_right(cum_all, rng.random() * cum_all[-1])
            start = spans[j][1]
        day = rng.randint(start.toordinal(), spans[j][2].toordinal())
        minute = rng.randint(300, 1439) if rng.random() < 0.9 else rng.randint(0, 299)
        packed.append((day << 32) | (minute << 21) | j)
    for k, (_, _, day, minute) in enumerate(planted):
        packed.append((day.toordinal() << 32) | (minute << 21) | (len(spans) + k))
    packed = array("q", sorted(packed))

    codes = enquadramento_rows()
    groups = sorted({c["grupo"] for c in codes}, key=("I", "II", "III", "IV", "V", "VI").index)
    by_group = {g: [c["codigo"] for c in codes if c["grupo"] == g] for g in groups}
    group_of = {c["codigo"]: c["grupo"] for c in codes}
    cum_codes = list(itertools.accumulate(_GROUP_WEIGHT[c["grupo"]] for c in codes))
    numero = rng.randint(1_200_000, 1_900_000)
    drawn = 0  # random rows so far: the first ones cover every group and every penalty
    for item in packed:
        day = date.fromordinal(item >> 32)
        minute = (item >> 21) & 0x7FF
        j = item & 0x1FFFFF
        if j < len(spans):
            o = spans[j][0]
            carrier, line = o.carrier, o.linha
            penalidade = _PENALIDADES[drawn] if drawn < len(_PENALIDADES) else None
            if drawn < len(groups):
                code = rng.choice(by_group[groups[drawn]])
            else:
                code = codes[bisect.bisect_right(cum_codes, rng.random() * cum_codes[-1])]["codigo"]
            if line is not None and rng.random() < (0.7 if group_of[code] == "III" else 0.08):
                line = None
            drawn += 1
        else:
            carrier, line, _, _ = planted[j - len(spans)]
            code, penalidade = "78-VI-a", "multa"
        numero += rng.randint(1, 3)
        yield _infraction(rng, as_of, numero, carrier, line, day, minute, code, group_of[code], penalidade)


def _situacao(rng: random.Random, as_of: date, day: date) -> tuple[str, date | None, date | None]:
    """Where the notice of an infraction on ``day`` stands on ``as_of``, and its notice and decision days."""
    notified = add_days(day, rng.randint(2, 30))
    if notified > as_of or rng.random() < 0.004:
        return "autuado", None, None
    if (as_of - notified).days <= 21:
        return rng.choice(("notificado", "em_defesa")), notified, None
    decided = add_days(notified, rng.randint(30, 400))
    if decided > as_of:
        return rng.choices(("em_defesa", "notificado"), (8, 2))[0], notified, None
    if (as_of - decided).days <= 7:
        return rng.choice(("julgado", "em_recurso")), notified, decided
    status = rng.choices(("pago", "julgado", "em_recurso", "cancelado", "arquivado"), (45, 15, 12, 10, 18))[0]
    return status, notified, decided


def _infraction(rng: random.Random, as_of: date, numero: int, carrier: Carrier, line: Line | None, day: date,
                minute: int, code: str, group: str, penalidade: str | None) -> dict:
    if line is not None:
        place = rng.choice(line.brazilian_ends)
        roads = [r for r in line.itinerario.split(", ") if r.startswith("BR-")] or list(RODOVIAS[place.uf])
        if rng.random() < 0.7:
            local = f"{rng.choice(roads)}, km {rng.randint(1, max(2, min(int(line.extensao_km), 900)))}"
        else:
            local = "Terminal rodoviário"
    else:
        place = PLACES[carrier.municipio]
        if group == "III" or rng.random() < 0.3:
            local = "Sede da transportadora"
        else:
            local = f"{rng.choice(RODOVIAS[place.uf])}, km {rng.randint(1, 700)}"
    placa = ""
    if group != "III" and rng.random() < 0.92:
        plate, converted = rng.choice(carrier.fleet)
        if converted and day.toordinal() >= converted:  # Mercosul plate: 5th character becomes a letter
            plate = plate[:4] + "ABCDEFGHIJ"[int(plate[4])] + plate[5:]
        placa = plate
    penalidade = penalidade or rng.choices(_PENALIDADES, (900, 65, 30, 5))[0]
    valor = None
    if penalidade == "multa" or (penalidade != "inidoneidade" and rng.random() < 0.7):
        valor = _MULTAS[group][day >= date(2019, 7, 1)]
    situacao, notificado, decidido = _situacao(rng, as_of, day)
    return {
        "numero_auto": f"{numero:08d}",
        "transportadora_cnpj": carrier.cnpj,
        "linha_prefixo": line.prefixo if line else None,
        "placa": placa,
        "data_hora": f"{day.isoformat()}T{minute // 60:02d}:{minute % 60:02d}",
        "uf": place.uf,
        "municipio": place.name,
        "local": local,
        "enquadramento": code,
        "penalidade": penalidade,
        "valor_multa": valor,
        "notificado_em": notificado,
        "decidido_em": decidido,
        "situacao": situacao,
    }
