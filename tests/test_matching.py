"""Issue 25: places, journeys and carriers found however they are typed (pipeline/places/matching.py).

One set of worked examples (pipeline/places/exemplos-busca.json, written by the project) runs through the
Python rule (fast) and through its browser twin theme/static/js/nomes.js in Chromium, which reads the
rule's constants from the published /busca/regras.json: both must give every example's answer."""

from __future__ import annotations

import json

import pytest

from pipeline.places import matching, municipalities

EXAMPLES = json.loads(matching.EXAMPLES.read_text(encoding="utf-8"))
PLACES, CASES = EXAMPLES["lugares"], EXAMPLES["casos"]


def outcome(found_place, journey, parte) -> dict:
    """What a case checks, from the rule's answers (the same shape from Python and from the browser)."""
    return {"ligacao": journey, "lugares": found_place["lugares"], "nivel": found_place["nivel"],
            "unico": found_place["unico"], "parte": parte}


def python_outcome(typed: str) -> dict:
    j = matching.find_journey(PLACES, typed)
    f = matching.find_place(PLACES, typed)
    parte = matching.rules()["partes"].get(f"{f.best['uf']}/{f.spelling}", "") if f.items else ""
    return outcome({"lugares": [p["chave"] for p in f.items], "nivel": f.level, "unico": f.unique},
                   [j[0].best["chave"], j[1].best["chave"]] if j else None, parte)


def check(case: dict, got: dict) -> None:
    typed = case["digitado"]
    if "de" in case:
        assert got["ligacao"] == [case["de"], case["para"]], typed
    elif "lugar" in case:
        assert got["ligacao"] is None, typed
        assert (got["lugares"][:1], got["unico"], got["nivel"]) == ([case["lugar"]], True, case["nivel"]), typed
        assert got["parte"] == case.get("parte", ""), typed
    elif "opcoes" in case:
        assert got["ligacao"] is None and not got["unico"], typed
        assert got["lugares"][:len(case["opcoes"])] == case["opcoes"], typed
    elif case.get("nada"):
        assert got["lugares"] == [] and got["ligacao"] is None, typed
    elif case.get("nada_ligacao"):
        assert got["ligacao"] is None, typed
    else:
        raise AssertionError(f"caso sem resposta esperada: {case}")


@pytest.mark.parametrize("case", CASES, ids=[c["digitado"] or "(vazio)" for c in CASES])
def test_the_rule_gives_each_worked_example(case):
    check(case, python_outcome(case["digitado"]))


def test_the_examples_cover_every_way_of_typing_the_issue_lists():
    typed = " | ".join(c["digitado"] for c in CASES)
    for form in ("Sao Paolo", "belo horisonte", "curitba", "brazilia", "BH", "Rio", "Sampa", "POA", "santa maria rs",
                 "São Paulo - SP", "sao paulo/sp", "Taguatinga", " para ", "de BH a Rio", " x ", " - ", "Valença"):
        assert form in typed, form


def test_every_nickname_names_a_real_municipality(tmp_path):
    assert set(matching.popular()) >= {"BH", "RIO", "SAMPA", "POA"}
    for chave in matching.popular().values():
        assert any(f"{uf.lower()}/" in chave for _, uf in municipalities().values())


def test_typing_errors_are_counted_as_a_person_makes_them():
    d = matching.distance
    assert d("CURITBA", "CURITIBA", 2) == 1  # a letter dropped
    assert d("PAOLO", "PAULO", 2) == 1  # changed
    assert d("GONTIGO", "GONTIJO", 2) == 1
    assert d("BARSILIA", "BRASILIA", 2) == 1  # two swapped
    assert d("XYZ", "BRASILIA", 2) == 3  # more than the limit: the limit plus one
    assert matching.allowed_edits("RIO") == 0 and matching.allowed_edits("PAOLO") == 1
    assert matching.allowed_edits("CURITBA") == 2


def test_a_carrier_is_found_by_a_brand_word_mistyped():
    carriers = [{"busca": ["EMPRESA GONTIJO DE TRANSPORTES LTDA", "GONTIJO"], "linhas": 50, "chave": "g"},
                {"busca": ["VIACAO GONTIJO FILHO LTDA"], "linhas": 2, "chave": "f"}]
    found = matching.rank(["GONTIGO"], carriers)
    assert [c["chave"] for c in found.items] == ["g", "f"] and found.level == matching.TYPO and found.unique


def test_the_published_constants_are_the_rules(site):
    published = json.loads((site / "busca" / "regras.json").read_text(encoding="utf-8"))
    assert published == json.loads(json.dumps(matching.rules()))
    assert published["apelidos"]["BH"] == "mg/belo-horizonte"
    assert published["partes"]["DF/TAGUATINGA"] == "Taguatinga (DF), região administrativa de Brasília"


# --- the browser twin -----------------------------------------------------------------------------------

_RUN = """([places, cases, rules]) => {
  const n = window.portal.nomes;
  return cases.map((c) => {
    const j = n.findJourney(places, c.digitado, rules), f = n.findPlace(places, c.digitado, rules);
    return {ligacao: j ? [j[0].items[0].chave, j[1].items[0].chave] : null, lugares: f.items.map((p) => p.chave),
            nivel: f.level, unico: f.unique, parte: n.part(f, rules)};
  });
}"""


@pytest.mark.browser
def test_the_browser_twin_gives_each_worked_example(tab):
    tab.page.goto("/busca/")
    rules = tab.page.evaluate("() => fetch('/busca/regras.json').then((r) => r.json())")
    got = tab.page.evaluate(_RUN, [PLACES, CASES, rules])
    for case, answer in zip(CASES, got):
        check(case, answer)
    carriers = [{"busca": ["EMPRESA GONTIJO DE TRANSPORTES LTDA", "GONTIJO"], "linhas": 50, "chave": "g"},
                {"busca": ["VIACAO GONTIJO FILHO LTDA"], "linhas": 2, "chave": "f"}]
    ranked = tab.page.evaluate("([c, r]) => window.portal.nomes.rank(['GONTIGO'], c, r).items.map((x) => x.chave)",
                               [carriers, rules])
    assert ranked == ["g", "f"]
    assert tab.console_errors == []
