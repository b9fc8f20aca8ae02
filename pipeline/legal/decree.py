"""The text of Decreto nº 952/1993, parsed into chapters, articles and their devices.

The source is ``content/legal/decreto-952-1993.txt``, a copy of the text of the official Planalto
page. In it every device sits on its own line, and the labels are glued to the text: incisos read
``Isistema de transporte...`` or ``VIGrupo VI:`` (a few ``XVIII - itinerário: ...``), alíneas
``a)descumprimento ...``, paragraphs ``§ 1ºIncorre ...`` and ``Parágrafo únicoSem prejuízo ...``.
This module separates the labels and keeps every text exactly as written (typos included); only
the separator between a label and its text (spaces, a hyphen) is dropped.

Incisos are found by sequence, not by shape: a line is an inciso only when it begins with the roman
numeral that comes next in the current list (``I`` right after a caput or paragraph that ends with
``:``, then ``II``, ``III``...). So an ordinary line such as ``Incumbe à transportadora:`` is never
read as inciso I, and ``VIGrupo VI:`` is inciso VI, not V followed by ``IGrupo``. Alíneas follow the
same rule with the letters of the legal alphabet, which has no ``k`` (see art. 78, Grupo VI, whose
alíneas run ``j)``, ``l)``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from .. import DECREE_PATH

BlockKind = Literal["caput", "paragrafo", "inciso", "alinea", "texto"]

# Art. 34 obliges the transportadora to post, where tickets are sold and at the boarding and
# landing terminals, a transcription of arts. 32, 33, 35, 37 and 65 to 69 of the decree.
RIGHTS_NOTICE_ARTICLES = (32, 33, 35, 37, 65, 66, 67, 68, 69)

# Letters used for alíneas. Brazilian legislative drafting of the time skips k, w and y
# (art. 78, Grupo VI, goes from j) to l)).
ALINEA_LETTERS = "abcdefghijlmnopqrstuvxz"

# The Planalto page wraps chapter and section titles in two private-use characters (U+E005 ...
# U+E006), markup residue that is not part of the decree's text.
_TITLE_MARKERS = dict.fromkeys(map(ord, "\ue005\ue006"))

# Errata of the source copy: in these articles the Planalto text lost the capital "O" that opens the
# caput ("Art. 10. O prazo ..." reads "prazo ..."; art. 41 "correndo" for "Ocorrendo"; arts. 23 and
# 39 "s contratos"/"s serviços" for "Os ..."; arts. 40 and 86 "Departamento" for "O Departamento").
# The parser restores it, unless the caput already starts with "O", and records it in
# ``Block.restored`` so that pages can say so.
RESTORED_INITIAL_O = {n: "O " for n in (10, 16, 20, 33, 40, 42, 51, 54, 56, 84, 86, 90, 92, 97)} | {
    23: "O", 39: "O", 41: "O"}  # "Os contratos", "Os serviços", "Ocorrendo"

_ARTICLE = re.compile(r"^Art\. (\d+)\.$")
_CHAPTER = re.compile(r"^CAPÍTULO ([IVXLC]+)$")
_SECTION = re.compile(r"^SEÇÃO ([IVXLC]+)$")
_ARTICLE_COUNT = re.compile(r"^(\d+) artigos$")
_CLOSING_START = re.compile(r"^Brasília, ")
_DOU_NOTE = re.compile(r"^Este texto não substitui o publicado no D\.O\.U\.")
# A label is followed by the text, directly or after a separator: spaces and/or a hyphen/dash.
_SEPARATOR = re.compile(r"^\s*(?:[-–—]\s*)?")
_PARAGRAPH = re.compile(r"^(§ \d+º|Parágrafo único)")
_ALINEA = re.compile(r"^([a-z])\)")
# Canonical roman numeral up to 399, matched greedily at the start of a line.
_ROMAN = re.compile(r"^C{0,3}(?:XC|XL|L?X{0,3})(?:IX|IV|V?I{0,3})")


def roman(n: int) -> str:
    """``4`` -> ``IV``: the numeral of the n-th inciso."""
    if not 0 < n < 400:
        raise ValueError(f"no inciso numeral for {n}")
    out = []
    for value, numeral in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                           (5, "V"), (4, "IV"), (1, "I")):
        count, n = divmod(n, value)
        out.append(numeral * count)
    return "".join(out)


def article_label(number: int) -> str:
    """``Art. 1º`` ... ``Art. 9º`` (ordinal), ``Art. 10`` onwards (cardinal), as laws write them."""
    return f"Art. {number}º" if number < 10 else f"Art. {number}"


@dataclass(frozen=True)
class Block:
    """One device of an article.

    ``kind`` is ``caput`` (the article's opening text, no label), ``paragrafo`` (``§ 1º``,
    ``Parágrafo único``), ``inciso`` (``I``, ``II``...), ``alinea`` (``a)``, ``b)``...) or ``texto``
    (an unlabelled line after the caput; the decree has none, kept for safety). ``children`` holds
    the incisos of a caput or paragraph and the alíneas of an inciso. ``anchor`` is a fragment id
    unique in the decree, e.g. ``art-29-par-1-inc-ii`` or ``art-78-inc-vi-al-n``.
    """

    kind: BlockKind
    label: str
    text: str
    children: list[Block] = field(default_factory=list)
    anchor: str = ""
    restored: str = ""  # text restored at the start (see RESTORED_INITIAL_O); "" when verbatim

    def walk(self) -> Iterable[Block]:
        """This block, then its descendants, in the decree's order."""
        yield self
        for child in self.children:
            yield from child.walk()


@dataclass(frozen=True)
class Article:
    """``Art. N``: its label as laws write it, its fragment id (``art-N``) and its blocks."""

    number: int
    label: str
    anchor: str
    blocks: list[Block] = field(default_factory=list)

    @property
    def caput(self) -> Block:
        return self.blocks[0]

    @property
    def paragraphs(self) -> list[Block]:
        return [b for b in self.blocks if b.kind == "paragrafo"]

    def walk(self) -> Iterable[Block]:
        """Every block of the article, depth first, in the decree's order."""
        for block in self.blocks:
            yield from block.walk()


@dataclass(frozen=True)
class Section:
    """``SEÇÃO N`` inside a chapter; ``articles`` are the same objects as in the chapter."""

    number: str
    title: str
    anchor: str
    articles: list[Article] = field(default_factory=list)


@dataclass(frozen=True)
class Chapter:
    """``CAPÍTULO N``: all its articles in order, and its sections when it has any."""

    number: str
    title: str
    articles: list[Article] = field(default_factory=list)
    sections: list[Section] = field(default_factory=list)

    @property
    def anchor(self) -> str:
        return f"capitulo-{self.number.lower()}"


@dataclass(frozen=True)
class Decree:
    """The whole decree. The object returned by :func:`load_decree` is shared: do not mutate it."""

    title: str
    ementa: str
    preamble: list[str]
    chapters: list[Chapter]
    closing: list[str]
    _by_number: dict[int, Article] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_number", {a.number: a for a in self.articles})

    @property
    def articles(self) -> list[Article]:
        """All the articles, in order (1 to 101)."""
        return [article for chapter in self.chapters for article in chapter.articles]

    def article(self, number: int) -> Article:
        """``Art. number``; ``KeyError`` when the decree has no such article."""
        try:
            return self._by_number[number]
        except KeyError:
            raise KeyError(f"Decreto nº 952/1993 has no art. {number}") from None

    def chapter_of(self, number: int) -> Chapter:
        """The chapter that holds ``Art. number``."""
        article = self.article(number)
        return next(c for c in self.chapters if any(a is article for a in c.articles))


def _split_label(line: str, label: str) -> str:
    """The text of ``line`` after ``label`` and its separator."""
    rest = line[len(label):]
    return rest[_SEPARATOR.match(rest).end():]


def _anchor_part(block_kind: str, label: str) -> str:
    if block_kind == "paragrafo":
        return "par-unico" if label == "Parágrafo único" else "par-" + label[2:-1]
    if block_kind == "inciso":
        return "inc-" + label.lower()
    return "al-" + label[0]


class _ArticleBuilder:
    """Reads the lines of one article, keeping track of the expected next labels."""

    def __init__(self, number: int) -> None:
        self.article = Article(number, article_label(number), f"art-{number}")
        self.parent: Block | None = None  # the caput or paragraph the incisos belong to
        self.inciso: Block | None = None  # the inciso the alíneas belong to
        self.paragraphs = 0

    def _new(self, kind: BlockKind, label: str, text: str, under: Block | None, restored: str = "") -> Block:
        # Incisos of the caput hang from the article itself: art-3-inc-xviii, art-29-par-1-inc-ii.
        base = self.article.anchor if under is None or under.kind == "caput" else under.anchor
        if kind == "caput":
            anchor = f"{base}-caput"
        elif kind == "texto":
            anchor = f"{base}-texto-{len(self.article.blocks)}"
        else:
            anchor = f"{base}-{_anchor_part(kind, label)}"
        block = Block(kind, label, text, anchor=anchor, restored=restored)
        (under.children if under is not None else self.article.blocks).append(block)
        return block

    def add(self, line: str) -> None:
        number = self.article.number
        if not self.article.blocks:
            # The caput. Arts. 58 to 72 keep the hyphen that followed "Art. N" ("- Os pontos...").
            caput = _split_label(line, "")
            restored = RESTORED_INITIAL_O.get(number, "")
            if caput.startswith("O"):  # a corrected source copy: nothing to restore
                restored = ""
            self.parent = self._new("caput", "", restored + caput, None, restored)
            self.inciso = None
            return

        if m := _PARAGRAPH.match(line):
            label = m[1]
            self.paragraphs += 1
            if label != "Parágrafo único" and label != f"§ {self.paragraphs}º":
                raise ValueError(f"art. {number}: {label} out of sequence")
            self.parent = self._new("paragrafo", label, _split_label(line, label), None)
            self.inciso = None
            return

        # An inciso only where a list is open (the caput or paragraph ends with ":", art. 3) or
        # already running, and only with the next numeral of that list.
        parent = self.parent
        if parent is not None and (parent.children or parent.text.endswith(":")):
            expected = roman(len(parent.children) + 1)
            if _ROMAN.match(line)[0] == expected:
                self.inciso = self._new("inciso", expected, _split_label(line, expected), parent)
                return

        inciso = self.inciso
        if inciso is not None and (m := _ALINEA.match(line)):
            position = len(inciso.children)
            if position < len(ALINEA_LETTERS) and m[1] == ALINEA_LETTERS[position]:
                label = m[0]
                self._new("alinea", label, _split_label(line, label), inciso)
                return

        # Nothing matched: keep the line as it is rather than lose it.
        self.parent = self.inciso = None
        self._new("texto", "", line, None)


def parse_decree(text: str) -> Decree:
    """Parse the decree's text (format of ``content/legal/decreto-952-1993.txt``)."""
    lines = [line.strip() for line in text.splitlines()]
    lines = [line for line in lines if line]
    try:
        start = lines.index("DECRETA:")
    except ValueError:
        raise ValueError("no 'DECRETA:' line; is this the text of the decree?") from None
    end = next((i for i in range(start, len(lines)) if _CLOSING_START.match(lines[i])), None)
    if end is None:
        raise ValueError("no closing 'Brasília, ...' line")

    header = lines[:start]
    title = next((line for line in header if line.startswith("Decreto nº")), "")
    ementa_at = next((i for i, line in enumerate(header) if line.startswith("Dispõe sobre")), None)
    if ementa_at is None:
        raise ValueError("no ementa ('Dispõe sobre ...') before 'DECRETA:'")
    ementa = header[ementa_at]
    preamble = header[ementa_at + 1:] + ["DECRETA:"]
    declared = next((int(m[1]) for line in header if (m := _ARTICLE_COUNT.match(line))), None)

    # The closing: place and date, signatures and the D.O.U. note. Whatever the page shows after
    # the note ("Remissões do artigo", a widget of the page) is not the decree's text.
    closing = []
    for line in lines[end:]:
        closing.append(line)
        if _DOU_NOTE.match(line):
            break

    chapters: list[Chapter] = []
    builder: _ArticleBuilder | None = None
    last_number = 0
    body = iter(lines[start + 1:end])
    for line in body:
        if m := _CHAPTER.match(line):
            chapter_title = next(body, "").translate(_TITLE_MARKERS).strip()
            chapters.append(Chapter(m[1], chapter_title))
            builder = None
        elif m := _SECTION.match(line):
            if not chapters:
                raise ValueError(f"{line!r} before any chapter")
            chapter = chapters[-1]
            section_title = next(body, "").translate(_TITLE_MARKERS).strip()
            anchor = f"{chapter.anchor}-secao-{m[1].lower()}"
            chapter.sections.append(Section(m[1], section_title, anchor))
            builder = None
        elif m := _ARTICLE.match(line):
            if not chapters:
                raise ValueError(f"{line!r} before any chapter")
            number = int(m[1])
            if number != last_number + 1:
                raise ValueError(f"Art. {number} follows art. {last_number}")
            last_number = number
            builder = _ArticleBuilder(number)
            chapters[-1].articles.append(builder.article)
            if chapters[-1].sections:
                chapters[-1].sections[-1].articles.append(builder.article)
        elif builder is None:
            raise ValueError(f"text outside any article: {line[:60]!r}")
        else:
            builder.add(line)

    decree = Decree(title, ementa, preamble, chapters, closing)
    count = len(decree.articles)
    if declared is not None and count != declared:
        raise ValueError(f"the page announces {declared} articles, the text has {count}")
    return decree


@functools.lru_cache(maxsize=4)
def load_decree(path: Path | str = DECREE_PATH) -> Decree:
    """The decree parsed from ``path`` (cached: the same object is returned on every call)."""
    return parse_decree(Path(path).read_text(encoding="utf-8"))


def plain_text(article: Article) -> str:
    """The article as plain text for search indexing: its label, then one block a line."""
    out = [article.label]
    for block in article.walk():
        out.append(f"{block.label} {block.text}" if block.label else block.text)
    return "\n".join(out)


def transcription(numbers: Iterable[int] = RIGHTS_NOTICE_ARTICLES,
                  decree: Decree | None = None) -> list[Article]:
    """The articles ``numbers``, in the order given (by default those art. 34 has posted)."""
    decree = decree or load_decree()
    return [decree.article(n) for n in numbers]


# Decreto nº 952/1993 was revoked by Decreto nº 2.521/1998. Every page that shows the decree, or rights taken
# from it, says so and never presents it as the law in force; which regime the site's records belong to is
# said per source (pipeline/read/provenance.py regime_sentence), not here.
REVOCATION = (
    "O Decreto nº 952/1993 foi revogado pelo Decreto nº 2.521, de 20 de março de 1998: o texto abaixo não é a lei "
    "em vigor. O rodapé de cada página diz de que regime são os registros deste site."
)

# Notes the portal adds under an article, by its number: editorial, never part of the decree's text.
EDITORIAL_NOTES = {
    69: "Valores em cruzeiros reais (CR$) de 1993, transcritos como publicados; o portal não oferece conversão "
        "para a moeda atual.",
}

