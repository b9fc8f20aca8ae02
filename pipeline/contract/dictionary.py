"""The data dictionary in words: what a field's type, constraints and codes mean, for the dictionary pages
(``/dados/<tabela>/``) and the dictionary sheet of each XLSX. Everything is read from the published
schema (``datapackage.json``); this module only says it in pt-BR.

The patterns the schema uses are said in words where this module knows them; any other pattern is
shown as it is, marked as a regular expression, so nothing is hidden.
"""

from __future__ import annotations

TYPES = {
    "string": "texto",
    "integer": "número inteiro",
    "number": "número",
    "money": "valor em reais (R$)",
    "boolean": "sim/não (true/false)",
    "date": "data (AAAA-MM-DD)",
    "datetime": "data e hora (AAAA-MM-DDTHH:MM:SS com o deslocamento do horário de Brasília, -03:00 ou -02:00)",
    "time": "hora (HH:MM)",
}

_UF = "AC|AL|AM|AP|BA|CE|DF|ES|GO|MA|MG|MS|MT|PA|PB|PE|PI|PR|RJ|RN|RO|RR|RS|SC|SE|SP|TO"
PATTERNS = {  # [0-9], not \d: a pattern admits ASCII digits only (\d would take any script's)
    r"^[0-9]{14}$": "14 algarismos, sem pontuação (CNPJ)",
    r"^([0-9]{2}-[0-9]{4}-[0-9]{2}|[A-Z]{4}[0-9]{7})$": "prefixo da linha: NN-NNNN-NN (ex.: 12-0140-00) ou quatro letras e "
                                            "sete algarismos (ex.: ABCD1234567)",
    f"^({_UF}|[A-Z]{{3}})$": "sigla de UF, ou código de três letras de país nas linhas internacionais",
    r"[0-9]{7}": "7 algarismos (código IBGE do município)",
    r"^78-(I|II|III|IV|V|VI)-[a-z]$": "78-<grupo em romanos>-<alínea>, ex.: 78-I-a (art. 78)",
    r"^[A-Z]{3}[0-9][A-Z0-9][0-9]{2}$": "placa: três letras, um algarismo, uma letra ou algarismo, dois algarismos "
                                   "(ex.: ABC1D23)",
}


MONEY = "money"  # the kind of a number the schema marks as an amount in reais ("x-moeda": "BRL")


def kind(field: dict) -> str:
    """The field's Table Schema type, or ``money`` for an amount in reais."""
    return MONEY if field.get("x-moeda") else field.get("type", "string")


def type_in_words(field: dict) -> str:
    return TYPES.get(kind(field), kind(field))


def labels(field: dict) -> list[tuple[str, str]]:
    """``(code, label)`` of each allowed value, in the schema's order."""
    return [(c["value"], c["label"]) for c in field.get("categories", [])]


def rules_in_words(field: dict) -> list[str]:
    """Each constraint of ``field`` as a short pt-BR sentence (foreign keys are the page's: they link)."""
    c = field.get("constraints") or {}
    out = []
    if c.get("required"):
        out.append("obrigatório")
    if c.get("unique"):
        out.append("único na tabela")
    if "pattern" in c:
        words = PATTERNS.get(c["pattern"])
        out.append(f"formato: {words}" if words else f"formato (expressão regular): {c['pattern']}")
    if "enum" in c and not field.get("categories"):
        out.append("um de: " + ", ".join(map(str, c["enum"])))
    elif "enum" in c:
        out.append("um dos códigos listados")
    if "minimum" in c:
        out.append(f"no mínimo {c['minimum']}")
    if "exclusiveMinimum" in c:
        out.append(f"maior que {c['exclusiveMinimum']}")
    if "maximum" in c:
        out.append(f"no máximo {c['maximum']}")
    if c.get("minLength") == 1 and not c.get("required"):
        out.append("não vazio")
    if field.get("x-juncao"):
        j = field["x-juncao"]
        out.append(f"copiado de {j['tabela']}.{j['coluna']} pelo campo {j['campo']}")
    if field.get("derived"):
        out.append("campo calculado pelo portal")
    return out


def example(field: dict, values) -> str:
    """The first non-empty value of the column (``values`` in the table's order), as the CSV shows it."""
    for v in values:
        if v is not None and v != "" and not (isinstance(v, float) and v != v):
            if kind(field) == "money":
                return f"{float(v):.2f}"
            if isinstance(v, bool):
                return "true" if v else "false"
            if kind(field) == "datetime" and hasattr(v, "hour"):
                from .clock import moment_text

                return moment_text(v)
            return v.isoformat() if hasattr(v, "isoformat") else str(v)
    return ""
