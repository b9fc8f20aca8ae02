"""pipeline.legal.decree: the parsed text of Decreto nº 952/1993 and its article template."""

from __future__ import annotations

import re

import pytest
from bs4 import BeautifulSoup
from jinja2 import Environment, FileSystemLoader

from pipeline import DECREE_PATH, PROJECT_ROOT
from pipeline.legal import enquadramentos
from pipeline.legal.decree import (
    RESTORED_INITIAL_O,
    RIGHTS_NOTICE_ARTICLES,
    Article,
    Block,
    Chapter,
    load_decree,
    parse_decree,
    plain_text,
    transcription,
)

RAW = DECREE_PATH.read_text(encoding="utf-8")
# Written out by hand so that the tests do not rely on the module's own numeral generator.
ROMANS = ["I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII", "XIII", "XIV",
          "XV", "XVI", "XVII", "XVIII", "XIX", "XX", "XXI", "XXII", "XXIII", "XXIV", "XXV"]


@pytest.fixture(scope="module")
def decree():
    return load_decree()


@pytest.fixture(scope="module")
def template():
    env = Environment(loader=FileSystemLoader(str(PROJECT_ROOT / "theme" / "templates")),
                      autoescape=True)
    return env.get_template("_article.html").module


def soup_of(html: str) -> BeautifulSoup:
    return BeautifulSoup(html, "html.parser")


# --- structure -------------------------------------------------------------------------------


def test_101_articles_numbered_in_order(decree):
    assert [a.number for a in decree.articles] == list(range(1, 102))
    assert [decree.article(n).number for n in (1, 50, 101)] == [1, 50, 101]
    with pytest.raises(KeyError):
        decree.article(102)


def test_article_labels_and_anchors(decree):
    # Ordinal up to the ninth article, cardinal from the tenth on.
    assert decree.article(1).label == "Art. 1º"
    assert decree.article(9).label == "Art. 9º"
    assert decree.article(10).label == "Art. 10"
    assert decree.article(101).label == "Art. 101"
    assert decree.article(29).anchor == "art-29"
    anchors = [a.anchor for a in decree.articles] + [b.anchor for a in decree.articles
                                                     for b in a.walk()]
    assert len(anchors) == len(set(anchors))


def test_15_chapters_match_the_page_index(decree):
    assert len(decree.chapters) == 15
    assert [c.number for c in decree.chapters] == list(ROMANS[:15])
    # The "Nesta página" line lists "CAPÍTULO I – Das Disposições Preliminares CAPÍTULO II – ...".
    index_line = next(line for line in RAW.splitlines() if line.startswith("CAPÍTULO I –"))
    index = re.findall(r"CAPÍTULO ([IVX]+) – \ue005?(.+?)\ue006?(?= CAPÍTULO |$)", index_line)
    assert [(c.number, c.title) for c in decree.chapters] == index
    assert decree.chapters[0].title == "Das Disposições Preliminares"
    assert [a.number for a in decree.chapters[0].articles] == [1, 2, 3]
    assert [a.number for a in decree.chapters[-1].articles] == list(range(93, 102))
    assert decree.chapter_of(78).number == "XIII"


def test_sections(decree):
    chapter_iv = decree.chapters[3]
    assert [(s.number, s.title) for s in chapter_iv.sections] == [
        ("I", "Das Disposições Gerais"),
        ("II", "Da Licitação para Outorga de Serviços"),
        ("III", "Dos Contratos"),
    ]
    assert [a.number for a in chapter_iv.sections[1].articles] == [19, 20, 21, 22]
    multas = decree.chapters[12].sections[1]
    assert (multas.title, [a.number for a in multas.articles]) == ("Das Multas", [78, 79])


def test_header_and_closing(decree):
    assert decree.title == "Decreto nº 952, de 7 de outubro de 1993"
    assert decree.ementa.startswith("Dispõe sobre a outorga de permissão e autorização")
    assert decree.preamble[0].startswith("O PRESIDENTE DA REPÚBLICA")
    assert decree.preamble[-1] == "DECRETA:"
    assert decree.closing[0].startswith("Brasília, 7 de outubro de 1993;")
    assert decree.closing[1:3] == ["ITAMAR FRANCO", "Alberto Goldman"]
    assert decree.closing[-1].startswith("Este texto não substitui o publicado no D.O.U.")
    # The page widget after the D.O.U. note is not part of the decree.
    assert not any("Remissões" in line for line in decree.closing)


def test_load_decree_is_cached(decree):
    assert load_decree() is decree


# --- articles named in the brief -------------------------------------------------------------


def test_art_3_has_25_incisos(decree):
    art = decree.article(3)
    assert [b.kind for b in art.blocks] == ["caput"]
    assert art.caput.text == "Para os fins deste Decreto, considera-se:"
    incisos = art.caput.children
    assert [b.label for b in incisos] == ROMANS
    assert {b.kind for b in incisos} == {"inciso"}
    assert incisos[0].text.startswith("sistema de transporte rodoviário interestadual")
    assert incisos[5].text.startswith("transporte rodoviário de passageiros com tráfego bilateral")
    # "XVIII - itinerário: ..." is the one written with a separator.
    assert incisos[17].text.startswith("itinerário: percurso")
    assert incisos[22].text.startswith("ponto de apoio:")
    assert incisos[24].text.startswith("bagageiro:")


def test_art_6_paragrafo_unico(decree):
    art = decree.article(6)
    assert [(b.kind, b.label) for b in art.blocks] == [("caput", ""),
                                                        ("paragrafo", "Parágrafo único")]
    single = art.blocks[1]
    assert single.text.startswith("Sem prejuízo do disposto neste artigo")
    assert [b.label for b in single.children] == ["I", "II"]
    assert "trinta dias" in single.children[0].text
    assert single.children[0].text.startswith("comunicadas")


def test_art_29_paragraphs(decree):
    art = decree.article(29)
    assert [b.label for b in art.paragraphs] == [f"§ {n}º" for n in range(1, 7)]
    first = art.paragraphs[0]
    assert first.text == "Incorre em pena de caducidade a transportadora que:"
    assert [b.label for b in first.children] == ROMANS[:7]
    assert all(not p.children for p in art.paragraphs[1:])


def test_art_78_groups_and_alineas(decree):
    groups = decree.article(78).caput.children
    assert [g.label for g in groups] == ROMANS[:6]
    assert [g.text for g in groups] == [f"Grupo {r}:" for r in ROMANS[:6]]
    assert [len(g.children) for g in groups] == [3, 6, 6, 9, 6, 13]
    group_vi = [a.label for a in groups[5].children]
    assert "k)" not in group_vi
    assert group_vi[9:11] == ["j)", "l)"]
    assert group_vi[-1] == "n)"
    assert {a.kind for g in groups for a in g.children} == {"alinea"}


def test_art_78_agrees_with_enquadramentos(decree):
    # pipeline.legal.enquadramentos reads art. 78 on its own; both readings must agree.
    ours = [(f"78-{g.label}-{a.label[0]}", g.label, a.text)
            for g in decree.article(78).caput.children for a in g.children]
    theirs = [(r["codigo"], r["grupo"], r["descricao"]) for r in enquadramentos.rows()]
    assert ours == theirs


def test_art_96_day_counting_rule(decree):
    art = decree.article(96)
    assert [b.kind for b in art.blocks] == ["caput"]
    assert art.caput.text == ("Na contagem dos prazos aludidos neste Decreto excluir-se-á o dia de "
                              "início e incluir-se-á o de vencimento.")


def test_other_label_forms(decree):
    # Art. 8: alíneas under incisos.
    inciso_ii = decree.article(8).caput.children[1]
    assert [a.label for a in inciso_ii.children] == ["a)", "b)", "c)", "d)"]
    # Art. 50: "V pontos de embarque..." (a space, not glued).
    assert decree.article(50).caput.children[4].text.startswith("pontos de embarque")
    # Arts. 58 to 72 open with "- " (the hyphen after "Art. N"); "§ 2º- Os terminais...".
    assert decree.article(58).caput.text.startswith("Os pontos de parada")
    assert decree.article(57).paragraphs[1].text.startswith("Os terminais rodoviários")
    assert decree.article(65).paragraphs[0].text.startswith("Excedida a franquia")
    # Art. 69, § 1º: "ICR$ 5.000,00" is inciso I, text "CR$ 5.000,00 ...".
    assert decree.article(69).paragraphs[0].children[0].text.startswith("CR$ 5.000,00")
    # Ordinary words starting with I are not incisos: art. 25 has only its caput.
    assert [b.kind for b in decree.article(25).blocks] == ["caput"]
    art_37 = decree.article(37)
    assert art_37.caput.text == "Incumbe à transportadora:"
    assert [b.label for b in art_37.caput.children] == ROMANS[:6]
    # The decree has no unlabelled line after a caput.
    assert not [b for a in decree.articles for b in a.walk() if b.kind == "texto"]


# --- no text lost ----------------------------------------------------------------------------


def _body_lines() -> list[str]:
    lines = [line.strip() for line in RAW.splitlines() if line.strip()]
    start = lines.index("DECRETA:")
    end = next(i for i, line in enumerate(lines) if line.startswith("Brasília, 7 de outubro de 1993"))
    return lines[start + 1:end]


def test_no_text_lost_or_altered(decree):
    headings, devices = [], []
    body = iter(_body_lines())
    for line in body:
        if re.fullmatch(r"(CAPÍTULO|SEÇÃO) [IVX]+", line):
            headings.append((line, next(body).replace("\ue005", "").replace("\ue006", "")))
        elif not re.fullmatch(r"Art\. \d+\.", line):
            devices.append(line)

    expected_headings = []
    for chapter in decree.chapters:
        expected_headings.append((f"CAPÍTULO {chapter.number}", chapter.title))
        for section in chapter.sections:
            expected_headings.append((f"SEÇÃO {section.number}", section.title))
    # Sections are listed after their chapter; the file has them in that order too.
    assert sorted(headings) == sorted(expected_headings)

    # Every device line, in order, is one block: its label, at most a separator, then the
    # block's text verbatim. So each line minus its label is some block's text, and vice versa.
    blocks = [b for a in decree.articles for b in a.walk()]
    assert len(blocks) == len(devices)
    for line, block in zip(devices, blocks):
        assert line.startswith(block.label), (line, block)
        rest = line[len(block.label):]
        verbatim = block.text[len(block.restored):]  # without the errata's restored "O"
        assert block.text.startswith(block.restored)
        assert re.fullmatch(r"\s*(?:-\s*)?" + re.escape(verbatim), rest), (line, block)
        assert block.text.strip() and block.text == block.text.strip()

    texts = {b.text[len(b.restored):] for b in blocks}
    for text in texts:
        assert text in RAW


# --- synthetic texts -------------------------------------------------------------------------

_SYNTHETIC = """Decreto nº 1, de 1 de janeiro de 2000

Dispõe sobre um teste.

O PRESIDENTE DA REPÚBLICA, no uso das atribuições,

DECRETA:

CAPÍTULO I

\ue005Do Teste\ue006

Art. 1.

Considera-se:

Iitem um;

IIitem dois;

IIIitem três;

IVitem quatro;

VIGrupo VI:

Art. 2.

Incumbe ao órgão fiscalizar.

Parágrafo únicoIncumbe também:

Iinformar;

IIVerificar, em maiúscula;

Art. 3.

Fica instituído o teste.

Incumbe ao órgão fiscalizá-lo.

Brasília, 1 de janeiro de 2000.
"""


def test_inciso_detection_follows_the_sequence():
    decree = parse_decree(_SYNTHETIC)
    assert decree.chapters[0].title == "Do Teste"
    art_1 = decree.article(1)
    assert [b.label for b in art_1.caput.children] == ["I", "II", "III", "IV"]
    # V was expected: "VIGrupo VI:" is neither inciso V ("IGrupo") nor VI; it is kept whole.
    assert [(b.kind, b.text) for b in art_1.blocks[1:]] == [("texto", "VIGrupo VI:")]
    art_2 = decree.article(2)
    # "Incumbe" after a caput that does not end with ":" is a caput, never inciso I.
    assert art_2.caput.text == "Incumbe ao órgão fiscalizar."
    single = art_2.blocks[1]
    assert (single.label, single.text) == ("Parágrafo único", "Incumbe também:")
    assert [(b.label, b.text) for b in single.children] == [("I", "informar;"),
                                                             ("II", "Verificar, em maiúscula;")]
    # A line after a caput without ":" opens no list: "Incumbe" stays whole, never "I" + "ncumbe".
    assert [(b.kind, b.label, b.text) for b in decree.article(3).blocks] == [
        ("caput", "", "Fica instituído o teste."),
        ("texto", "", "Incumbe ao órgão fiscalizá-lo."),
    ]


def test_parse_rejects_out_of_order_articles():
    with pytest.raises(ValueError, match="Art. 3 follows art. 1"):
        parse_decree(_SYNTHETIC.replace("Art. 2.", "Art. 3."))


# --- helpers ---------------------------------------------------------------------------------


def test_plain_text(decree):
    assert plain_text(decree.article(6)).splitlines() == [
        "Art. 6º",
        ("São consideradas como máximas as tarifas resultantes das propostas vencedoras em cada "
         "licitação."),
        ("Parágrafo único Sem prejuízo do disposto neste artigo, as transportadoras poderão "
         "praticar tarifas promocionais por linha, desde que:"),
        ("I comunicadas, com antecedência mínima de trinta dias, ao Departamento de Transportes "
         "Rodoviários, para registro;"),
        ("II não impliquem em quaisquer formas de abuso do poder econômico ou tipifiquem "
         "infrações às normas para a defesa da concorrência."),
    ]


def test_rights_notice_matches_art_34(decree):
    # Art. 34 lists the articles to post: "arts. 32, 33, 35, 37 e 65 a 69".
    caput = decree.article(34).caput.text
    m = re.search(r"arts\. (\d+), (\d+), (\d+), (\d+) e (\d+) a (\d+)", caput)
    *singles, first, last = map(int, m.groups())
    assert RIGHTS_NOTICE_ARTICLES == tuple(singles) + tuple(range(first, last + 1))
    posted = transcription(list(RIGHTS_NOTICE_ARTICLES))
    assert [a.number for a in posted] == [32, 33, 35, 37, 65, 66, 67, 68, 69]
    assert all(isinstance(a, Article) for a in posted)
    assert [a.number for a in transcription([96, 3])] == [96, 3]
    with pytest.raises(KeyError):
        transcription([0])


# --- template --------------------------------------------------------------------------------


def test_render_art_29(decree, template):
    soup = soup_of(str(template.render_article(decree.article(29))))
    section = soup.select_one("section#art-29")
    assert section is not None and "artigo" in section["class"]
    h3 = section.find("h3")
    assert section["aria-labelledby"] == h3["id"]
    link = h3.find("a")
    assert (link["href"], link.get_text()) == ("#art-29", "Art. 29")
    assert section.find("p", class_="caput").get_text().startswith("A inexecução total")
    labels = [p.strong.get_text() for p in section.find_all("p", class_="paragrafo")]
    assert labels == [f"§ {n}º" for n in range(1, 7)]
    incisos = section.select("ol.incisos > li")
    assert [li.select_one("span.rotulo").get_text() for li in incisos] == ROMANS[:7]
    assert incisos[1].get_text().startswith("II – paralisar o serviço")


def test_render_art_78_nests_alineas(decree, template):
    soup = soup_of(str(template.render_article(decree.article(78))))
    groups = soup.select("section#art-78 > ol.incisos > li")
    assert [len(li.select("ol.alineas > li")) for li in groups] == [3, 6, 6, 9, 6, 13]
    last = groups[5].select("ol.alineas > li")[-1]
    assert last["id"] == "art-78-inc-vi-al-n"
    assert last.select_one("span.rotulo").get_text() == "n)"


def test_render_escapes_text(template):
    art = Article(1, "Art. 1º", "art-1", [Block("caput", "", "<script>x</script> & co", [
        Block("inciso", "I", "<b>um</b>", anchor="art-1-inc-i")], anchor="art-1-caput")])
    html = str(template.render_article(art))
    assert "<script>" not in html and "<b>" not in html
    assert "&lt;script&gt;x&lt;/script&gt; &amp; co" in html
    assert soup_of(html).select_one("ol.incisos li").get_text() == "I – <b>um</b>"


def test_render_chapter_heading(decree, template):
    assert str(template.render_chapter_heading(decree.chapters[0])) == (
        '<h2 id="capitulo-i">CAPÍTULO I – Das Disposições Preliminares</h2>')
    heading = str(template.render_chapter_heading(Chapter("XII", "DA FISCALIZAÇÃO & <x>")))
    assert heading == '<h2 id="capitulo-xii">CAPÍTULO XII – DA FISCALIZAÇÃO &amp; &lt;x&gt;</h2>'


def test_errata_restores_the_initial_o_lost_by_the_source_copy(decree):
    assert decree.article(10).caput.text.startswith("O prazo das permissões")
    assert decree.article(41).caput.text.startswith("Ocorrendo quaisquer dos casos")
    assert decree.article(23).caput.text.startswith("Os contratos de permissão")
    assert decree.article(33).caput.text.startswith("O usuário dos serviços")  # on the rights page
    assert decree.article(40).caput.text.startswith("O Departamento de Transportes Rodoviários poderá")
    restored = [a.number for a in decree.articles if a.caput.restored]
    assert restored == sorted(RESTORED_INITIAL_O)
    # Every other caput starts as the decree's sentences do: upper case, a digit or "- ".
    assert all(not a.caput.text[:1].islower() for a in decree.articles)
