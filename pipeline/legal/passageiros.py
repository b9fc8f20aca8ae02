"""Passenger rules that a person can compute: baggage (art. 65), giving up or rebooking a trip
(art. 64) and children travelling free (art. 32 XVII). The calculators of /direitos/ take these numbers
from here (the page carries them as data attributes) and the tests hold the worked examples.

These are the rules of Decreto nº 952/1993, revoked by Decreto nº 2.521/1998: the page answers "pelas
regras de 1993", never as the law in force. The browser's side (theme/static/js/calculadoras.js) reads
what a person types as :func:`parse_reais`, :func:`parse_kg` and :func:`parse_age` do, computes as
:func:`excess_baggage_account` does and refuses with :data:`MESSAGES`; :data:`WORKED_EXAMPLES` holds
what the page answers, word for word, and tests/test_calculadoras.py checks them on both sides."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal

HOLD_KG = 30  # art. 65 I: bagageiro, 30 kg in total
CABIN_KG = 5  # art. 65 II: porta-embrulhos, 5 kg
EXCESS_RATE = Decimal("0.005")  # art. 65 sole paragraph: up to 0.5 % of the conventional fare per kg over
NOTICE_HOURS = 6  # art. 64: at least six hours before departure
CHILD_FREE_AGE = 5  # art. 32 XVII: children up to five years, without a seat
CENT = Decimal("0.01")  # the most for excess baggage is rounded to the centavo, half up (the decree is silent)


class InvalidInput(ValueError):
    """An impossible value: the message says which, in pt-BR."""


def excess_baggage(conventional_fare: Decimal | float | str, hold_kg: Decimal | float | str,
                   cabin_kg: Decimal | float | str) -> dict:
    """Art. 65 and its sole paragraph: the kilograms over each franchise and the most the carrier may
    charge for them (0.5 % of the conventional fare per kg over, rounded to the centavo, half up); ``por_kg``
    is that price per kilogram rounded to the centavo too (:func:`excess_baggage_account` has it exact).

    >>> excess_baggage("100.00", 38, 5)["maximo"]
    Decimal('4.00')
    """
    account = excess_baggage_account(conventional_fare, hold_kg, cabin_kg)
    return {"excesso_kg": account["excesso_kg"], "maximo": account["maximo"],
            "por_kg": account["por_kg"].quantize(CENT, rounding=ROUND_HALF_UP)}


def excess_baggage_account(conventional_fare: Decimal | float | str, hold_kg: Decimal | float | str,
                           cabin_kg: Decimal | float | str) -> dict:
    """Art. 65 sole paragraph with every figure the calculator shows: the kilograms over in the hold
    (``bagageiro_kg``) and on board (``porta_embrulhos_kg``), their sum (``excesso_kg``), the exact price
    per kilogram (``por_kg``: fare x 0.5 %, unrounded), the exact product (``conta``) and the most the
    carrier may charge (``maximo``: ``conta`` rounded to the centavo, half a centavo or more going up).
    Weights are subtracted as decimals (33.3 kg is 3.3 kg over, not 3.2999999999999972).

    >>> a = excess_baggage_account("120.50", "32", "5")
    >>> a["excesso_kg"], a["por_kg"], a["conta"], a["maximo"]
    (Decimal('2'), Decimal('0.60250'), Decimal('1.20500'), Decimal('1.21'))
    """
    fare = Decimal(str(conventional_fare))
    hold, cabin = Decimal(str(hold_kg)), Decimal(str(cabin_kg))
    if fare <= 0:
        raise InvalidInput("o preço da passagem convencional deve ser maior que zero")
    if hold < 0 or cabin < 0:
        raise InvalidInput("o peso da bagagem não pode ser negativo")
    over_hold, over_cabin = max(Decimal(0), hold - HOLD_KG), max(Decimal(0), cabin - CABIN_KG)
    over = over_hold + over_cabin
    per_kg = fare * EXCESS_RATE
    product = per_kg * over
    return {"bagageiro_kg": over_hold, "porta_embrulhos_kg": over_cabin, "excesso_kg": over, "por_kg": per_kg,
            "conta": product, "maximo": product.quantize(CENT, rounding=ROUND_HALF_UP)}


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


# --- What the calculators of /direitos/ read and answer (theme/static/js/calculadoras.js does the same) ----

# The refusals, in pt-BR, as the page shows them ({typed}: what was typed, trimmed; {where}: "no bagageiro"
# or "no porta-embrulhos"; {fixed}: the same number with a decimal comma).
MESSAGES = {
    "reais": "Informe o preço da passagem convencional em reais, por exemplo 120,50 ou R$ 1.234,56: "
             "“{typed}” não é um valor em reais.",
    "reais_ponto": "Informe os centavos depois de uma vírgula: “{typed}” se escreve {fixed} "
                   "(o ponto separa os milhares, como em 1.234,56).",
    "reais_centavos": "Informe o preço até os centavos, com no máximo dois dígitos depois da vírgula: "
                      "“{typed}” tem mais.",
    "reais_positivo": "O preço da passagem convencional deve ser maior que zero.",
    "kg": "Informe o peso {where} em quilos, zero ou mais, por exemplo 32,5: “{typed}” não é um peso.",
    "kg_ponto": "Informe a fração do quilo depois de uma vírgula: “{typed}” se escreve {fixed}.",
    "kg_gramas": "Informe o peso {where} até os gramas, com no máximo três dígitos depois da vírgula: "
                 "“{typed}” tem mais.",
    "kg_negativo": "O peso {where} não pode ser negativo.",
    "idade": "Informe a idade em anos completos (por exemplo 4).",
    "datas": "Informe a data e a hora da partida e do aviso.",
    "aviso_depois": "O aviso é depois da partida: o art. 64 tratava de quem avisava antes dela.",
}

# A number as written in Brazil: thousands grouped by dots (or not grouped), decimals after a comma. The
# patterns are written so that Python's and JavaScript's regular expressions read them alike: the page
# hands them to calculadoras.js (BROWSER).
_NUMBER = re.compile(r"([0-9]{1,3}(?:\.[0-9]{3})+|[0-9]+)(?:,([0-9]+))?")
_DOT_DECIMAL = re.compile(r"[0-9]+\.[0-9]{1,2}")  # "120.50": a decimal point, never a thousands dot
# what the calculators' script reads from the page (theme/templates/_calculadoras.html): one rule, two sides



def _number(body: str, places: int, refuse, precision_key: str, dot_key: str) -> Decimal:
    negative = body.startswith("-")
    digits = body[1:] if negative else body
    if _DOT_DECIMAL.fullmatch(digits):
        refuse(dot_key, fixed=body.replace(".", ","))
    match = _NUMBER.fullmatch(digits)
    if match is None:
        refuse(None)
    if len(match[2] or "") > places:
        refuse(precision_key)
    value = Decimal(match[1].replace(".", "") + "." + (match[2] or "0"))
    return -value if negative else value


def parse_reais(typed: str) -> Decimal:
    """A fare as a person types it in Brazil: ``R$ 120,00``, ``120,00``, ``1.234,56``, ``120``, ``R$120``
    (the ``R$`` optional, any case; spaces around). Anything else is refused with a message of
    :data:`MESSAGES`: ``120.50`` (a decimal point), ``12,345`` (below the centavo), zero or less, words.

    >>> parse_reais("R$ 1.234,56")
    Decimal('1234.56')
    """
    text = typed.strip()
    body = text[2:].strip() if text[:2].upper() == "R$" else text

    def refuse(key, **extra):
        raise InvalidInput(MESSAGES[key or "reais"].format(typed=text, **extra))

    value = _number(body, 2, refuse, "reais_centavos", "reais_ponto")
    if value <= 0:
        refuse("reais_positivo")
    return value


def parse_kg(typed: str, where: str) -> Decimal:
    """A weight in kilograms as typed: ``32,5``, ``38``, ``1.000``, ``38 kg``; to the gram at most.
    ``where`` ("no bagageiro", "no porta-embrulhos") names the field in the refusal.

    >>> parse_kg("32,5 kg", "no bagageiro")
    Decimal('32.5')
    """
    text = typed.strip()
    body = text[:-2].strip() if text[-2:].lower() == "kg" else text

    def refuse(key, **extra):
        raise InvalidInput(MESSAGES[key or "kg"].format(typed=text, where=where, **extra))

    value = _number(body, 3, refuse, "kg_gramas", "kg_ponto")
    if value < 0:
        refuse("kg_negativo")
    return value


_AGE = re.compile(r"([0-9]{1,3})(?:\s*anos?)?", re.I)
# what the calculators' script reads from the page (theme/templates/_calculadoras.html): one rule, two sides
# (the age is matched ignoring case on both)
BROWSER = {"mensagens": MESSAGES, "numero": _NUMBER.pattern, "ponto_decimal": _DOT_DECIMAL.pattern,
           "idade": _AGE.pattern}


def parse_age(typed: str) -> int:
    """An age in whole years, as typed: ``4`` or ``4 anos``; at most 130."""
    match = _AGE.fullmatch(typed.strip())
    if match is None or int(match[1]) > 130:
        raise InvalidInput(MESSAGES["idade"])
    return int(match[1])


# Worked examples: what a person types into each calculator of /direitos/ (by the fields' names) and the
# page's answer, word for word. tests/test_calculadoras.py recomputes every figure of each answer with
# the functions above and types each example into the page in Chromium.
WORKED_EXAMPLES = {
    "calc-bagagem": (
        # the example: 0.5 % of R$ 120,50 is R$ 0,6025 a kilo; 2 kg make R$ 1,205, shown as R$ 1,21
        {"preco": "R$ 120,50", "bagageiro": "32", "porta_embrulhos": "5", "maximo": Decimal("1.21"),
         "resposta": "Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo "
                     "R$ 1,21 pelo excesso de bagagem. Excesso: 2 kg no bagageiro (32 kg − 30 kg de franquia). "
                     "Conta: 2 kg × R$ 0,6025 por quilo (0,5% de R$ 120,50) = R$ 1,205; arredondado ao centavo "
                     "(meio centavo ou mais, para cima): R$ 1,21."},
        {"preco": "100,00", "bagageiro": "38", "porta_embrulhos": "5", "maximo": Decimal("4.00"),
         "resposta": "Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo "
                     "R$ 4,00 pelo excesso de bagagem. Excesso: 8 kg no bagageiro (38 kg − 30 kg de franquia). "
                     "Conta: 8 kg × R$ 0,50 por quilo (0,5% de R$ 100,00) = R$ 4,00, sem arredondamento."},
        # both franchises exceeded; the half centavo is not reached, so it rounds down
        {"preco": "137,90", "bagageiro": "32,5", "porta_embrulhos": "6 kg", "maximo": Decimal("2.41"),
         "resposta": "Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo "
                     "R$ 2,41 pelo excesso de bagagem. Excesso: 2,5 kg no bagageiro (32,5 kg − 30 kg de "
                     "franquia) + 1 kg no porta-embrulhos (6 kg − 5 kg de franquia) = 3,5 kg. Conta: 3,5 kg × "
                     "R$ 0,6895 por quilo (0,5% de R$ 137,90) = R$ 2,41325; arredondado ao centavo (meio "
                     "centavo ou mais, para cima): R$ 2,41."},
        # exactly half a centavo goes up
        {"preco": "R$10", "bagageiro": "30,1", "porta_embrulhos": "0", "maximo": Decimal("0.01"),
         "resposta": "Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo "
                     "R$ 0,01 pelo excesso de bagagem. Excesso: 0,1 kg no bagageiro (30,1 kg − 30 kg de "
                     "franquia). Conta: 0,1 kg × R$ 0,05 por quilo (0,5% de R$ 10,00) = R$ 0,005; arredondado "
                     "ao centavo (meio centavo ou mais, para cima): R$ 0,01."},
        # 33,3 - 30 is 3,3 exactly (in binary floating point it is 3.2999999999999972, which rounds to 0,16)
        {"preco": "10", "bagageiro": "33,3", "porta_embrulhos": "5", "maximo": Decimal("0.17"),
         "resposta": "Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo "
                     "R$ 0,17 pelo excesso de bagagem. Excesso: 3,3 kg no bagageiro (33,3 kg − 30 kg de "
                     "franquia). Conta: 3,3 kg × R$ 0,05 por quilo (0,5% de R$ 10,00) = R$ 0,165; arredondado "
                     "ao centavo (meio centavo ou mais, para cima): R$ 0,17."},
        {"preco": "1.234,56", "bagageiro": "1.000", "porta_embrulhos": "5", "maximo": Decimal("5987.62"),
         "resposta": "Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo "
                     "R$ 5.987,62 pelo excesso de bagagem. Excesso: 970 kg no bagageiro (1.000 kg − 30 kg de "
                     "franquia). Conta: 970 kg × R$ 6,1728 por quilo (0,5% de R$ 1.234,56) = R$ 5.987,616; "
                     "arredondado ao centavo (meio centavo ou mais, para cima): R$ 5.987,62."},
        {"preco": "R$ 120,00", "bagageiro": "30", "porta_embrulhos": "4,75", "maximo": Decimal("0.00"),
         "resposta": "Pelas regras de 1993 (art. 65, incisos I e II), não haveria nada a pagar pela bagagem: "
                     "30 kg no bagageiro e 4,75 kg no porta-embrulhos caberiam na franquia (até 30 kg e 5 kg)."},
    ),
    "calc-desistencia": (
        {"partida": "2026-12-24T22:00", "pedido": "2026-12-24T16:00", "no_prazo": True,
         "resposta": "No prazo, pelas regras de 1993 (art. 64): o aviso podia ser dado até 24/12/2026 16:00, "
                     "6 horas antes da partida, com direito à devolução do valor pago ou à remarcação da viagem."},
        {"partida": "2026-12-24T22:00", "pedido": "2026-12-24T16:01", "no_prazo": False,
         "resposta": "Fora do prazo: o aviso devia ser feito até 24/12/2026 16:00, 6 horas antes da partida, "
                     "pelas regras de 1993 (art. 64); depois disso, o decreto não garantia devolução nem "
                     "remarcação."},
        # six hours before 03:30 on 1 January is the day before
        {"partida": "2027-01-01T03:30", "pedido": "2026-12-31T12:00", "no_prazo": True,
         "resposta": "No prazo, pelas regras de 1993 (art. 64): o aviso podia ser dado até 31/12/2026 21:30, "
                     "6 horas antes da partida, com direito à devolução do valor pago ou à remarcação da viagem."},
        {"partida": "2026-12-24T22:00", "pedido": "2026-12-24T22:01", "no_prazo": None,
         "resposta": MESSAGES["aviso_depois"]},
    ),
    "calc-crianca": (
        {"idade": "5", "poltrona": False, "gratis": True,
         "resposta": "Pelas regras de 1993 (art. 32, inciso XVII), a criança viajaria sem pagar, desde que não "
                     "ocupasse poltrona."},
        {"idade": "5 anos", "poltrona": True, "gratis": False,
         "resposta": "Pelas regras de 1993 (art. 32, inciso XVII), pagaria passagem: a gratuidade valia só para "
                     "a criança que não ocupasse poltrona."},
        {"idade": "6", "poltrona": False, "gratis": False,
         "resposta": "Pelas regras de 1993 (art. 32, inciso XVII), pagaria passagem: a gratuidade valia até 5 "
                     "anos."},
        {"idade": "-2", "poltrona": False, "gratis": None, "resposta": MESSAGES["idade"]},
    ),
}

# Money as typed: accepted (with the value read) and refused (with the page's message).
TYPED_REAIS = (("R$ 120,00", Decimal("120.00")), ("120,00", Decimal("120.00")), ("1.234,56", Decimal("1234.56")),
               ("120", Decimal("120")), ("R$120", Decimal("120")), ("r$ 0,5", Decimal("0.5")),
               (" 120,5 ", Decimal("120.5")), ("R$ 12.345", Decimal("12345")))
REFUSED_REAIS = (("abc", MESSAGES["reais"].format(typed="abc")),
                 ("120.50", MESSAGES["reais_ponto"].format(typed="120.50", fixed="120,50")),
                 ("12,345", MESSAGES["reais_centavos"].format(typed="12,345")),
                 ("R$ 0,00", MESSAGES["reais_positivo"]), ("-5", MESSAGES["reais_positivo"]),
                 ("R$", MESSAGES["reais"].format(typed="R$")),
                 ("1.23,45", MESSAGES["reais"].format(typed="1.23,45")),
                 ("120,", MESSAGES["reais"].format(typed="120,")))
REFUSED_KG = (("muito", "no bagageiro", MESSAGES["kg"].format(typed="muito", where="no bagageiro")),
              ("-1", "no bagageiro", MESSAGES["kg_negativo"].format(where="no bagageiro")),
              ("32.5", "no bagageiro", MESSAGES["kg_ponto"].format(typed="32.5", fixed="32,5")),
              ("5,0001", "no porta-embrulhos", MESSAGES["kg_gramas"].format(typed="5,0001", where="no porta-embrulhos")))


# Plain-language summaries of the articles art. 34 had posted (pt-BR), shown beside each on /direitos/.
# Editorial text of the portal, not the decree's: each names what a passenger can do with the article.
SUMMARIES = {  # the rules of 1993 in plain words, in the past: what the decree gave, not what the law gives today
    32: "Pelas regras de 1993, o passageiro tinha direito a serviço adequado, pontual, seguro, limpo e confortável; "
        "à poltrona do seu bilhete; a informações sobre horários, tempo de viagem e preços; a levar bagagem sem pagar "
        "dentro da franquia e a receber comprovante dela; a indenização se ela se perdesse ou estragasse; à diferença "
        "de preço se viajasse em ônibus pior que o contratado; a alimentação e pousada pagas pela empresa se a viagem "
        "atrasasse, fosse interrompida ou a poltrona fosse vendida duas vezes; a assistência em caso de acidente; a "
        "levar crianças de até cinco anos sem pagar, se não ocupassem poltrona; a comprar passagem com data em aberto "
        "(válida por um ano); e a desistir e receber o dinheiro de volta ou remarcar.",
    33: "Pelas regras de 1993, a empresa podia recusar o embarque ou mandar descer quem não se identificasse quando "
        "exigido, estivesse embriagado, portasse arma sem autorização, levasse produto perigoso ou animal mal "
        "acondicionado, volume que não coubesse no porta-embrulhos, perturbasse os outros passageiros, usasse "
        "aparelho de som depois de advertido ou se recusasse a pagar.",
    35: "Pelas regras de 1993, o órgão federal (na época o Departamento de Transportes Rodoviários) fiscalizava o "
        "serviço, aplicava multas, revia as tarifas e devia receber, apurar e resolver as reclamações dos "
        "passageiros: era a ele que se reclamava.",
    37: "Pelas regras de 1993, a transportadora devia prestar serviço adequado, cumprir as normas e o contrato, "
        "conservar os ônibus e deixar a fiscalização entrar em suas instalações e ver seus registros.",
    65: "Pelas regras de 1993, a passagem já incluía 30 kg no bagageiro (até 300 dm³, nenhum volume com mais de 1 "
        "metro) e 5 kg no porta-embrulhos. Pelo que passasse disso, a empresa podia cobrar no máximo 0,5% do preço "
        "da passagem convencional por quilo.",
    66: "Pelas regras de 1993, a bagagem dos passageiros tinha prioridade no bagageiro; a empresa só podia levar "
        "encomendas no espaço que sobrasse, sem atrasar a viagem nem pôr ninguém em risco.",
    67: "Pelas regras de 1993, era proibido levar produtos perigosos no ônibus.",
    68: "Pelas regras de 1993, se houvesse indício que justificasse, o fiscal ou o funcionário da empresa podia "
        "pedir que o passageiro abrisse a sua bagagem no embarque.",
    69: "Pelas regras de 1993, se a bagagem chegasse danificada ou não chegasse, reclamava-se à empresa ao fim da "
        "viagem, com o comprovante: ela tinha até 30 dias para indenizar, em valores fixados em cruzeiros reais em "
        "1993 e corrigidos pelo IGP.",
}
