"""The nightly job (``python -m pipeline nightly``, ``make nightly``): fetch every source listed in
``nightly.toml``, ingest what changed, validate and build, check every internal link, and only then
publish; a failed step publishes nothing and the last good site stays. A short summary (sources and
their dates, rows per table, errors, findings, timings) is written as a file and printed; on GitHub
Actions it also goes to the job's summary.

Each source is a fixed file or a dataset of the regulator's catalogue, whose page lists this month's file
(``pipeline/nightly/catalogue.py``); files come through ``pipeline/nightly/download.py`` (urllib3 with its ``Retry``, the
catalogue's ``robots.txt`` and crawl delay honoured). A source is updated only when its new files were
downloaded whole, ingested with rows, valid, and did not lose more than ``perda_maxima`` of the rows of
its last good copy (:func:`update`); otherwise that copy is published, and every page that shows its
data says of when it is and that tonight's update failed. The ETag, ``Last-Modified`` and SHA-256 of each
file are kept with the copy, so an unchanged source is neither downloaded again (HTTP 304) nor re-ingested.
"""

from __future__ import annotations

import io
import json
import re
import shutil
import tomllib
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from .. import PROJECT_ROOT
from ..read.provenance import period_br
from ..tools.folders import OWNED_MARKER, exclusive, overlap, refusal, swap_into_place
from ..tools.progress import LineProgress, Progress


class NightlyError(RuntimeError):
    """A step failed; the message (pt-BR) says which and why. Nothing was published."""


@dataclass(frozen=True)
class SourceSpec:
    """One source of ``nightly.toml`` (``[[fonte]]``): a fixed download (``url``), or a dataset's page in
    the regulator's catalogue (``pagina``) and the pattern of its file names (``arquivo``, the period in the
    groups ``mes`` and ``ano``), of which the ``meses`` newest periods are taken."""

    nome: str  # folder of its state and package under --state, and its name in the summary
    adaptador: str
    url: str = ""
    pagina: str = ""
    arquivo: str = ""
    meses: int = 1
    data_referencia: str = ""  # the data's date when neither the file name nor the server tells it
    fonte_url: str = ""  # the page that documents the source (default: the dataset's page, or the download)
    licenca: str = ""


@dataclass(frozen=True)
class NightlyConfig:
    sources: tuple[SourceSpec, ...]
    out: Path
    state: Path
    as_of: date
    base_path: str = ""
    site_url: str = ""
    timeout: float = 60.0  # seconds to connect and between bytes
    retries: int = 3
    backoff: float = 2.0  # seconds before the first retry, doubled each time
    max_bytes: int = 512 * 1024 * 1024
    max_seconds: float = 900.0  # the most one file may take to download
    perda_maxima: float = 0.25  # the share of its rows a source may lose against its last good copy
    contato: str = ""  # how the regulator may reach whoever runs the job (in the User-Agent)
    lenient: bool = False
    # the release the changes are computed against: the live site's /dados/ (a URL, on a fresh runner), or,
    # when not given, the site in --out if there is one
    previous: str = ""
    versions_url: str = ""  # where each release is kept outside the site (--versoes-url)
    # the hosts besides the sources' own (their pagina or url) that a download may be redirected to or
    # linked at: the catalogue's file storage (download.Client hosts)
    hosts_arquivos: tuple[str, ...] = ()

    def hosts(self) -> frozenset[str]:
        """Every host the job may ask anything of: each source's page or file, and ``hosts_arquivos``."""
        from urllib.parse import urlsplit

        named = {urlsplit(s.pagina or s.url).hostname or "" for s in self.sources}
        return frozenset(h.lower() for h in named | set(self.hosts_arquivos) if h)


_SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,62}\Z")
_URL = re.compile(r"https?://[^\s]+\Z")
_HOST = re.compile(r"(?=.{1,253}\Z)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*")
_PERIOD = re.compile(r"[0-9]{4}(-[0-9]{2}(-[0-9]{2})?)?\Z")


def _number(kind, low, high):
    def check(value):
        if isinstance(value, bool) or not isinstance(value, kind if kind is int else (int, float)):
            return "um número inteiro" if kind is int else "um número"
        if not low <= value <= high:
            return f"um número de {low} a {high}"
        return None
    return check


def _text(pattern: re.Pattern | None = None, shape: str = ""):
    def check(value):
        if not isinstance(value, str):
            return "um texto"
        if pattern is not None and not pattern.match(value):
            return shape
        return None
    return check


def _pattern(value):
    if not isinstance(value, str) or not value:
        return "uma expressão regular do nome do arquivo"
    try:
        compiled = re.compile(value)
    except re.error as exc:
        return f"uma expressão regular válida ({exc})"
    if "mes" in compiled.groupindex and "ano" not in compiled.groupindex:
        return 'uma expressão regular com o grupo "ano" junto do grupo "mes"'
    return None


# Every key nightly.toml may have, with what its value must be: any other key is an error naming it.
_JOB_KEYS = {
    "timeout": _number(float, 0.1, 3600), "retries": _number(int, 0, 10), "backoff": _number(float, 0, 600),
    "max_bytes": _number(int, 1, 64 * 1024 ** 3), "max_seconds": _number(float, 0.1, 86400),
    "perda_maxima": _number(float, 0, 1), "base_path": _text(), "site_url": _text(),
    "contato": _text(re.compile(r"[^\r\n()]{0,200}\Z"), "um texto curto, sem parênteses nem quebras de linha"),
    "lenient": lambda v: None if isinstance(v, bool) else "true ou false",
    "hosts_arquivos": lambda v: None if isinstance(v, list) and all(
        isinstance(h, str) and _HOST.fullmatch(h) for h in v) else "uma lista de nomes de servidor, como [\"arquivos.antt.gov.br\"]",
}
_SOURCE_KEYS = {
    "nome": _text(_SLUG, "um nome de pasta: minúsculas, dígitos e hífens, como antt-horarios"),
    "adaptador": _text(), "url": _text(_URL, "um endereço http:// ou https://"),
    "pagina": _text(_URL, "um endereço http:// ou https://"), "arquivo": _pattern,
    "meses": _number(int, 1, 240), "data_referencia": _text(_PERIOD, "uma data AAAA, AAAA-MM ou AAAA-MM-DD"),
    "fonte_url": _text(_URL, "um endereço http:// ou https://"), "licenca": _text(),
}


def load_config(path: Path, **overrides) -> NightlyConfig:
    """``nightly.toml``: ``[[fonte]]`` tables and the optional ``[nightly]`` limits, every key and value
    checked (:data:`_SOURCE_KEYS`, :data:`_JOB_KEYS`) before anything is downloaded."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
        raise NightlyError(f"não foi possível ler {path}: {exc}") from None
    from ..adapters import ADAPTERS

    def refuse(why: str):
        raise NightlyError(f"{path}: {why}")

    for key in data:
        if key not in ("fonte", "nightly"):
            refuse(f'chave desconhecida "{key}" (conhecidas: [nightly] e [[fonte]])')
    entries, limits = data.get("fonte", []), data.get("nightly", {})
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries):
        refuse("fonte deve ser uma lista de tabelas [[fonte]]")
    if not isinstance(limits, dict):
        refuse("nightly deve ser uma tabela [nightly]")
    def check_keys(table: dict, known: dict, label: str) -> None:
        for key, value in table.items():
            if key not in known:
                refuse(f'chave desconhecida "{key}" em {label} (conhecidas: {", ".join(known)})')
            why = known[key](value)
            if why:
                refuse(f"{label}: {key} = {value!r}: deve ser {why}")

    check_keys(limits, _JOB_KEYS, "[nightly]")
    specs, names = [], set()
    for n, entry in enumerate(entries, 1):
        label = f'a fonte nº {n}{" (" + entry["nome"] + ")" if isinstance(entry.get("nome"), str) else ""}'
        check_keys(entry, _SOURCE_KEYS, label)
        missing = [k for k in ("nome", "adaptador") if not entry.get(k)]
        if missing:
            refuse(f"{label} não tem {', '.join(missing)}")
        if entry["nome"] in names:
            refuse(f'duas fontes se chamam "{entry["nome"]}": cada uma precisa de um nome (a sua pasta em --state)')
        names.add(entry["nome"])
        if entry["adaptador"] not in ADAPTERS:
            refuse(f"{label}: adaptador desconhecido {entry['adaptador']} (conhecidos: {', '.join(ADAPTERS)})")
        if bool(entry.get("url")) == bool(entry.get("pagina")):
            refuse(f"{label}: informe url (um arquivo fixo) ou pagina (a página do conjunto de dados no catálogo), "
                   "um dos dois")
        if entry.get("pagina") and not entry.get("arquivo"):
            refuse(f"{label}: com pagina, informe arquivo (a expressão regular do nome dos arquivos, com o período "
                   "nos grupos mes e ano)")
        if entry.get("meses", 1) > 1 and not getattr(ADAPTERS[entry["adaptador"]], "SEVERAL_FILES", False):
            refuse(f"{label}: o adaptador {entry['adaptador']} lê um arquivo por vez; meses deve ser 1")
        specs.append(SourceSpec(**entry))
    values = {
        "sources": tuple(specs),
        "out": PROJECT_ROOT / "output",
        "state": PROJECT_ROOT / ".cache" / "nightly",
        "as_of": date.today(),
        **limits,
    }
    for key, value in overrides.items():  # the command line's, checked as the file's are
        why = _JOB_KEYS[key](value) if key in _JOB_KEYS and value is not None else None
        if why:
            raise NightlyError(f"--{key.replace('_', '-')} {value!r}: deve ser {why}")
    values.update({k: v for k, v in overrides.items() if v is not None})
    values["hosts_arquivos"] = tuple(values.get("hosts_arquivos", ()))
    for key in ("timeout", "backoff", "max_seconds", "perda_maxima"):
        values[key] = float(values.get(key, getattr(NightlyConfig, key)))
    # the site is swapped whole and the state folder holds the candidate site: neither inside the other
    reason = overlap([("--out", values["out"]), ("--state", values["state"])])
    if reason:
        raise NightlyError(reason)
    # the sub-path and the address reach the build only after the downloads: checked now, as the build checks them
    from ..contract.settings import Settings, SettingsError

    try:
        checked = Settings(data=(PROJECT_ROOT,), base_path=values.get("base_path", ""),
                           site_url=values.get("site_url", ""), search_index=False)
    except SettingsError as exc:
        raise NightlyError(str(exc)) from None
    values["base_path"], values["site_url"] = checked.base_path, checked.site_url
    return NightlyConfig(**values)


# --- one source: find, download, ingest, check; or keep its last good copy ---------------------------


@dataclass
class Outcome:
    """What the job did with one source tonight: ``package`` is the folder the build reads (the new one, or
    the last good copy when tonight's update failed; None when there is neither)."""

    spec: SourceSpec
    situacao: str
    package: Path | None = None
    failed: str = ""  # why tonight's update failed
    files: list[dict] = field(default_factory=list)
    data: str = ""
    gaps: list[str] = field(default_factory=list)  # months of the series the catalogue lacks (Located)
    later: list[str] = field(default_factory=list)  # files of a period after --as-of, refused

    def summary(self) -> dict:
        return {"nome": self.spec.nome, "adaptador": self.spec.adaptador, "situacao": self.situacao,
                "data": self.data, "falhou": self.failed, "arquivos": self.files, "lacunas": self.gaps,
                "posteriores": self.later}


def _state(folder: Path) -> dict:
    try:
        state = json.loads((folder / "estado.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return state if isinstance(state, dict) and isinstance(state.get("arquivos", {}), dict) else {}


@dataclass
class Located:
    """The files to read tonight, ``(url, period, file name)`` oldest first, and what the catalogue lacks:
    ``gaps``, the months of the series asked for (``meses`` ending at the newest) that no file covers;
    ``later``, the files of a period after ``--as-of``, refused (data cannot be of a month to come)."""
    files: list[tuple[str, str, str]]
    gaps: list[str] = field(default_factory=list)
    later: list[str] = field(default_factory=list)


def _month_index(period: str) -> int:
    return int(period[:4]) * 12 + int(period[5:7]) - 1


def _locate(spec: SourceSpec, client, as_of: date | None = None) -> Located:
    """The fixed ``url``, or the ``meses`` newest periods of the files the dataset's page lists whose name
    matches ``arquivo``, none after ``as_of`` (a later one is refused and named), and the months of that
    series the catalogue does not have."""
    from .catalogue import CatalogueError, file_name, newest, resources

    if spec.url:
        return Located([(spec.url, "", file_name(spec.url) or "arquivo.csv")])
    found = resources(client.get_text(spec.pagina), spec.pagina)
    limit = as_of.isoformat()[:7] if as_of else "9999-99"
    chosen, later = [], []
    while len(chosen) < spec.meses:
        try:
            resource, period = newest(found, spec.arquivo, spec.pagina)
        except CatalogueError:
            if chosen:  # fewer periods than asked: the ones there are
                break
            if later:
                raise CatalogueError(f"{spec.pagina} só lista arquivos de períodos depois da data de referência "
                                     f"({as_of.isoformat()}): {', '.join(later)}") from None
            raise
        found = [r for r in found if r.url != resource.url]
        if period and period[:len(limit)] > limit[:len(period)]:
            later.append(file_name(resource.url))
            continue
        chosen.append((resource.url, period, file_name(resource.url)))
        if not period:  # a fixed name: one file
            break
    months = [p for _, p, _ in chosen if len(p) == 7]
    gaps = []
    if months and spec.meses > 1:
        newest_month = _month_index(max(months))
        have = {_month_index(p) for p in months}
        gaps = [f"{i // 12:04d}-{i % 12 + 1:02d}" for i in range(newest_month - spec.meses + 1, newest_month + 1)
                if i not in have]
    return Located(list(reversed(chosen)), gaps, later)  # oldest first: the order the adapter reads them in


def _rows_of(package: Path) -> int | None:
    try:
        return int(json.loads((package / "ingest-report.json").read_text(encoding="utf-8"))["mantidas"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def update(spec: SourceSpec, config: NightlyConfig, client) -> Outcome:
    """Bring one source up to date in ``--state/<nome>/``: its files (``arquivos/``), its package
    (``pacote/``) and ``estado.json`` change only when tonight's files were found, downloaded, ingested
    with rows and valid, and did not lose more than ``perda_maxima`` of the rows of the last good copy.
    Otherwise the last good copy stays, marked with the date and cause of the failure for every page that
    shows its data (``provenance.STALE``); with none, the source is left out."""
    from ..adapters import IngestError, SourceOptions, ingest
    from ..build import check
    from ..contract.settings import Settings, SettingsError
    from .catalogue import CatalogueError
    from .download import DownloadError, NotModified

    folder = config.state / spec.nome
    good, kept, attempt = folder / "pacote", folder / "arquivos", folder / ".tentativa"
    shutil.rmtree(attempt, ignore_errors=True)
    attempt.mkdir(parents=True)
    state = _state(folder)
    known = state.get("arquivos", {})
    outcome = Outcome(spec, "")
    try:
        located = _locate(spec, client, config.as_of)
        targets, outcome.gaps, outcome.later = located.files, located.gaps, located.later
        paths, changed, days = [], False, []
        for url, period, name in targets:
            before = known.get(url, {})
            copy = kept / name
            conditional = before and copy.is_file()
            got = client.download(url, attempt / name, etag=before.get("etag", "") if conditional else "",
                                  last_modified=before.get("last_modified", "") if conditional else "")
            if isinstance(got, NotModified):
                entry, path = dict(before), copy
            else:
                entry = {"sha256": got.sha256, "bytes": got.bytes, "etag": got.etag, "last_modified": got.last_modified}
                path = got.path
                changed |= got.sha256 != before.get("sha256")
            entry.update(periodo=period, nome=name)
            outcome.files.append({"url": url, **entry})
            days.append(_day(entry.get("last_modified") or ""))
            paths.append(path)
        outcome.data = spec.data_referencia or max((p for _, p, _ in targets), default="") or max(days, default="")
        if not changed and {f["url"] for f in outcome.files} == set(known) and (good / "datapackage.json").is_file():
            outcome.situacao, outcome.package = "inalterada: pacote anterior reaproveitado" + _notes(outcome), good
            _clear_stale(good)
            _mark_gaps(good, outcome.gaps)
            _write_state(folder, outcome, config.as_of, state.get("atualizada_em", config.as_of.isoformat()))
            return outcome
        fresh = attempt / "pacote"
        report = ingest(spec.adaptador, paths, fresh, options=SourceOptions(
            url=spec.fonte_url or spec.pagina or spec.url, data=outcome.data, licenca=spec.licenca))
        if not report.mantidas:
            raise NightlyError(f"a ingestão não manteve nenhuma das {report.lidas} linhas lidas")
        before_rows = _rows_of(good)
        if before_rows and report.mantidas < before_rows * (1 - config.perda_maxima):
            raise NightlyError(f"o arquivo novo tem {report.mantidas} linhas válidas, a cópia anterior {before_rows}: "
                               f"perde mais de {config.perda_maxima:.0%} (perda_maxima); retido até ser conferido")
        checked = check(Settings(data=(fresh,), out=attempt / "site", lenient=config.lenient, search_index=False))
        if not checked.accepted:
            first = checked.errors[0].mensagem if checked.errors else ""
            raise NightlyError(f"o pacote ingerido é inválido: {len(checked.errors)} erro(s); o primeiro: {first}")
    except (DownloadError, CatalogueError, IngestError, NightlyError, SettingsError) as exc:
        outcome.failed = str(exc)
    except OSError as exc:
        outcome.failed = f"não foi possível gravar em {folder}: {exc.strerror or type(exc).__name__}"
    if outcome.failed:
        shutil.rmtree(attempt, ignore_errors=True)
        if (good / "datapackage.json").is_file():
            since = state.get("atualizada_em", "")
            _mark_stale(good, config.as_of, outcome.failed, since)
            outcome.package, outcome.data = good, _source_date(good)
            outcome.situacao = f"FALHOU ({outcome.failed}); publicada a cópia de {since or 'data desconhecida'}"
        else:
            outcome.situacao = f"FALHOU ({outcome.failed}); sem cópia anterior: a fonte ficou de fora (não coberta)"
        return outcome
    # every check passed: the new files and package replace the old (the old set aside first, so that a
    # failure here leaves a good copy in place), then the state says so
    old_good = folder / ".pacote-anterior"
    shutil.rmtree(old_good, ignore_errors=True)
    if good.exists():
        good.rename(old_good)
    fresh.rename(good)
    shutil.rmtree(old_good, ignore_errors=True)
    kept.mkdir(parents=True, exist_ok=True)
    names = {f["nome"] for f in outcome.files}
    for path in paths:
        if path.parent == attempt:
            path.replace(kept / path.name)
    for old in kept.iterdir():
        if old.name not in names:
            old.unlink()
    shutil.rmtree(attempt, ignore_errors=True)
    _write_state(folder, outcome, config.as_of, config.as_of.isoformat())
    outcome.package = good
    _mark_gaps(good, outcome.gaps)
    outcome.situacao = f"atualizada: {report.mantidas} de {report.lidas} linhas mantidas" + _notes(outcome)
    return outcome


def _notes(outcome: Outcome) -> str:
    """What the summary adds to a source's situation: the months its catalogue lacks, the files refused for
    a period after --as-of."""
    notes = ""
    if outcome.gaps:
        notes += f"; faltam no catálogo os meses {', '.join(period_br(m) for m in outcome.gaps)}"
    if outcome.later:
        notes += f"; recusado(s) por ser(em) de período depois da data de referência: {', '.join(outcome.later)}"
    return notes


def _mark_gaps(package: Path, gaps: list[str]) -> None:
    """The months of the series the catalogue lacks, in the package's source entry (``provenance.GAPS``):
    every page that names the source says so."""
    from ..read.provenance import GAPS

    _set_source_key(package, GAPS, list(gaps) or None)


def _day(http_date: str) -> str:
    """The day of an HTTP date (``Last-Modified``), AAAA-MM-DD, or ""."""
    from email.utils import parsedate_to_datetime

    try:
        return parsedate_to_datetime(http_date).date().isoformat() if http_date else ""
    except (TypeError, ValueError):
        return ""


def _source_date(package: Path) -> str:
    try:
        return json.loads((package / "datapackage.json").read_text(encoding="utf-8"))["sources"][0].get("date", "")
    except (OSError, ValueError, KeyError, IndexError, TypeError, AttributeError):
        return ""


def _write_state(folder: Path, outcome: Outcome, as_of: date, updated: str) -> None:
    state = {"arquivos": {f["url"]: {k: v for k, v in f.items() if k != "url"} for f in outcome.files},
             "atualizada_em": updated, "verificada_em": as_of.isoformat()}
    (folder / "estado.json").write_text(json.dumps(state, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


def _mark_stale(package: Path, as_of: date, reason: str, since: str) -> None:
    from ..read.provenance import STALE

    _set_source_key(package, STALE, {"em": as_of.isoformat(), "motivo": reason[:300], "copia_de": since})


def _clear_stale(package: Path) -> None:
    from ..read.provenance import STALE

    _set_source_key(package, STALE, None)


def _set_source_key(package: Path, key: str, value) -> None:
    """The package's source entry with ``key`` set to ``value`` (None: taken out); the descriptor is written
    again only when that changes it."""
    path = package / "datapackage.json"
    descriptor = json.loads(path.read_text(encoding="utf-8"))
    entry = descriptor["sources"][0]
    if entry.get(key) == value:
        return
    if value is None:
        entry.pop(key)
    else:
        entry[key] = value
    path.write_text(json.dumps(descriptor, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


# --- the job -----------------------------------------------------------------------------------------


@dataclass
class Summary:
    sources: list[dict] = field(default_factory=list)
    rows: dict[str, object] = field(default_factory=dict)
    errors: int = 0
    warnings: int = 0
    first_errors: list[str] = field(default_factory=list)  # the validation's first messages, when it failed
    findings: int = 0
    pages: int = 0
    broken_links: list = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    published: bool = False
    failure: str = ""
    hosting: list[str] = field(default_factory=list)  # what is over a host's budget (pipeline/publish/hosting.py)
    configured: int = -1  # the sources nightly.toml names (-1: not read)
    validated: bool = False  # the build read and validated the sources: its counts are known
    release: str = ""  # the folder of the night's release assets, and the version they are for
    contact_email: str = ""  # the catalogues' contact e-mail (the job's --contato, when a mailto:)

    @property
    def stale(self) -> list[str]:
        """The sources whose update failed tonight (their last good copy, if any, was published)."""
        return [s["nome"] for s in self.sources if s.get("falhou")]

    def markdown(self, as_of: date) -> str:
        if self.published:
            head = "Publicado" + (f", com {len(self.stale)} fonte(s) desatualizada(s): {', '.join(self.stale)}"
                                  if self.stale else "")
        else:
            head = "NADA PUBLICADO: " + self.failure
        lines = [f"# Build noturno — {as_of.isoformat()}", "", f"**{head}**", "", "## Fontes", ""]
        for s in self.sources:
            files = "; ".join(f"{f.get('nome')} ({f.get('periodo') or 'sem período no nome'}, {f.get('bytes', 0)} bytes, "
                              f"sha256 {str(f.get('sha256', ''))[:12]})" for f in s.get("arquivos", []))
            lines.append(f"- {s['nome']} ({s['adaptador']}): {s['situacao']}; dados de "
                         f"{s.get('data') or 'data não informada'}" + (f"; arquivos: {files}" if files else ""))
        if not self.sources and self.configured == 0:
            lines.append("- nenhuma fonte em nightly.toml: o site foi gerado com a amostra fictícia do projeto")
        elif not self.sources:
            lines.append("- nenhuma fonte chegou a ser lida: o job parou antes (o motivo está acima)")
        if self.rows:
            lines += ["", "## Linhas por tabela", ""]
            lines += [f"- {t}: {n}" for t, n in self.rows.items()]
        if self.validated:  # counts of a build that did not run would read as "0 errors"
            lines += ["", f"Erros: {self.errors} · avisos: {self.warnings} · achados: {self.findings} · "
                          f"páginas: {self.pages} · links quebrados: {len(self.broken_links)}"]
        if self.first_errors:
            lines += ["", "## Primeiros erros da validação", ""] + [f"- {m}" for m in self.first_errors]
        if self.validated and not self.contact_email:
            lines += ["", "## Catálogos", "", "- sem e-mail de contato: data.json e catalogo.jsonld saem sem "
                      "contactPoint.hasEmail, que o Project Open Data exige; defina a variável CONTATO_EMAIL do "
                      "repositório (o workflow a passa como --contato mailto:…)"]
        if self.hosting or self.release:
            lines += ["", "## Hospedagem", ""] + [f"- {m}" for m in self.hosting] \
                + ([f"- {self.release}"] if self.release else [])
        lines += ["", "## Tempos", ""]
        lines += [f"- {stage}: {seconds:.1f} s" for stage, seconds in self.timings.items()]
        return "\n".join(_plain(line) for line in lines) + "\n"


_MAX_LINE = 1000  # characters of one line of the summary: a message quoting much more is cut


def _plain(line: str) -> str:
    """A line of the summary as GitHub shows it without reading anything in it as HTML: ``<``, ``>`` and
    ``&`` written as entities, control characters dropped, at most :data:`_MAX_LINE` characters. The
    summary is public; the messages in it may quote what other systems sent."""
    line = "".join(c for c in line if c.isprintable())
    line = line.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return line if len(line) <= _MAX_LINE else line[:_MAX_LINE] + " […]"


def release_folder(config: NightlyConfig) -> Path:
    """Where the night's release assets are written (``<out>-release``, beside the site): the workflow
    creates the GitHub Release from it."""
    return config.out.with_name(config.out.name + "-release")


def run(config: NightlyConfig, progress: Progress | None = None) -> Summary:
    """The whole job; returns the summary (``published`` tells whether the site was replaced). It holds the
    locks of the site and of the state folder throughout: another job (or a build) writing either stops
    at once (:class:`folders.FolderBusy`), this one too when it comes second."""
    reason = refusal("de saída (--out)", config.out) or state_refusal(config.state)
    if reason:
        raise NightlyError(reason)
    with exclusive(config.out, config.state):
        config.state.mkdir(parents=True, exist_ok=True)
        (config.state / OWNED_MARKER).write_text("estado do job noturno (python -m pipeline nightly)\n",
                                                 encoding="utf-8")
        return _run(config, progress)


def state_refusal(state: Path) -> str | None:
    """Why ``--state`` may not be used, before anything is written into it: a folder of someone else's
    (not empty, neither marked by the job nor holding an earlier job's sources) would receive the sources'
    folders, the candidate site and the summary."""
    if not state.exists():
        return None
    if not state.is_dir() or state.is_symlink():
        return f"a pasta de estado (--state) {state} não é uma pasta: escolha uma pasta nova ou vazia"
    entries = list(state.iterdir())
    if not entries or (state / OWNED_MARKER).is_file() or any((e / "estado.json").is_file() for e in entries):
        return None
    return (f"a pasta de estado (--state) {state} já existe e não foi gerada pelo job noturno: escolha uma pasta "
            "nova ou vazia (nada foi gravado nela)")


def _run(config: NightlyConfig, progress: Progress | None = None) -> Summary:
    from .. import SAMPLE_DIR
    from ..build import BuildError, build
    from ..contract.settings import Settings
    from ..site.links import broken_links
    from .download import USER_AGENT, Client, user_agent

    progress = progress or LineProgress(io.StringIO())  # timings for the summary, nothing printed
    summary = Summary(configured=len(config.sources))
    try:
        client = Client(timeout=config.timeout, retries=config.retries, backoff=config.backoff,
                        max_bytes=config.max_bytes, max_seconds=config.max_seconds,
                        user_agent=user_agent(config.contato) if config.contato else USER_AGENT, hosts=config.hosts())
        folders = []
        with progress.stage("fontes"):
            for spec in config.sources:
                outcome = update(spec, config, client)
                summary.sources.append(outcome.summary())
                if outcome.package is not None:
                    folders.append(outcome.package)
        if config.sources and not folders:
            raise NightlyError("nenhuma fonte pôde ser atualizada e nenhuma tem cópia anterior: "
                               + "; ".join(f"{s['nome']}: {s['falhou']}" for s in summary.sources))
        candidate = config.state / "site"
        published = config.out / "dados" / "datapackage.json"  # the last good release: changes, versions
        settings = Settings(data=tuple(folders) or (SAMPLE_DIR,), out=candidate, as_of=config.as_of,
                            lenient=config.lenient, base_path=config.base_path, site_url=config.site_url,
                            whoosh_dir=None,  # the command line's index: not published, no one reads it there
                            previous=config.previous or (str(config.out) if published.is_file() else ""),
                            versions_url=config.versions_url, update_frequency="DAILY",
                            # with an address for the releases, the bulk files go to the night's release
                            release_folder=release_folder(config) if config.versions_url else None,
                            # the job's declared contact is the catalogues' e-mail when it is one (mailto:)
                            contact_email=config.contato if config.contato.startswith("mailto:") else "")
        summary.contact_email = settings.contact_email
        try:
            result = build(settings, progress=progress)
        except BuildError as exc:
            if exc.report is not None:
                summary.validated = True
                summary.errors, summary.warnings = len(exc.report.errors), len(exc.report.warnings)
                summary.first_errors = [p.mensagem for p in exc.report.errors[:10]]
            raise NightlyError(f"o build falhou: {exc}") from None
        summary.pages, summary.validated = result.pages, True
        summary.hosting = list(result.warnings)
        if settings.release_folder is not None:
            summary.release = (f"arquivos da release em {settings.release_folder}, para a release "
                               f"{json.loads((candidate / 'dados' / 'datapackage.json').read_text(encoding='utf-8'))['x-versao']}")
        summary.errors, summary.warnings = len(result.report.errors), len(result.report.warnings)
        summary.findings = len(result.derived.tables["achados"])
        validation = json.loads((candidate / "dados" / "validacao.json").read_text(encoding="utf-8"))
        summary.rows = validation["linhas_aceitas"]
        with progress.stage("verificação de links"):
            summary.broken_links = broken_links(candidate, config.base_path)
        if summary.broken_links:
            first = ", ".join(f"{page} → {link}" for page, link in summary.broken_links[:5])
            raise NightlyError(f"{len(summary.broken_links)} link(s) interno(s) quebrado(s): {first}")
        with progress.stage("publicação do site"):
            _publish(candidate, config.out)
        summary.published = True
    except (NightlyError, OSError) as exc:  # the summary so far goes with the failure, to be written
        from ..contract.problems import os_reason

        summary.failure = str(exc) if isinstance(exc, NightlyError) else os_reason(exc)
        exc.summary = summary
        raise
    finally:
        summary.timings = progress.timings()
    return summary


def _publish(candidate: Path, out: Path) -> None:
    """Put the checked site in place atomically (the same file system), else copy then swap."""
    out = out.resolve()
    staging = out.with_name(f".{out.name}.staging")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        candidate.rename(staging)
    except OSError:  # another file system
        try:
            shutil.copytree(candidate, staging, symlinks=True)
        except OSError as exc:  # a full disk, a quota: nothing half-copied is left beside the site
            shutil.rmtree(staging, ignore_errors=True)
            raise NightlyError(f"o site não pôde ser copiado para {out}: {_copy_reason(exc)}; nada foi "
                               "publicado") from None
    swap_into_place(staging, out)


def _copy_reason(exc: OSError) -> str:
    """What stopped a copy, in words: shutil.copytree gathers its files' errors in one ``shutil.Error``."""
    from ..contract.problems import os_reason

    if isinstance(exc, shutil.Error) and exc.args and isinstance(exc.args[0], list) and exc.args[0]:
        first = exc.args[0][0]
        why = first[2] if len(first) > 2 else str(first)
        return f"{why} ({len(exc.args[0])} arquivo(s) não copiado(s))"
    return os_reason(exc)
