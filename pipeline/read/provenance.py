"""Provenance: who published each source folder, what it is, of when, under which licence, and whether
it is fictional; and which tables each source covers.

A source folder declares itself in its ``datapackage.json`` ``sources`` (the first entry describes the
folder; data contract, "Coverage and provenance")::

    "sources": [{"name": "antt-quadro-de-horarios-2021", "title": "Quadro de horários 2021",
                 "publisher": "ANTT", "path": "https://...", "date": "2021",
                 "license": "...", "fictional": false}]

A folder without a descriptor, or whose descriptor declares no source, still builds: its provenance
reads "fonte não declarada" and it is not fictional. Fictional and real sources are never combined
(unless explicitly allowed, for tests), because a page could then mix invented acts with real ones.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from ..contract.identifiers import mask_cpf, slugify
from ..contract.settings import SettingsError
from ..contract.spelling import join

UNDECLARED = "fonte não declarada"
REPORT_NAME = "ingest-report.json"  # an ingested folder's report (pipeline/adapters writes it), published beside it


class SourceMixError(SettingsError):
    """A fictional source was given together with a real one."""


@dataclass(frozen=True)
class Source:
    """One source of the build: a folder, or the decree for the tables the project supplies."""

    id: str  # stable short name; published rows carry it in their ``fonte`` column
    pasta: str  # the folder's own name (never a path of the build machine)
    titulo: str = ""
    publicador: str = ""
    url: str = ""
    data: str = ""  # date of the data or of the extraction: AAAA, AAAA-MM or AAAA-MM-DD
    licenca: str = ""
    ficticia: bool = False
    declarada: bool = True
    relatorio: Path | None = field(default=None, compare=False)  # the adapter's ingest-report.json
    # the descriptor's keys whose text held a CPF, masked here (LGPD); validation refuses or warns
    mascarados: tuple[str, ...] = field(default=(), compare=False)
    # the nightly job could not update the source (pipeline/nightly/__init__.py): when, why, and since when this copy
    # is the one it has (its descriptor's "x-atualizacao-falhou": {"em", "motivo", "copia_de"})
    falha_em: str = ""
    falha_motivo: str = ""
    copia_de: str = ""
    # the months of a monthly series its catalogue lacks (the nightly job: descriptor's "x-lacunas", AAAA-MM)
    lacunas: tuple[str, ...] = ()
    # the regime its records belong to where the table does not say (descriptor's "x-regime": REGIMES); "" not said
    regime: str = ""

    @property
    def lacunas_br(self) -> str:
        """"" with no gap; else "faltam os meses 08/2026 e 10/2026 no catálogo da fonte"."""
        if not self.lacunas:
            return ""
        months = [period_br(m) for m in self.lacunas]
        return f"{'falta o mês' if len(months) == 1 else 'faltam os meses'} {join(months)} no catálogo da fonte"

    @property
    def desatualizada(self) -> str:
        """"" when the source is up to date; else the sentence pages add to its name: "cópia de 28/11/2026: a
        atualização de 01/12/2026 falhou (o servidor respondeu HTTP 503)"."""
        if not self.falha_em:
            return ""
        copy = f"cópia de {period_br(self.copia_de)}: " if self.copia_de else ""
        why = f" ({self.falha_motivo})" if self.falha_motivo else ""
        return f"{copy}a atualização de {period_br(self.falha_em)} falhou{why}"

    @property
    def nome_com_data(self) -> str:
        """How a page names the source and the date of its data, and says when its update failed."""
        if not self.declarada:
            return self.rotulo
        stale = f"; {self.desatualizada}" if self.falha_em else ""
        gaps = f"; {self.lacunas_br}" if self.lacunas else ""
        return f"{self.rotulo} (dados de {self.data_br}{stale}{gaps})"

    @property
    def rotulo(self) -> str:
        """How pages name the source: "ANTT, Quadro de horários 2021" or "fonte não declarada (pasta x)"."""
        if not self.declarada:
            return f"{UNDECLARED} (pasta {self.pasta})"
        return ", ".join(x for x in (self.publicador, self.titulo) if x) or self.id

    @property
    def data_br(self) -> str:
        """The data's date in pt-BR form (2021, 06/2021 or 30/06/2021); "data não informada" when unknown."""
        parts = self.data.split("-") if self.data else []
        return "/".join(reversed(parts)) if parts else "data não informada"

    def as_descriptor(self) -> dict:
        """The source as an entry of the published ``datapackage.json`` ``sources``."""
        d = {"name": self.id, "title": self.rotulo}
        if self.url:
            d["path"] = self.url
        d.update({"publisher": self.publicador, "date": self.data, "license": self.licenca,
                  "fictional": self.ficticia, "declared": self.declarada})
        if self.falha_em:
            d[STALE] = {"em": self.falha_em, "motivo": self.falha_motivo, "copia_de": self.copia_de}
        if self.lacunas:
            d[GAPS] = list(self.lacunas)
        if self.regime:
            d[REGIME_KEY] = self.regime
        return d


# The regimes a record may belong to: the one Decreto nº 952/1993 described (revoked by Decreto nº 2.521/1998), or
# the one that replaced it, to which no rule of the decree applies. A table of one regime only says so in the
# schema (``x-regime`` of the resource: outorgas are the decree's, Monitriip's tickets the later regime's); the
# tables both regimes have (lines, timetables, carriers, sections) take their source's ``x-regime``. A record
# whose regime neither says is said to be of none.
DECREE_REGIME, LATER_REGIME = "decreto-952-1993", "posterior"
REGIMES = (DECREE_REGIME, LATER_REGIME)
REGIME_KEY = "x-regime"


def regimes_of(table_regime: str, source_regimes) -> set[str]:
    """The regimes of a table's records: the table's own when the schema gives one, else its sources'."""
    if table_regime in REGIMES:
        return {table_regime}
    return {r for r in source_regimes if r in REGIMES}


def table_regimes(sources_of: dict[str, list[str]], table_regime: dict[str, str],
                  source_regime: dict[str, str]) -> dict[str, set[str]]:
    """Each table some source supplies (``sources_of``: table -> source ids), with the regimes of its records
    (:func:`regimes_of`): the schema's ``table_regime``, else the ``source_regime`` of its sources."""
    return {name: regimes_of(table_regime.get(name, ""), [source_regime.get(i, "") for i in ids])
            for name, ids in sources_of.items() if ids}


def regime_sentence(regimes: dict[str, set[str]], labels: dict[str, str]) -> str:
    """What a page or a file says of the regime of its records, ``regimes`` being each covered table's
    (:func:`regimes_of`) and ``labels`` how a sentence names a table ("tarifas máximas"): the records of
    the decree's regime, with its revocation; those of the regime that replaced it, to which no rule of the
    decree applies; the tables named when the sentence is not about every one; "" when no table's regime is
    known (the page then says only that the decree was revoked: :data:`REVOKED`)."""
    decree = [labels[t] for t, r in regimes.items() if DECREE_REGIME in r]
    later = [labels[t] for t, r in regimes.items() if LATER_REGIME in r]
    whole = not any(not r for r in regimes.values())
    if decree and later:
        return (f"Os registros de {join(decree)} seguem o regime descrito pelo Decreto nº 952/1993, revogado pelo "
                f"Decreto nº 2.521/1998, e o portal não apresenta o decreto como lei em vigor; os de {join(later)} "
                "são do regime que o substituiu, ao qual nenhuma regra do decreto se aplica.")
    if decree:
        which = "Os registros" if whole else f"Os registros de {join(decree)}"
        return (f"{which} seguem o regime descrito pelo Decreto nº 952/1993, revogado pelo Decreto nº 2.521/1998: "
                "o portal os publica e não apresenta o decreto como lei em vigor.")
    if later:
        which = "Os registros" if whole else f"Os registros de {join(later)}"
        return (f"{which} são do regime que substituiu o Decreto nº 952/1993 (revogado pelo Decreto nº 2.521/1998): "
                "nenhuma regra do decreto se aplica a eles.")
    return ""


def regime_phrase(regimes: dict[str, set[str]]) -> str:
    """The short form, after a list of what the site holds: "registros do regime que substituiu o Decreto nº
    952/1993"; "" when no table's regime is known."""
    found = set().union(*regimes.values()) if regimes else set()
    if found == {DECREE_REGIME}:
        return "registros do regime do Decreto nº 952/1993, revogado em 1998"
    if found == {LATER_REGIME}:
        return "registros do regime que substituiu o Decreto nº 952/1993"
    if found:
        return "registros do regime do Decreto nº 952/1993 (revogado em 1998) e do que o substituiu"
    return ""


# how a sentence that applies a rule of the decree names it: the rule of 1993, never the law of today
BY_THE_DECREE = "pelas regras do Decreto nº 952/1993, revogado em 1998"

# what every page says of the decree whatever its records are: it is published as a text, not as the law in force
REVOKED = ("O Decreto nº 952/1993 foi revogado pelo Decreto nº 2.521/1998; o portal publica o seu texto e não o "
           "apresenta como lei em vigor.")

STALE = "x-atualizacao-falhou"  # a source entry's key: the nightly job kept its last good copy (pipeline/nightly/__init__.py)
GAPS = "x-lacunas"  # a source entry's key: the months of its series its catalogue lacks (pipeline/nightly/__init__.py)
_MONTH = re.compile(r"[0-9]{4}-(0[1-9]|1[0-2])\Z")
_DAY = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}\Z")


def period_br(day: str) -> str:
    """A date or period (AAAA, AAAA-MM, AAAA-MM-DD) as pt-BR writes it: 2021, 08/2026, 30/06/2021."""
    return "/".join(reversed(day.split("-"))) if day else ""


# The tables the project supplies itself when no folder has them (art. 78 of the decree).
DECREE_SOURCE = Source(
    id="decreto-952-1993",
    pasta="content/legal",
    titulo="Decreto nº 952/1993, art. 78 (enquadramentos)",
    publicador="Presidência da República",
    url="https://www.planalto.gov.br/ccivil_03/decreto/antigos/d0952.htm",
    data="1993-10-08",
    licenca="Ato oficial, sem proteção de direito autoral (Lei nº 9.610/1998, art. 8º IV)",
)

# a source's date: AAAA, AAAA-MM or AAAA-MM-DD (also --data-referencia, pipeline/adapters)
SOURCE_DATE = re.compile(r"[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?\Z")


def _descriptor(folder: Path) -> dict | None:
    path = folder / "datapackage.json"
    if not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) else None


def read_source_info(folder: Path) -> Source:
    """The provenance a folder declares (its descriptor's first ``sources`` entry)."""
    folder = Path(folder)
    pasta = folder.resolve().name or "pasta"
    desc = _descriptor(folder)
    sources = desc.get("sources") if desc else None
    entry = sources[0] if isinstance(sources, list) and sources and isinstance(sources[0], dict) else None
    if entry is None:
        return Source(id=slugify(f"nao-declarada-{pasta}") or "nao-declarada", pasta=pasta, declarada=False,
                      relatorio=_report(folder))

    def text(key: str) -> str:
        value = entry.get(key, "")
        return " ".join(str(value).split()) if isinstance(value, (str, int, float)) else ""

    licence = entry.get("license", "")
    if isinstance(licence, dict):
        licence = licence.get("title") or licence.get("name") or ""
    date = text("date")
    stale = entry.get(STALE) if isinstance(entry.get(STALE), dict) else {}

    def stale_text(key: str, day: bool = False) -> str:
        value = " ".join(str(stale.get(key, "")).split())[:300] if isinstance(stale.get(key), str) else ""
        return value if not day or _DAY.match(value) else ""

    return Source(
        id=slugify(text("name") or text("title") or pasta) or "fonte",
        pasta=pasta,
        titulo=text("title"),
        publicador=text("publisher"),
        url=text("path") if text("path").startswith(("http://", "https://")) else "",
        data=date if SOURCE_DATE.match(date) else "",
        licenca=" ".join(str(licence).split()),
        ficticia=entry.get("fictional") is True,
        relatorio=_report(folder),
        falha_em=stale_text("em", day=True),
        falha_motivo=stale_text("motivo") if stale_text("em", day=True) else "",
        copia_de=stale_text("copia_de", day=True),
        lacunas=tuple(m for m in (entry.get(GAPS) if isinstance(entry.get(GAPS), list) else [])[:240]
                      if isinstance(m, str) and _MONTH.match(m)),
        regime=entry.get(REGIME_KEY) if entry.get(REGIME_KEY) in REGIMES else "",
    )


def _report(folder: Path) -> Path | None:
    path = folder / REPORT_NAME
    return path if path.is_file() else None


def _unique(name: str, taken: set[str], suffix: str) -> str:
    candidate, n = name, 2
    while candidate in taken:
        candidate, n = name + suffix.format(n), n + 1
    return candidate


# The descriptor key each published field of a Source comes from (named in the problems about it).
_KEYS = {"id": "sources[0].name", "pasta": "(nome da pasta)", "titulo": "sources[0].title",
         "publicador": "sources[0].publisher", "url": "sources[0].path", "data": "sources[0].date",
         "licenca": "sources[0].license"}


def _masked(s: Source) -> Source:
    """``s`` with every CPF in its texts masked (any shape: ``identifiers.cpf_spans``), and the keys it
    was found in listed in ``mascarados``: a source's own metadata reaches every page and download."""
    found, changes = [], {}
    for name, key in _KEYS.items():
        value = getattr(s, name)
        masked = mask_cpf(value)
        if masked != value:
            found.append(key)
            changes[name] = slugify(masked) or "fonte" if name == "id" else masked
    return Source(**{**s.__dict__, **changes, "mascarados": tuple(found)}) if found else s


def sources_of(folders: list[Path], *, allow_mixed: bool = False) -> list[Source]:
    """Each folder's :class:`Source`, CPFs masked, ids made unique in folder order; refuses fictional
    with real."""
    out: list[Source] = []
    for folder in folders:
        s = _masked(read_source_info(folder))
        sid = _unique(s.id, {o.id for o in out}, "-{}")
        pasta = _unique(s.pasta, {o.pasta for o in out}, " ({})")
        out.append(Source(**{**s.__dict__, "id": sid, "pasta": pasta}))
    fictional = [s for s in out if s.ficticia]
    real = [s for s in out if not s.ficticia]
    if fictional and real and not allow_mixed:
        f, r = fictional[0], real[0]
        raise SourceMixError(
            f'a pasta "{f.pasta}" é fictícia ({f.rotulo}) e a pasta "{r.pasta}" não é ({r.rotulo}): '
            "dados fictícios nunca são combinados com dados reais; gere o site de cada uma separadamente "
            "(para testes, --permitir-ficticios-com-reais aceita a mistura e mantém o aviso de dados fictícios)"
        )
    return out
