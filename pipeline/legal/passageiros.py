"""Passenger rules that a person can compute: baggage (art. 65), giving up or rebooking a trip
(art. 64) and children travelling free (art. 32 XVII). The calculators of /direitos/ take these numbers
from here (the page carries them as data attributes) and the tests hold the worked examples."""

from __future__ import annotations

from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

HOLD_KG = 30  # art. 65 I: bagageiro, 30 kg in total
CABIN_KG = 5  # art. 65 II: porta-embrulhos, 5 kg
EXCESS_RATE = Decimal("0.005")  # art. 65 sole paragraph: up to 0.5 % of the conventional fare per kg over
NOTICE_HOURS = 6  # art. 64: at least six hours before departure
CHILD_FREE_AGE = 5  # art. 32 XVII: children up to five years, without a seat


class InvalidInput(ValueError):
    """An impossible value: the message says which, in pt-BR."""


def excess_baggage(conventional_fare: Decimal | float | str, hold_kg: float, cabin_kg: float) -> dict:
    """Art. 65 and its sole paragraph: the kilograms over each franchise and the most the carrier may
    charge for them (0.5 % of the conventional fare per kg over, rounded to the centavo).

    >>> excess_baggage("100.00", 38, 5)["maximo"]
    Decimal('4.00')
    """
    fare = Decimal(str(conventional_fare))
    if fare <= 0:
        raise InvalidInput("o preço da passagem convencional deve ser maior que zero")
    if hold_kg < 0 or cabin_kg < 0:
        raise InvalidInput("o peso da bagagem não pode ser negativo")
    over = Decimal(str(max(0.0, hold_kg - HOLD_KG))) + Decimal(str(max(0.0, cabin_kg - CABIN_KG)))
    maximum = (fare * EXCESS_RATE * over).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    return {"excesso_kg": over, "maximo": maximum, "por_kg": (fare * EXCESS_RATE).quantize(Decimal("0.01"),
                                                                                             rounding=ROUND_HALF_UP)}


def refund_deadline(departure: datetime) -> datetime:
    """Art. 64: the last moment to give up the trip (money back) or move it to another day and time."""
    return departure - timedelta(hours=NOTICE_HOURS)


def may_refund(departure: datetime, asked_at: datetime) -> bool:
    """Art. 64: asked at least six hours before the departure."""
    if asked_at > departure:
        raise InvalidInput("o pedido é posterior à partida")
    return asked_at <= refund_deadline(departure)


def child_travels_free(age_years: int, own_seat: bool) -> bool:
    """Art. 32 XVII: a child up to five years old travels without paying if not taking a seat."""
    if age_years < 0 or age_years > 130:
        raise InvalidInput("idade impossível")
    return age_years <= CHILD_FREE_AGE and not own_seat


# Plain-language summaries of the articles art. 34 had posted (pt-BR), shown beside each on /direitos/.
# Editorial text of the portal, not the decree's: each names what a passenger can do with the article.
SUMMARIES = {
    32: "Você tem direito a serviço adequado, pontual, seguro, limpo e confortável; à poltrona do seu bilhete; a "
        "informações sobre horários, tempo de viagem e preços; a levar bagagem sem pagar dentro da franquia e a "
        "receber comprovante dela; a indenização se ela se perder ou estragar; à diferença de preço se viajar em "
        "ônibus pior que o contratado; a alimentação e pousada pagas pela empresa se a viagem atrasar, for "
        "interrompida ou a poltrona for vendida duas vezes; a assistência em caso de acidente; a levar crianças de "
        "até cinco anos sem pagar, se não ocuparem poltrona; a comprar passagem com data em aberto (válida por um "
        "ano); e a desistir e receber o dinheiro de volta ou remarcar.",
    33: "A empresa pode recusar o embarque ou mandar descer quem não se identificar quando exigido, estiver "
        "embriagado, portar arma sem autorização, levar produto perigoso ou animal mal acondicionado, volume que "
        "não caiba no porta-embrulhos, perturbar os outros passageiros, usar aparelho de som depois de advertido "
        "ou se recusar a pagar.",
    35: "O órgão federal (na época o Departamento de Transportes Rodoviários) fiscaliza o serviço, aplica multas, "
        "revê as tarifas e deve receber, apurar e resolver as reclamações dos passageiros: é a ele que se reclama.",
    37: "A transportadora deve prestar serviço adequado, cumprir as normas e o contrato, conservar os ônibus e "
        "deixar a fiscalização entrar em suas instalações e ver seus registros.",
    65: "A passagem já inclui 30 kg no bagageiro (até 300 dm³, nenhum volume com mais de 1 metro) e 5 kg no "
        "porta-embrulhos. Pelo que passar disso, a empresa pode cobrar no máximo 0,5% do preço da passagem "
        "convencional por quilo.",
    66: "A bagagem dos passageiros tem prioridade no bagageiro; a empresa só pode levar encomendas no espaço que "
        "sobrar, sem atrasar a viagem nem pôr ninguém em risco.",
    67: "É proibido levar produtos perigosos no ônibus.",
    68: "Se houver indício que justifique, o fiscal ou o funcionário da empresa pode pedir que você abra a sua "
        "bagagem no embarque.",
    69: "Se a bagagem chegar danificada ou não chegar, reclame à empresa ao fim da viagem, com o comprovante: ela "
        "tinha até 30 dias para indenizar, em valores fixados em cruzeiros reais em 1993 e corrigidos pelo IGP.",
}
