"""Issue 25: the calculators of /direitos/ and the poster of art. 34, as a passenger sees them.

The calculators answer by the rules of Decreto nº 952/1993 (revoked by Decreto nº 2.521/1998), in the past or
the conditional, citing each article; they read money and weights as typed in Brazil and show the arithmetic
done. pipeline/legal/passageiros.py holds the reference (parse_reais, parse_kg, parse_age,
excess_baggage_account), the refusals (MESSAGES) and the worked examples with the page's answers word for word
(WORKED_EXAMPLES): the fast tests check them against the Python, the browser tests type them into the page
(theme/static/js/calculadoras.js) in Chromium. The poster is printed to PDF in A4 and in A3: one sheet each.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import ROUND_HALF_UP, Decimal

import pytest
from conftest import page_text

from pipeline import PROJECT_ROOT
from pipeline.contract import spelling
from pipeline.legal import passageiros as p

SCRIPT = PROJECT_ROOT / "theme" / "static" / "js" / "calculadoras.js"
BAGGAGE = p.WORKED_EXAMPLES["calc-bagagem"]
REFUND = p.WORKED_EXAMPLES["calc-desistencia"]
CHILD = p.WORKED_EXAMPLES["calc-crianca"]


def br(value: Decimal, places: int = 0) -> str:
    """A number as the calculators write it: pt-BR, thousands grouped, trailing zeros dropped down to
    ``places`` (``Decimal("0.60250")`` -> ``0,6025``; ``Decimal("4.000000"), 2`` -> ``4,00``)."""
    text = format(value.normalize(), "f")
    whole, _, fraction = text.partition(".")
    fraction = fraction.ljust(places, "0")
    whole = f"{int(whole):,}".replace(",", ".")
    return f"{whole},{fraction}" if fraction else whole


def from_br(text: str) -> Decimal:
    return Decimal(text.replace(".", "").replace(",", "."))


# --- the Python side (fast) ------------------------------------------------------------------------------


@pytest.mark.parametrize("typed, value", p.TYPED_REAIS)
def test_money_as_typed_in_brazil_is_read(typed, value):
    assert p.parse_reais(typed) == value


@pytest.mark.parametrize("typed, message", p.REFUSED_REAIS)
def test_what_is_not_money_is_refused_in_pt_br(typed, message):
    with pytest.raises(p.InvalidInput) as refused:
        p.parse_reais(typed)
    assert str(refused.value) == message


def test_the_refusals_say_what_to_type():
    assert "“abc” não é um valor em reais" in p.MESSAGES["reais"].format(typed="abc")
    assert "por exemplo 120,50 ou R$ 1.234,56" in p.MESSAGES["reais"]
    assert "“120.50” se escreve 120,50" in dict(p.REFUSED_REAIS)["120.50"]
    assert dict(p.REFUSED_REAIS)["R$ 0,00"] == "O preço da passagem convencional deve ser maior que zero."


@pytest.mark.parametrize("typed, where, message", p.REFUSED_KG)
def test_what_is_not_a_weight_is_refused(typed, where, message):
    with pytest.raises(p.InvalidInput) as refused:
        p.parse_kg(typed, where)
    assert str(refused.value) == message


def test_weights_as_typed_are_read():
    assert p.parse_kg("32,5", "no bagageiro") == Decimal("32.5")
    assert p.parse_kg(" 38 kg ", "no bagageiro") == Decimal("38")
    assert p.parse_kg("1.000", "no bagageiro") == Decimal("1000")
    assert p.parse_kg("0,250", "no porta-embrulhos") == Decimal("0.25")
    assert p.parse_age("4 anos") == 4 and p.parse_age("0") == 0
    for typed in ("-2", "4,5", "abc", "131"):
        with pytest.raises(p.InvalidInput, match="anos completos"):
            p.parse_age(typed)


N = r"\d{1,3}(?:\.\d{3})*(?:,\d+)?"  # a pt-BR number
ACCOUNT = re.compile(rf"Conta: (?P<kg>{N}) kg × R\$ (?P<por_kg>{N}) por quilo \((?P<pct>{N})% de R\$ (?P<preco>{N})\) "
                     rf"= R\$ (?P<conta>{N})(?P<resto>.*)$")


@pytest.mark.parametrize("example", BAGGAGE, ids=lambda e: f"{e['preco']}|{e['bagageiro']}|{e['porta_embrulhos']}")
def test_baggage_answers_add_up_and_agree_with_the_python(example):
    fare = p.parse_reais(example["preco"])
    hold, cabin = p.parse_kg(example["bagageiro"], "no bagageiro"), p.parse_kg(example["porta_embrulhos"], "no porta-embrulhos")
    account = p.excess_baggage_account(fare, hold, cabin)
    assert account["maximo"] == example["maximo"] == p.excess_baggage(fare, hold, cabin)["maximo"]
    text = example["resposta"]
    assert text.startswith("Pelas regras de 1993 (art. 65, ") and "pode cobrar" not in text
    if account["excesso_kg"] == 0:
        assert "não haveria nada a pagar" in text and f"{br(hold)} kg no bagageiro" in text
        return
    assert f"no máximo R$ {br(account['maximo'], 2)} pelo excesso de bagagem." in text
    if account["bagageiro_kg"]:
        assert f"{br(account['bagageiro_kg'])} kg no bagageiro ({br(hold)} kg − {p.HOLD_KG} kg de franquia)" in text
    if account["porta_embrulhos_kg"]:
        assert f"{br(account['porta_embrulhos_kg'])} kg no porta-embrulhos ({br(cabin)} kg − {p.CABIN_KG} kg" in text
    # the figures shown multiply to the product shown, and the rounding stated gives the result shown
    shown = ACCOUNT.search(text)
    assert shown, text
    kg, per_kg, fare_shown, product = (from_br(shown[k]) for k in ("kg", "por_kg", "preco", "conta"))
    assert (kg, per_kg, fare_shown, product) == (account["excesso_kg"], account["por_kg"], fare, account["conta"])
    assert from_br(shown["pct"]) / 100 == p.EXCESS_RATE and fare_shown * p.EXCESS_RATE == per_kg
    assert kg * per_kg == product
    rounded = product.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if rounded == product:
        assert shown["resto"] == ", sem arredondamento."
    else:
        assert shown["resto"] == f"; arredondado ao centavo (meio centavo ou mais, para cima): R$ {br(rounded, 2)}."
    assert rounded == account["maximo"]


def test_the_issue_example_shows_the_per_kilo_price_with_the_precision_used():
    """The answer's figures are those art. 65 gives for the example (excess_baggage_account), the price per
    kilo with every digit used (0,6025, not 0,60); the browser tests type the same example into the page."""
    example = BAGGAGE[0]
    account = p.excess_baggage_account(p.parse_reais(example["preco"]), p.parse_kg(example["bagageiro"], "no bagageiro"),
                                       p.parse_kg(example["porta_embrulhos"], "no porta-embrulhos"))
    m = re.search(r"Conta: ([0-9,]+) kg × R\$ ([0-9.,]+) por quilo \(0,5% de R\$ [0-9.,]+\) = R\$ ([0-9.,]+);"
                  r".*: R\$ ([0-9.,]+)\.$", example["resposta"])
    assert m, example["resposta"]
    assert [from_br(g) for g in m.groups()] == [account["excesso_kg"], account["por_kg"], account["conta"],
                                                  account["maximo"]]
    assert m[2] == "0,6025" and m[4] == "1,21"


def test_weights_are_subtracted_as_decimals_not_floats():
    # 33.3 - 30 in floating point is 3.2999999999999972, and 0.16499999... would round to R$ 0,16
    assert p.excess_baggage("10", 33.3, 5)["maximo"] == Decimal("0.17")
    assert p.excess_baggage_account("10", "30.1", "0")["maximo"] == Decimal("0.01")  # half a centavo goes up


@pytest.mark.parametrize("example", REFUND, ids=lambda e: e["pedido"])
def test_refund_answers_agree_with_the_python(example):
    departure, asked = datetime.fromisoformat(example["partida"]), datetime.fromisoformat(example["pedido"])
    text = example["resposta"]
    if example["no_prazo"] is None:
        with pytest.raises(p.InvalidInput, match="posterior à partida"):
            p.may_refund(departure, asked)
        assert text == p.MESSAGES["aviso_depois"]
        return
    assert p.may_refund(departure, asked) is example["no_prazo"]
    deadline = p.refund_deadline(departure)
    assert f"até {spelling.day(deadline)}, {p.NOTICE_HOURS} horas antes da partida" in text
    assert text.startswith("No prazo, pelas regras de 1993 (art. 64)" if example["no_prazo"] else "Fora do prazo: ")
    assert "pelas regras de 1993 (art. 64)" in text


@pytest.mark.parametrize("example", CHILD, ids=lambda e: f"{e['idade']}|{e['poltrona']}")
def test_child_answers_agree_with_the_python(example):
    if example["gratis"] is None:
        with pytest.raises(p.InvalidInput) as refused:
            p.child_travels_free(p.parse_age(example["idade"]), example["poltrona"])
        assert str(refused.value) == example["resposta"] == p.MESSAGES["idade"]
        return
    assert p.child_travels_free(p.parse_age(example["idade"]), own_seat=example["poltrona"]) is example["gratis"]
    assert example["resposta"].startswith("Pelas regras de 1993 (art. 32, inciso XVII), ")
    assert ("viajaria sem pagar" in example["resposta"]) is example["gratis"]


def test_the_page_hands_the_script_the_rules_messages_and_grammar(site):
    """calculadoras.js keeps no copy of passageiros.MESSAGES nor of its number grammar: it reads them from the
    page, which renders them from passageiros.BROWSER (the browser tests then type the worked examples)."""
    import html as htmllib
    import json

    script = SCRIPT.read_text(encoding="utf-8")
    assert "Informe" not in script and "[0-9]{1,3}" not in script
    page = (site / "direitos" / "index.html").read_text(encoding="utf-8")
    section = re.search(r'<section[^>]*class="calculadoras"[^>]*>', page)[0]
    attrs = {k: htmllib.unescape(v) for k, v in re.findall(r'(data-[\w-]+)="([^"]*)"', section)}
    assert json.loads(attrs["data-mensagens"]) == p.MESSAGES
    assert re.compile(attrs["data-numero"]).pattern == p._NUMBER.pattern
    assert attrs["data-ponto-decimal"] == p._DOT_DECIMAL.pattern and attrs["data-idade"] == p._AGE.pattern


def test_rights_page_labels_the_calculators_as_the_1993_rules(site):
    html = (site / "direitos" / "index.html").read_text(encoding="utf-8")
    text = re.sub(r"\(\s+", "(", re.sub(r"\s+\)", ")", page_text(site / "direitos" / "index.html")))  # "( art. 65 )"
    assert "Calcule pelas regras de 1993" in text
    assert "Decreto nº 952/1993, revogado pelo Decreto nº 2.521/1998" in text
    for legend in ("Excesso de bagagem pelas regras de 1993 (art. 65)", "Desistir ou remarcar pelas regras de 1993 (art. 64)",
                   "Criança pagava? Regras de 1993 (art. 32, inciso XVII)"):
        assert legend in text
    assert "a empresa podia cobrar no máximo 0,5% do preço da passagem convencional" in text
    assert "arredonda o total ao centavo, com meio centavo ou mais para cima" in text
    calculators = html[html.index('id="calculadoras-titulo"'):html.index("</section>", html.index('id="calc-crianca"'))]
    assert calculators.count('aria-live="polite"') == 3
    for field in re.findall(r'<input id="([\w-]+)"', calculators):
        assert f'<label for="{field}">' in calculators, field


@pytest.mark.parametrize("formato, path", [("A4", "direitos/cartaz/index.html"), ("A3", "direitos/cartaz/a3/index.html")])
def test_poster_pages_ask_for_one_sheet_of_their_paper(site, formato, path):
    html = (site / path).read_text(encoding="utf-8")
    assert f"@page {{ size: {formato} portrait" in html
    text = page_text(site / path)
    assert f"esta página sai numa só folha {formato}" in text and "Decreto revogado." in text
    assert "Direitos e deveres do passageiro no Decreto nº 952/1993 (revogado)" in text


# --- the browser side (Chromium) ------------------------------------------------------------------------

# the fixtures browser and base_url come from tests/browser_support.py (conftest.py registers it): one
# Playwright session for every module; they find Chromium, or skip (fail in CI) as the other browser tests do
import browser_support  # noqa: E402
from browser_support import _open  # noqa: E402
from test_browser import _pdf_pages  # noqa: E402 - a plain function, no fixture

expect = getattr(browser_support, "expect", None)  # absent without playwright: then `browser` skips first

LABELS = {"preco": "Preço da passagem convencional (R$)", "bagageiro": "Peso no bagageiro (kg)",
          "porta_embrulhos": "Peso no porta-embrulhos (kg)", "partida": "Partida", "pedido": "Quando você avisa",
          "idade": "Idade (anos completos)", "poltrona": "Vai ocupar uma poltrona"}
BUTTONS = {"calc-bagagem": "Calcular", "calc-desistencia": "Verificar", "calc-crianca": "Verificar"}


@pytest.fixture
def rights(browser, base_url):
    tab = _open(browser, base_url)
    tab.page.goto("/direitos/")
    yield tab
    tab.page.context.close()


def answer(page, form_id: str, fields: dict):
    """Fill the fields by their labels, as a person does, submit, and return the form's <output>."""
    form = page.locator(f"#{form_id}")
    for name, value in fields.items():
        if name not in LABELS:
            continue
        field = form.get_by_label(LABELS[name], exact=True)
        if isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(value)
    form.get_by_role("button", name=BUTTONS[form_id]).click()
    return form.locator("output")


@pytest.mark.parametrize("form_id", list(p.WORKED_EXAMPLES))
@pytest.mark.browser
@pytest.mark.slow
def test_the_page_answers_the_worked_examples_word_for_word(rights, form_id):
    for example in p.WORKED_EXAMPLES[form_id]:
        expect(answer(rights.page, form_id, example)).to_have_text(example["resposta"])
    assert "NaN" not in rights.page.locator("main").inner_text() and rights.console_errors == []


@pytest.mark.browser
@pytest.mark.slow
def test_money_typed_as_in_brazil_is_accepted_and_the_rest_refused(rights):
    page = rights.page
    for typed, value in p.TYPED_REAIS:  # one kilogram over: the answer shows the fare as it was read
        out = answer(page, "calc-bagagem", {"preco": typed, "bagageiro": "31", "porta_embrulhos": "5"})
        expect(out).to_contain_text(f"(0,5% de R$ {br(value, 2)})")
        expect(out).to_contain_text("Pelas regras de 1993 (art. 65, parágrafo único), a empresa poderia cobrar no máximo")
    for typed, message in p.REFUSED_REAIS:
        expect(answer(page, "calc-bagagem", {"preco": typed})).to_have_text(message)
    for typed, where, message in p.REFUSED_KG:
        field = "bagageiro" if where == "no bagageiro" else "porta_embrulhos"
        other = "porta_embrulhos" if field == "bagageiro" else "bagageiro"
        expect(answer(page, "calc-bagagem", {"preco": "120,00", other: "0", field: typed})).to_have_text(message)
    assert rights.console_errors == []


@pytest.mark.browser
@pytest.mark.slow
def test_an_emptied_field_clears_the_result(rights):
    page = rights.page
    out = answer(page, "calc-bagagem", BAGGAGE[0])
    expect(out).to_have_text(BAGGAGE[0]["resposta"])
    page.get_by_label(LABELS["preco"], exact=True).fill("")
    expect(out).to_have_text("")
    page.locator("#calc-bagagem").get_by_role("button", name="Calcular").click()  # the browser asks for the fare
    expect(out).to_have_text("")
    expect(answer(page, "calc-bagagem", {"preco": "R$ 120,50"})).to_have_text(BAGGAGE[0]["resposta"])
    page.get_by_label(LABELS["bagageiro"], exact=True).fill("")
    expect(out).to_have_text("")

    out = answer(page, "calc-desistencia", REFUND[0])
    expect(out).to_have_text(REFUND[0]["resposta"])
    page.get_by_label(LABELS["pedido"], exact=True).fill("")
    expect(out).to_have_text("")

    out = answer(page, "calc-crianca", CHILD[0])
    expect(out).to_have_text(CHILD[0]["resposta"])
    page.get_by_label(LABELS["idade"], exact=True).fill("")
    expect(out).to_have_text("")
    assert rights.console_errors == []


# the sheet in PostScript points (PDF MediaBox), and the least body size the poster may print at: the
# largest that fits the whole transcription on one sheet, with a few per cent to spare for other fonts of
# Arial's metrics (8.4 pt and 12.2 pt fill the sheet with Liberation Sans; 14 pt would need 2.8 A4 sheets)
SHEETS = {"A4": ("/direitos/cartaz/", (595, 842), 8.2), "A3": ("/direitos/cartaz/a3/", (842, 1191), 11.6)}


@pytest.mark.parametrize("formato", list(SHEETS))
@pytest.mark.browser
@pytest.mark.slow
def test_the_poster_prints_on_one_sheet(browser, base_url, formato):
    path, (width, height), body_pt = SHEETS[formato]
    tab = _open(browser, base_url)
    page = tab.page
    try:
        page.goto(path)
        pdf = page.pdf(prefer_css_page_size=True, print_background=True)  # the page's own @page, as Chrome prints
        assert _pdf_pages(pdf) == 1
        boxes = {tuple(round(float(n)) for n in box.split()[2:]) for box in re.findall(rb"/MediaBox\s*\[([^\]]*)\]", pdf)}
        assert boxes == {(width, height)}
        page.emulate_media(media="print")
        poster = page.locator("article.cartaz")
        sizes = poster.locator(".decreto .caput, .decreto li, .decreto .paragrafo").evaluate_all(
            "els => els.map(e => parseFloat(getComputedStyle(e).fontSize) * 72 / 96)")  # CSS px -> pt
        assert sizes and min(sizes) >= body_pt - 0.01 and max(sizes) - min(sizes) < 0.01  # one body size
        declared = re.search(r"--cartaz-corpo: ([\d.]+)pt", page.content())[1]
        assert sizes[0] == pytest.approx(float(declared), abs=0.01)
        expect(page.locator(".acoes")).to_contain_text(f"corpo {declared.replace('.', ',')} pt")  # what the page says
        # the whole transcription is printed: the nine articles, their last words, and the revocation notice
        articles = poster.locator(".decreto .artigo")
        expect(articles).to_have_count(9)
        assert all(articles.nth(i).is_visible() for i in range(9))
        text = poster.inner_text()
        for label in ("Art. 32", "Art. 33", "Art. 35", "Art. 37", "Art. 65", "Art. 66", "Art. 67", "Art. 68", "Art. 69"):
            assert label in text
        assert "XIX – receber a importância paga" in text and "calculado pela Fundação Getúlio Vargas." in text
        assert poster.locator(".revogacao").is_visible() and not poster.locator(".acoes").is_visible()
        assert tab.console_errors == []
    finally:
        page.context.close()
