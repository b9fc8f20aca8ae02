"""The decree's rules, one small function each, citing its article.

``dates`` holds all the date arithmetic (art. 96; Código Civil art. 132 § 3; business days);
one module per table holds that table's derived fields. :mod:`pipeline.derive.findings` applies the
rules across tables.
"""

from datetime import date

# Decreto nº 952 was signed on 7 October 1993 and, by art. 100, took effect on its publication in the
# Diário Oficial da União of 8 October 1993. (The Planalto text's closing line reads "D.O.U. de
# 5.4.1993", a date before the signature, so it cannot be the publication: it is a slip of that copy.)
DECREE_PUBLICATION = date(1993, 10, 8)


def numbers() -> dict[str, int]:
    """The decree's numbers that pages state, by name, from the modules that apply them: templates
    take them from here (the global ``lei``) and never spell them."""
    from . import caducidades, infracoes, outorgas, passageiros, promocoes

    return {
        "permissao_anos": outorgas.PERMIT_YEARS,  # art. 10
        "emergencial_dias": outorgas.EMERGENCY_DAYS,  # art. 41
        "impedimento_meses": caducidades.BAR_MONTHS,  # art. 29 § 6
        "comunicacao_caducidade_dias": caducidades.NOTICE_DAYS,  # art. 29 § 3
        "antecedencia_promocao_dias": promocoes.NOTICE_DAYS,  # art. 6 sole paragraph I
        "defesa_dias_uteis": infracoes.DEFENCE_DAYS,  # art. 84 sole paragraph
        "recurso_dias_uteis": infracoes.APPEAL_DAYS,  # art. 92
        "franquia_bagageiro_kg": passageiros.HOLD_KG,  # art. 65 I
        "franquia_porta_embrulhos_kg": passageiros.CABIN_KG,  # art. 65 II
        "excesso_por_kg_milesimos": int(passageiros.EXCESS_RATE * 1000),  # art. 65 sole paragraph: 5 per mille
        "desistencia_horas": passageiros.NOTICE_HOURS,  # art. 64
        "crianca_gratis_anos": passageiros.CHILD_FREE_AGE,  # art. 32 XVII
    }
