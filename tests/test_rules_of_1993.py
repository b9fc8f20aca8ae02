"""Every sentence that applies a rule of Decreto nº 952/1993 to the records names it as the decree's rule, of 1993,
never as the law in force today (issue 35): "Tarifas máximas vigentes em 29/11/2026 pelas regras do Decreto nº
952/1993, revogado em 1998", not "Tarifas máximas em vigor em 29/11/2026". Read on every page of the sample,
whose records are dated 2018-2026: the sentences (paragraphs, captions, descriptions, list items, headings), not
the cells of a table (its caption or header says it) nor the decree's own text."""

from __future__ import annotations

import re

from bs4 import BeautifulSoup

from pipeline.read.provenance import BY_THE_DECREE

# words that state what a rule of the decree makes of a record today
APPLIES = re.compile(r"\b(vigentes?|em vigor|proíbe|impedid[ao]s?|vencid[ao]s?)\b", re.I)
# how such a sentence names the rule as the decree's, of 1993
NAMED = re.compile(r"952/1993|de 1993|revogad", re.I)
SENTENCES = ["p", "caption", "dd", "li", "h1", "h2", "h3", "title", "figcaption", "summary"]


def unnamed_rules(site) -> dict[str, str]:
    found = {}
    for page in sorted(site.rglob("*.html")):
        where = page.relative_to(site).as_posix()
        if where.startswith(("decreto/", "direitos/", "pagefind/")):  # the decree's own text, transcribed
            continue
        soup = BeautifulSoup(page.read_text(encoding="utf-8"), "html.parser")
        for finding in soup.select("section.achados li, section[aria-labelledby=lista-titulo] li"):
            finding.decompose()  # a finding's own text: its section says whose rule it applies
        for block in soup.find_all(SENTENCES):
            if block.find(SENTENCES) or block.find_parent("td"):
                continue
            text = " ".join(block.get_text(" ").split())
            if APPLIES.search(text) and not NAMED.search(text):
                found.setdefault(text, where)
    return found


def test_no_sentence_states_a_rule_of_1993_as_todays_law(sample_site):
    assert unnamed_rules(sample_site) == {}


def test_the_pages_name_the_rule_as_the_decrees(sample_site):
    line = " ".join(BeautifulSoup((sample_site / "linhas" / "03-0258-00" / "index.html").read_text(encoding="utf-8"),
                                  "html.parser").get_text(" ").split())
    assert f"Tarifas máximas vigentes em 29/11/2026 na linha 03-0258-00 {BY_THE_DECREE}" in line
    assert "em vigor em 29/11/2026 (" not in line
    findings = " ".join(BeautifulSoup((sample_site / "achados" / "index.html").read_text(encoding="utf-8"),
                                      "html.parser").get_text(" ").split())
    assert "Fatos nos dados que o Decreto nº 952/1993, revogado em 1998, proibia" in findings
    assert "que o decreto proíbe" not in findings


def test_the_rights_page_summarises_the_articles_as_the_rules_of_1993(sample_site):
    soup = BeautifulSoup((sample_site / "direitos" / "index.html").read_text(encoding="utf-8"), "html.parser")
    summaries = [" ".join(a.find("p").get_text(" ").split()) for a in soup.select("aside.resumo")]
    assert len(summaries) == 9
    assert all(s.startswith("Pelas regras de 1993, ") for s in summaries), summaries
    assert not any(re.search(r"\b(Você tem direito|É proibido|pode cobrar)\b", s) for s in summaries)
