"""Names as people type them, matched to what they mean: a place (``sao paulo``, ``Sampa``, ``santa
maria rs``, ``curitba``), a journey between two (``sao paulo rio de janeiro``, ``de BH a Rio``,
``Goiânia - Brasília``) and a carrier (``gontigo``).

The rule lives here once. The browser's twin, ``theme/static/js/nomes.js``, applies it with the
constants of :func:`rules` (published as ``/busca/regras.json``) to ``/cidades/index.json``; the command
line (``python -m pipeline search``) applies it to the same lists, kept beside its Whoosh index. One set
of worked examples (``pipeline/places/exemplos-busca.json``) is run through both (tests/test_matching.py).

A typed name is compared word by word with every spelling of a record (the official name, the sources'
spellings, a reviewed nickname), all folded (:func:`pipeline.places.fold_name`). A match has a level: 0 a
spelling or nickname itself (``POA`` is Porto Alegre as much as Poá), 1 every word typed begins a word
of the spelling, 2 the same with a few typing errors in whole words (``allowed_edits``: none under 4
letters, one under 7, two from 7; two in all). Within a level: fewer errors first; then, for a
beginning, the spellings that begin with what was typed (``bras`` is Brasília before Assis Brasil), and
for a typing error, the spellings with fewer words left unmatched (``sao paolo`` is São Paulo before São
Paulo de Olivença); then the best served (lines serving a place, lines of a carrier); then the list's
own order (pt-BR collation). Mistyped names are offered only when nothing matches better ("você quis
dizer"). The best is the answer when nothing ties with it before service;
otherwise the person chooses, the best served first.
"""

from __future__ import annotations

import csv
import json
import re
import unicodedata
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from . import Place as _Place
from . import aliases, fold_name, journeys, municipalities, states

POPULAR = Path(__file__).parent / "populares.csv"
EXAMPLES = Path(__file__).parent / "exemplos-busca.json"

EXACT, PREFIX, TYPO = 0, 1, 2

# the 27 units of the federation: "santa maria rs" is Santa Maria in RS
UFS = ("AC", "AL", "AM", "AP", "BA", "CE", "DF", "ES", "GO", "MA", "MG", "MS", "MT", "PA", "PB", "PE", "PI",
       "PR", "RJ", "RN", "RO", "RR", "RS", "SC", "SE", "SP", "TO")
# between the two places of a journey, as words ("A para B", "de A a B": "a" only after a leading "de")
JOURNEY_WORDS = ("PARA", "ATE", "X")
# and as signs, written with spaces around ("A - B", "A → B", "A > B")
JOURNEY_SIGNS = ("-", "–", "—", "→", "->", ">", "=>")
# an article before a place's name in a journey ("de Juiz de Fora até o Rio"): dropped
ARTICLES = ("O", "A", "OS", "AS")
# (from this many letters, this many typing errors in a word): none below the first
EDITS = ((4, 1), (7, 2))
MAX_EDITS = 2  # in the whole of what was typed


# What the answers say where no line links two places. Art. 1 gave the União the interstate and
# international services only: a trip inside one state is the state's own intercity service.
MESSAGES = {
    "sem_linha": "Nenhuma linha das fontes liga {de} a {para}.",
    "mesmo_estado": ("{de} e {para} ficam no mesmo estado ({estado}): uma viagem entre elas é serviço intermunicipal, "
                     "regulado e fiscalizado pelo governo do estado, não pela União (o art. 1º do Decreto nº 952/1993 "
                     "tratava só dos serviços interestaduais e internacionais). As fontes deste site não o incluem: "
                     "procure o órgão de transporte do estado ({estado}) ou as rodoviárias."),
    "quis_dizer": "Você quis dizer {nome}?",
}


def no_line(de: dict, para: dict) -> str:
    """What to say where no line links two places (``/cidades/index.json`` entries); a same-state trip
    says whose service it is (:data:`MESSAGES`; nomes.js noLine() says the same)."""
    fill = {"de": f"{de['nome']} ({de['uf']})", "para": f"{para['nome']} ({para['uf']})",
            "estado": states().get(de["uf"], de["uf"])}
    same = " " + MESSAGES["mesmo_estado"].format(**fill) if de["uf"] == para["uf"] else ""
    return MESSAGES["sem_linha"].format(**fill) + same


@cache
def popular() -> dict[str, str]:
    """The reviewed nicknames (``BH``, ``Sampa``, ``POA``): folded nickname -> the place's ``chave``."""
    out = {}
    with open(POPULAR, encoding="utf-8", newline="") as fh:
        for row in csv.DictReader(fh):
            code = row["codigo_ibge"]
            if code not in municipalities():
                raise ValueError(f"{POPULAR}: {row['grafia']}: código IBGE {code} inexistente")
            name, uf = municipalities()[code]
            out[fold_name(row["grafia"])] = _Place(uf, name, code, "nome").chave
    return out


def rules() -> dict:
    """The constants the browser's twin reads (``/busca/regras.json``): nothing of the rule is restated there."""
    return {
        "ufs": list(UFS),
        "palavras_entre_lugares": list(JOURNEY_WORDS),
        "sinais_entre_lugares": list(JOURNEY_SIGNS),
        "artigos": list(ARTICLES),
        "edicoes": [list(e) for e in EDITS],
        "max_edicoes": MAX_EDITS,
        "apelidos": dict(sorted(popular().items())),
        "estados": states(),
        "mensagens": {**MESSAGES, **journeys.MESSAGES},
        "baldeacoes_mostradas": journeys.OFFERED,
        # a part of a municipality (DF region, district), as the answer names it: "UF/SPELLING" -> text
        "partes": {f"{a.uf}/{fold_name(a.grafia)}": a.parte for a in sorted(aliases().values(), key=lambda a: (a.uf, a.grafia))
                   if a.parte},
    }


def allowed_edits(word: str) -> int:
    allowed = 0
    for length, edits in EDITS:
        if len(word) >= length:
            allowed = edits
    return allowed


def distance(a: str, b: str, limit: int) -> int:
    """Typing errors between ``a`` and ``b`` (a letter added, dropped, changed, or two swapped: optimal
    string alignment), or ``limit + 1`` as soon as it is sure to be more than ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    previous2, previous = None, list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], previous2[j - 2] + 1)
        if min(row) > limit:
            return limit + 1
        previous2, previous = previous, row
    return previous[-1] if previous[-1] <= limit else limit + 1


def compare(typed: list[str], spelling: str) -> tuple[int, int, int] | None:
    """``(level, errors, rank within them)`` of the typed words against one folded spelling, or None:
    each typed word must begin a word of the spelling, or be a whole word of it mistyped within
    ``allowed_edits``. The rank: for a beginning, 0 when the spelling begins with what was typed; for a
    typing error, the words of the spelling left unmatched."""
    words = spelling.split()
    if typed == words:
        return EXACT, 0, 0
    errors = 0
    for w in typed:
        if any(n.startswith(w) for n in words):
            continue
        allowed = allowed_edits(w)
        best = min((distance(w, n, allowed) for n in words if allowed), default=allowed + 1)
        if best > allowed:
            return None
        errors += best
    if errors > MAX_EDITS:
        return None
    if errors:
        return TYPO, errors, max(len(words) - len(typed), 0)
    return PREFIX, 0, 0 if spelling.startswith(" ".join(typed)) else 1


@dataclass
class Found:
    """What a typed name matched: ``items`` best first; ``level`` of the best (None: nothing); ``unique``
    when nothing ties with the best; ``spelling``: the folded spelling the best matched through;
    ``uf``: the UF typed after the name, if any; ``initial``: the best is the spelling itself or begins
    with what was typed (``itapemirim`` is only a later word of Cachoeiro de Itapemirim)."""

    items: list = field(default_factory=list)
    level: int | None = None
    unique: bool = False
    spelling: str = ""
    uf: str | None = None
    initial: bool = False

    @property
    def best(self):
        return self.items[0] if self.items else None


def rank(typed: list[str], candidates, nicknames: dict[str, str] | None = None, uf: str | None = None) -> Found:
    """Rank ``candidates`` (dicts with ``busca``: folded spellings; ``linhas``: how much service (lines serving it); and,
    for places, ``chave``) against the typed words, as the module's docstring says."""
    nicknames = nicknames or {}
    nickname = nicknames.get(" ".join(typed))
    scored = []
    for position, c in enumerate(candidates):
        best = None
        for spelling in c["busca"]:
            key = compare(typed, spelling)
            if key is not None and (best is None or key < best[0]):
                best = (key, spelling)
        if nickname is not None and c.get("chave") == nickname and (best is None or best[0][0] > EXACT):
            best = ((EXACT, 0, 0), c["busca"][0])
        if best is not None:
            scored.append((best[0], -int(c.get("linhas") or 0), position, best[1], c))
    scored.sort(key=lambda s: s[:3])
    if scored and scored[0][0][0] < TYPO:  # a mistyped name is offered only when nothing else matches
        scored = [s for s in scored if s[0][0] < TYPO]
    if not scored:
        return Found(uf=uf)
    unique = len(scored) == 1 or scored[0][0] < scored[1][0]
    level, _, within = scored[0][0]
    return Found([s[4] for s in scored], level, unique, scored[0][3], uf, level == EXACT or (level == PREFIX and within == 0))


def rank_names(typed: str, entries: list[list], limit: int = 5) -> tuple[list[list], bool]:
    """The name entries (``[folded name, label, url, kind, lines]``: pipeline/site/names.py) that match
    ``typed``, best first, one per URL, and whether the best is a typing error ("você quis dizer")."""
    words = fold_name(typed).split()
    if not words:
        return [], False
    found = rank(words, [{"busca": [e[0]], "linhas": e[4] if len(e) > 4 else 0, "entry": e} for e in entries])
    seen, out = set(), []
    for hit in found.items:
        if hit["entry"][2] not in seen:
            seen.add(hit["entry"][2])
            out.append(list(hit["entry"]))
    return out[:limit], found.level == TYPO


def find_place(places: list[dict], typed: str) -> Found:
    """The places ``typed`` may mean: the whole text as a name, then (if better) its last word read as
    the UF (``santa maria rs``, ``São Paulo - SP``, ``cidade/UF``, ``cidade (UF)``)."""
    words = fold_name(typed).split()
    if not words:
        return Found()
    found = rank(words, places, popular())
    if len(words) > 1 and words[-1] in UFS:
        uf = words[-1]
        in_uf = rank(words[:-1], [p for p in places if p["uf"] == uf], popular(), uf)
        if in_uf.items and (not found.items or in_uf.level <= found.level):
            return in_uf
    return found


_SIGNS = "|".join(re.escape(s) for s in sorted(JOURNEY_SIGNS, key=len, reverse=True))
_WORDS = "|".join(JOURNEY_WORDS)


def _splits(text: str) -> tuple[list[tuple[str, str]], bool]:
    """Where ``text`` may divide into two places, and whether the person said so: by the words and signs
    people put between them, or a leading "de" before at least two more words ("de BH a Rio"); else
    every division between words ("sao paulo rio de janeiro")."""
    folded = fold_name(text)
    leading_de = folded.startswith("DE ") and len(folded.split()) > 2
    if leading_de:
        text = re.sub(r"^\s*de\s+", "", text, flags=re.I)
    words = _WORDS + ("|A" if leading_de else "")
    pattern = re.compile(rf"\s+(?:{_SIGNS})\s+|\s+(?:{words})\s+", re.I)
    # "até" is folded as ATE: compare on the folded text, keeping positions (fold keeps no accents)
    marked = [(text[:m.start()], text[m.end():]) for m in pattern.finditer(_plain(text))]
    if marked:
        return marked, True
    parts = text.split()
    return [(" ".join(parts[:k]), " ".join(parts[k:])) for k in range(1, len(parts))], leading_de


def _plain(text: str) -> str:
    """``text`` with accented letters replaced one for one by their base letter (positions kept)."""
    return "".join((unicodedata.normalize("NFKD", ch)[:1] or ch) if len(ch) == 1 else ch for ch in text)


def _unarticled(side: str) -> str:
    """One end of a journey without the article before it (``o Rio`` -> ``Rio``)."""
    words = side.split()
    return " ".join(words[1:]) if len(words) > 1 and fold_name(words[0]) in ARTICLES else side


def find_journey(places: list[dict], typed: str) -> tuple[Found, Found] | None:
    """Two places when ``typed`` is a journey (``A B``, ``A para B``, ``de A a B``, ``A x B``, ``A - B``),
    else None: never when the whole text is one place's name or nickname. Without a word or sign between
    them, both halves must be a name or nickname (level 0), not a beginning or a typing error."""
    whole = find_place(places, typed)
    if whole.items and whole.level == EXACT:
        return None
    splits, explicit = _splits(typed)
    best = None
    for left, right in splits:
        a, b = find_place(places, _unarticled(left)), find_place(places, _unarticled(right))
        if not (a.items and b.items):
            continue
        if not explicit and max(a.level, b.level) > EXACT:
            continue
        if a.best is b.best and a.unique and b.unique:
            continue
        score = (a.level + b.level, not (a.unique and b.unique))
        if best is None or score < best[0]:
            best = (score, a, b)
    return None if best is None else (best[1], best[2])


def example_places() -> list[dict]:
    """The places of the worked examples (``exemplos-busca.json``), as ``/cidades/index.json`` lists them."""
    return json.loads(EXAMPLES.read_text(encoding="utf-8"))["lugares"]
