"""Synthetic files in the regulator's current layouts, at the sizes ../shared/spec/antt-layouts.md reports,
for measuring the adapters (bench/ingest.py): Latin-1, ``;``, CRLF, ``DD/MM/YYYY``, valid CNPJs, new-form
prefixes and real municipalities. Written by the project; no row is real.

The sections file is as that page describes September 2026's: every cell in quotes (its example row), each
row a section of its own (some forty a line, between some 2,100 municipalities, every one crossing a state
border), ``extensao_secao`` empty, ``tipo_servico`` blank in one row in 43 and a court order
(``AUTORIZAÇÃO JUDICIAL``) in one in 7.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

from pipeline.adapters.antt_habilitadas import REGULAR
from pipeline.adapters.antt_historico import HEADER as HISTORY
from pipeline.adapters.antt_horarios import HEADER_SIGMA as TIMETABLE
from pipeline.adapters.antt_linhas_secoes import HEADER as SECTIONS
from pipeline.adapters.antt_monitriip import HEADER as TICKETS
from pipeline.adapters.antt_pontos import HEADER as STOPS
from pipeline.contract.identifiers import cnpj_check_digits
from pipeline.places import municipalities

# rows of each file in September 2026 (one month of Monitriip: about 12 million over 94 months)
REAL_SIZES = {"antt-linhas-secoes": 84_518, "antt-horarios": 10_454, "antt-pontos-esquema-operacional": 23_303,
              "antt-servicos-paralisados": 102_000, "antt-historico-linhas": 82_000,
              "antt-empresas-habilitadas": 410, "antt-monitriip-bilhetes": 130_000}
PLACES = [("GO", "Goiânia"), ("TO", "Palmas"), ("DF", "Brasília"), ("SP", "São Paulo"), ("RJ", "Rio de Janeiro"),
          ("MG", "Belo Horizonte"), ("BA", "Salvador"), ("PR", "Curitiba"), ("ES", "Vitória"), ("PE", "Recife"),
          ("GO", "Anápolis"), ("TO", "Gurupi"), ("SP", "Campinas"), ("MG", "Uberlândia"), ("RS", "Porto Alegre")]
SERVICES = ("Básica", "Executiva", "Semileito", "Leito", "Cama")


def _cnpj(n: int) -> str:
    base = f"{10_000_000 + n:08d}0001"
    c = base + cnpj_check_digits(base)
    return f"{c[:2]}.{c[2:5]}.{c[5:8]}/{c[8:12]}-{c[12:]}"


def _line(n: int) -> tuple[str, str, tuple, tuple]:
    """A line: its carrier's CNPJ, its new-form prefix, its two ends."""
    a, b = PLACES[n % len(PLACES)], PLACES[(n * 7 + 3) % len(PLACES)]
    if a == b:
        b = PLACES[(n + 1) % len(PLACES)]
    return _cnpj(n % 180), f"{a[0]}{b[0]}{n:07d}", a, b


def _month(year: int, month: int, later: int) -> str:
    """``MM/AAAA``, ``later`` months after ``month`` of ``year``."""
    year, month = divmod(year * 12 + month - 1 + later, 12)
    return f"{month + 1:02d}/{year}"


def _rows(adapter: str, n: int, rng: random.Random, period: tuple[int, int] = (2025, 1)):
    """The ``n`` data rows of ``adapter``'s file (``period``: Monitriip's month of issue, ``(year, month)``)."""
    places = rng.sample(sorted(municipalities().values()), 2_100) if adapter == "antt-linhas-secoes" else []
    for i in range(n):
        line = i // 40  # some forty rows a line
        cnpj, prefix, a, b = _line(line)
        desc = f"{a[0]}/{a[1]} - {b[0]}/{b[1]}"
        day = f"{1 + i % 28:02d}/{1 + i % 12:02d}/20{10 + i % 15}"
        common = [cnpj, f"EMPRESA {line % 180} TRANSPORTES LTDA"]
        stop_a, stop_b = PLACES[i % len(PLACES)], PLACES[(i + 5) % len(PLACES)]
        if adapter == "antt-linhas-secoes":
            if i % 40 == 0:  # the line's sections: its ends and nine places between, each pair across a border
                stops = [(a[1], a[0]), *rng.sample(places, 9), (b[1], b[0])]
                sections = [(x, y) for k, x in enumerate(stops) for y in stops[k + 1:] if x[1] != y[1]]
                sections = list(dict.fromkeys(pair for x, y in sections for pair in ((x, y), (y, x))))
            origin, destination = sections[i % 40 % len(sections)]
            yield common + ["", "", day, prefix, desc, "" if rng.random() < 1 / 43 else SERVICES[line % 5],
                            *origin, *destination, "", "AUTORIZAÇÃO JUDICIAL" if rng.random() < 1 / 7
                            else "AUTORIZACAO", "INTERESTADUAL"]
        elif adapter == "antt-horarios":
            flags = ["x" if rng.random() < 0.8 else "" for _ in range(19)]
            yield common + [day, prefix, desc, SERVICES[i % 5], ("ida", "volta")[i % 2],
                            f"{i % 24:02d}:{(i * 7) % 60:02d}", ""] + flags
        elif adapter == "antt-pontos-esquema-operacional":
            yield common + [day, prefix, desc, SERVICES[line % 5], str(1 + i % 40),
                            f"{stop_a[0]}{i % 99_999:05d} TERMINAL RODOVIÁRIO", f"{stop_a[1]} - {stop_a[0]}",
                            "Sim", "Não", "Não", "Sim" if i % 9 == 0 else "Não", "Não", "Não"]
        elif adapter == "antt-servicos-paralisados":
            yield common + ["", "", day, prefix, desc, SERVICES[i % 5], stop_a[1], stop_a[0], stop_b[1], stop_b[0], "",
                            "AUTORIZACAO", "INTERESTADUAL", f"{1 + i % 28:02d}/{1 + (i // 28) % 12:02d}/2026"]
        elif adapter == "antt-historico-linhas":
            yield common + [day, prefix, desc, SERVICES[i % 5], "AUTORIZACAO", f"{1 + i % 28:02d}/{1 + i % 12:02d}/2025",
                            f"50500.{i:06d}/2025-{i % 90 + 10}", "Alteração de horários", "Ativo", "INTERESTADUAL"]
        elif adapter == "antt-empresas-habilitadas":
            yield [f"EMPRESA {i} TRANSPORTES LTDA", _cnpj(i), f"{i:03d}/2019", f"31/12/20{27 + i % 3}"]
        elif adapter == "antt-monitriip-bilhetes":
            # one month of issue, travel up to two months later; a mean fare no other row of the month has; ten
            # rows a market (service, free ticket, month of travel), the markets a sixth of the sections' (the
            # tickets of a sold market; how many a month sells is not published: unconfirmed)
            cents = 5_000 + i * 37 % 130_000
            markets = _markets()
            origin, destination = markets[(i // 10) * 6 % len(markets)]
            yield [_month(*period, 0), _month(*period, i % 3), f"{origin[0]} - {origin[1]}",
                   f"{destination[0]} - {destination[1]}", SERVICES[i % 5], "" if i % 9 else "Idoso",
                   f"{cents // 100:,},{cents % 100:02d}".replace(",", ".", cents >= 100_000),
                   f"{5 + i % 20},{i % 10}0", str(1 + i % 900)]


HEADERS = {"antt-linhas-secoes": SECTIONS, "antt-horarios": TIMETABLE, "antt-pontos-esquema-operacional": STOPS,
           "antt-servicos-paralisados": (*SECTIONS, "data_paralisacao"), "antt-historico-linhas": HISTORY,
           "antt-empresas-habilitadas": REGULAR.columns, "antt-monitriip-bilhetes": TICKETS}


@cache
def _markets() -> list[tuple[tuple[str, str], tuple[str, str]]]:
    """The sections of the sections file at its published size, as ((name, UF), (name, UF)): the markets the
    tickets are sold for."""
    rows = _rows("antt-linhas-secoes", REAL_SIZES["antt-linhas-secoes"], random.Random(952))
    return [((r[8], r[9]), (r[10], r[11])) for r in rows]


QUOTED = {"antt-linhas-secoes"}  # files whose every cell is in quotes, as the page quotes their example row


def write_export(adapter: str, rows: int, path: Path, seed: int = 952, period: tuple[int, int] = (2025, 1)) -> Path:
    """``rows`` rows of ``adapter``'s current layout at ``path``, as the regulator writes them (``period``: the
    month of a Monitriip file, ``(year, month)``)."""
    rng = random.Random(seed)
    cell = (lambda text: f'"{text}"') if adapter in QUOTED else (lambda text: text)
    text = ";".join(HEADERS[adapter]) + "\r\n" + "".join(";".join(map(cell, r)) + "\r\n"
                                                          for r in _rows(adapter, rows, rng, period))
    Path(path).write_bytes(text.encode("latin-1"))
    return Path(path)
