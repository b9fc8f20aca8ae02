"""Fictional records of the regime that replaced Decreto nº 952/1993, for the sample's lines: their
history (historico_linhas) and a few paralysed services (paralisacoes), so that ``make site`` shows them."""

from __future__ import annotations

import random
from datetime import date, timedelta

from .lines import Line
from .outorgas import Outorga

PARALYSED_SHARE = 0.08  # lines with their terminal-to-terminal service paralysed
EVENTS = ("Alteração de horários", "Inclusão de seção", "Alteração do esquema operacional",
          "Substituição de frota", "Atualização cadastral")
SITUATIONS = ("Ativo", "Ativo", "Ativo", "Em Elaboração", "Inativo")


def _operators(lines: list[Line], outorgas: list[Outorga]) -> dict[str, str]:
    """Each line's carrier: the first outorga of the line, by start."""
    out: dict[str, str] = {}
    for o in sorted((o for o in outorgas if o.linha is not None), key=lambda o: (o.inicio, o.id)):
        out.setdefault(o.linha.prefixo, o.carrier.cnpj)
    return out


def rows_historico_linhas(rng: random.Random, lines: list[Line], outorgas: list[Outorga], as_of: date) -> list[dict]:
    """One to three recorded events per line, dated in the two years before ``as_of``."""
    operators = _operators(lines, outorgas)
    rows = []
    for n, line in enumerate(sorted(lines, key=lambda x: x.prefixo)):
        if line.prefixo not in operators:
            continue
        for k in range(rng.randint(1, 3)):
            when = as_of - timedelta(days=rng.randint(1, 730))
            rows.append({"linha_prefixo": line.prefixo, "transportadora_cnpj": operators[line.prefixo],
                         "data_atualizacao": when.isoformat(),
                         "protocolo": f"50500.{n * 10 + k:06d}/{when.year}-{rng.randint(10, 99)}",
                         "descricao": rng.choice(EVENTS), "situacao_servico": rng.choice(SITUATIONS),
                         "tipo_servico": None, "tipo_autorizacao": "autorizacao", "data_autorizacao": None})
    return rows


def rows_paralisacoes(rng: random.Random, lines: list[Line], outorgas: list[Outorga], as_of: date) -> list[dict]:
    """The terminal-to-terminal service of about one line in twelve, paralysed in the year before ``as_of``."""
    operators = _operators(lines, outorgas)
    rows = []
    for line in sorted(lines, key=lambda x: x.prefixo):
        if line.prefixo in operators and rng.random() < PARALYSED_SHARE:
            rows.append({"linha_prefixo": line.prefixo, "transportadora_cnpj": operators[line.prefixo],
                         "origem_municipio": line.origem.name, "origem_uf": line.origem.uf,
                         "destino_municipio": line.destino.name, "destino_uf": line.destino.uf,
                         "data_paralisacao": (as_of - timedelta(days=rng.randint(1, 365))).isoformat(),
                         "tipo_servico": None, "tipo_autorizacao": "autorizacao"})
    return rows


def rows_paradas(rng: random.Random, lines: list[Line], outorgas: list[Outorga]) -> list[dict]:
    """Each line's itinerary: its origin, the places its sections stop at (by distance from the origin)
    and its destination, all section points; a stop on the way now and then offers a meal and a driver
    change. Stop codes are the UF and five digits, as ANTT's."""
    from .places import haversine_km

    operators = _operators(lines, outorgas)
    codes: dict[tuple[str, str], str] = {}
    rows = []
    for line in sorted(lines, key=lambda x: x.prefixo):
        if line.prefixo not in operators or line.origem.abroad or line.destino.abroad:
            continue
        middle = {p.name: p for pair in (line.sections or []) for p in pair}
        middle = sorted((p for p in middle.values() if p.name not in (line.origem.name, line.destino.name)),
                        key=lambda p: haversine_km(line.origem, p))
        for n, place in enumerate([line.origem, *middle, line.destino], 1):
            code = codes.setdefault((place.uf, place.name), f"{place.uf}{len(codes) + 1:05d}")
            stop = 1 < n < len(middle) + 2 and rng.random() < 0.3
            rows.append({"linha_prefixo": line.prefixo, "transportadora_cnpj": operators[line.prefixo],
                         "tipo_veiculo": "Convencional", "sequencia": n, "codigo_parada": code,
                         "nome_parada": f"TERMINAL RODOVIÁRIO DE {place.name}", "municipio": place.name, "uf": place.uf,
                         "secao": True, "apoio": stop, "lanche": stop, "refeicao": stop, "troca_de_motorista": stop,
                         "troca_de_veiculo": False})
    return rows


# What a national sample's tickets are made of besides the paid ones, as Monitriip names them (its
# layout's ``tipo_gratuidade``): the free or half-price tickets of the elderly, young people of low
# income and people with a disability (Lei nº 10.741/2003, Lei nº 12.852/2013, Lei nº 8.899/1994).
FREE_KINDS = ("Idoso", "Idoso 50%", "Jovem de Baixa Renda", "Jovem de Baixa Renda 50%", "Pessoa com Deficiência")
SERVICES = ("Convencional", "Executivo", "Semileito", "Leito")


def rows_bilhetes(rng: random.Random, lines: list[Line], as_of: date, months: int = 12, detailed: bool = False):
    """Tickets sold between the terminals of the domestic lines, each pair of places once and both ways, in the
    ``months`` months before ``as_of`` (by travel month), paid and for the elderly (free), with a mean amount
    paid near R$ 0,14 a kilometre. ``detailed`` (the national scales) gives each pair and month the detail of a
    real month of Monitriip, some 130,000 rows: tickets issued in the travel month and the five before, one to
    four services, and five kinds of free ticket issued in the travel month or the one before. Rows are made as they are written (eight years of them
    are 12 million)."""
    first = date(as_of.year, as_of.month, 1)
    pairs: dict[tuple, tuple] = {}  # Monitriip counts tickets per pair of places, whatever the line: each pair once
    for line in sorted(lines, key=lambda x: x.prefixo):
        if not (line.origem.abroad or line.destino.abroad):
            for a, b in ((line.origem, line.destino), (line.destino, line.origem)):
                pairs.setdefault((a.uf, a.name, b.uf, b.name), (line, a, b))
    for line, a, b in pairs.values():
        services = [SERVICES[0]] + [s for s, share in zip(SERVICES[1:], (0.7, 0.2, 0.3)) if rng.random() < share] \
            if detailed else SERVICES[:1]
        for back in range(months, 0, -1):
            y, m = divmod(first.year * 12 + first.month - 1 - back, 12)
            travel = f"{y:04d}-{m + 1:02d}"
            for service in services:
                issued = [travel]
                if detailed:
                    for ahead in range(1, 6):
                        yy, mm = divmod(y * 12 + m - ahead, 12)
                        issued.append(f"{yy:04d}-{mm + 1:02d}")
                for issue in issued:
                    paid = rng.randint(40, 2_000)
                    mean = round(line.extensao_km * rng.uniform(0.11, 0.17), 2)
                    base = {"mes_viagem": travel, "mes_emissao": issue, "origem_municipio": a.name, "origem_uf": a.uf,
                            "destino_municipio": b.name, "destino_uf": b.uf, "tipo_servico": service}
                    yield {**base, "tipo_gratuidade": None, "quantidade": paid, "valor_medio": mean,
                           "valor_desvio_padrao": round(mean * rng.uniform(0.05, 0.2), 2)}
                    if issue not in issued[:1 + detailed]:  # free tickets: issued in the travel month or the one before
                        continue
                    for kind in (FREE_KINDS if detailed else FREE_KINDS[:1]):
                        half = kind.endswith("50%")
                        yield {**base, "tipo_gratuidade": kind, "quantidade": rng.randint(0, paid // 20),
                               "valor_medio": round(mean / 2, 2) if half else 0.0,
                               "valor_desvio_padrao": round(mean * 0.05, 2) if half else 0.0}
