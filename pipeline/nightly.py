"""The nightly job (``python -m pipeline nightly``, ``make nightly``): fetch every source listed in
``nightly.toml``, ingest what changed, validate and build, check every internal link, and only then
publish; a failed step publishes nothing and the last good site stays. A short summary (sources and
their dates, rows per table, errors, findings, timings) is written as a file and printed; on GitHub
Actions it also goes to the job's summary.

Fetching is plain HTTP(S) with a timeout, retries with back-off and a size limit; the ETag,
``Last-Modified`` and SHA-256 of each download are kept in the state folder, so an unchanged source is
neither downloaded again (HTTP 304) nor re-ingested (same checksum).
"""

from __future__ import annotations

import hashlib
import io
import json
import shutil
import time
import tomllib
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from . import PROJECT_ROOT
from .folders import exclusive, overlap, refusal, swap_into_place
from .progress import LineProgress, Progress

USER_AGENT = "portal-transporte-rodoviario/nightly (+https://github.com/)"


class NightlyError(RuntimeError):
    """A step failed; the message (pt-BR) says which and why. Nothing was published."""


@dataclass(frozen=True)
class SourceSpec:
    nome: str  # folder name of the ingested package, and the source's name in the summary
    adaptador: str
    url: str
    fonte_url: str = ""  # the page that documents the source, when not the download itself
    licenca: str = ""


@dataclass(frozen=True)
class NightlyConfig:
    sources: tuple[SourceSpec, ...]
    out: Path
    state: Path
    as_of: date
    base_path: str = ""
    timeout: float = 60.0  # seconds to connect and between bytes
    retries: int = 3
    backoff: float = 2.0  # seconds before the first retry, doubled each time
    max_bytes: int = 512 * 1024 * 1024
    lenient: bool = False


def load_config(path: Path, **overrides) -> NightlyConfig:
    """``nightly.toml``: ``[[fonte]]`` tables (nome, adaptador, url) and optional ``[nightly]`` limits."""
    try:
        data = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise NightlyError(f"não foi possível ler {path}: {exc}") from None
    from .adapters import ADAPTERS

    specs = []
    for n, entry in enumerate(data.get("fonte", []), 1):
        missing = [k for k in ("nome", "adaptador", "url") if not entry.get(k)]
        if missing:
            raise NightlyError(f"{path}: a fonte nº {n} não tem {', '.join(missing)}")
        if entry["adaptador"] not in ADAPTERS:
            raise NightlyError(f"{path}: adaptador desconhecido {entry['adaptador']} (conhecidos: {', '.join(ADAPTERS)})")
        if not str(entry["url"]).startswith(("http://", "https://")):
            raise NightlyError(f"{path}: a url da fonte {entry['nome']} deve começar com http:// ou https://")
        specs.append(SourceSpec(entry["nome"], entry["adaptador"], entry["url"], entry.get("fonte_url", ""),
                                entry.get("licenca", "")))
    limits = data.get("nightly", {})
    values = {
        "sources": tuple(specs),
        "out": PROJECT_ROOT / "output",
        "state": PROJECT_ROOT / ".cache" / "nightly",
        "as_of": date.today(),
        **{k: limits[k] for k in ("timeout", "retries", "backoff", "max_bytes", "base_path", "lenient") if k in limits},
    }
    values.update({k: v for k, v in overrides.items() if v is not None})
    # the site is swapped whole and the state folder holds the candidate site: neither inside the other
    reason = overlap([("--out", values["out"]), ("--state", values["state"])])
    if reason:
        raise NightlyError(reason)
    # the sub-path reaches the build only after the downloads: checked now, as the build checks it
    from .settings import SettingsError, check_base_path

    if not isinstance(values.get("base_path", ""), str):
        raise NightlyError(f'{path}: base_path deve ser um texto, vazio ou como "/portal"')
    try:
        check_base_path(values.get("base_path", ""))
    except SettingsError as exc:
        raise NightlyError(str(exc)) from None
    return NightlyConfig(**values)


# --- fetching ------------------------------------------------------------------------------------


@dataclass
class Fetched:
    spec: SourceSpec
    path: Path
    changed: bool
    sha256: str
    last_modified: str = ""
    bytes: int = 0
    note: str = ""


def _state(folder: Path) -> dict:
    try:
        return json.loads((folder / "estado.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def fetch(spec: SourceSpec, config: NightlyConfig) -> Fetched:
    """Download ``spec.url`` into the state folder (conditional on the last ETag/Last-Modified), with
    retries; raises :class:`NightlyError` when every attempt failed."""
    folder = config.state / spec.nome
    folder.mkdir(parents=True, exist_ok=True)
    state = _state(folder)
    target = folder / "exportacao.csv"
    last_error = ""
    for attempt in range(config.retries + 1):
        if attempt:
            time.sleep(config.backoff * 2 ** (attempt - 1))
        try:
            return _download(spec, config, state, folder, target)
        except _Permanent as exc:
            raise NightlyError(f"fonte {spec.nome}: {exc}") from None
        except (urllib.error.URLError, OSError, TimeoutError, _Transient) as exc:
            last_error = _reason(exc)
    raise NightlyError(f"fonte {spec.nome}: {last_error} ({config.retries + 1} tentativas em {spec.url})")


class _Transient(Exception):
    pass


class _Permanent(Exception):
    pass


def _reason(exc: BaseException) -> str:
    if isinstance(exc, urllib.error.URLError) and not isinstance(exc, urllib.error.HTTPError):
        exc = exc.reason if isinstance(exc.reason, BaseException) else exc
    if isinstance(exc, (TimeoutError,)) or "timed out" in str(exc):
        return "sem resposta dentro do tempo limite"
    if isinstance(exc, ConnectionRefusedError):
        return "servidor fora do ar (conexão recusada)"
    if isinstance(exc, _Transient):
        return str(exc)
    return f"falha de rede ({type(exc).__name__})"


def _download(spec: SourceSpec, config: NightlyConfig, state: dict, folder: Path, target: Path) -> Fetched:
    headers = {"User-Agent": USER_AGENT}
    if target.is_file() and state.get("url") == spec.url:
        if state.get("etag"):
            headers["If-None-Match"] = state["etag"]
        if state.get("last_modified"):
            headers["If-Modified-Since"] = state["last_modified"]
    request = urllib.request.Request(spec.url, headers=headers)
    try:
        response = urllib.request.urlopen(request, timeout=config.timeout)  # noqa: S310 - http(s) only, checked
    except urllib.error.HTTPError as exc:
        if exc.code == 304:
            return Fetched(spec, target, False, state["sha256"], state.get("last_modified", ""),
                           target.stat().st_size, "inalterada (HTTP 304)")
        if exc.code in (408, 429) or exc.code >= 500:
            raise _Transient(f"o servidor respondeu HTTP {exc.code}") from None
        raise _Permanent(f"o servidor respondeu HTTP {exc.code} para {spec.url}") from None
    with response:
        expected = response.headers.get("Content-Length")
        if expected and int(expected) > config.max_bytes:
            raise _Permanent(f"o arquivo tem {int(expected)} bytes, acima do limite de {config.max_bytes}")
        partial = folder / "exportacao.csv.parcial"
        digest, size = hashlib.sha256(), 0
        with open(partial, "wb") as fh:
            while chunk := response.read(1 << 16):
                size += len(chunk)
                if size > config.max_bytes:
                    partial.unlink(missing_ok=True)
                    raise _Permanent(f"o arquivo passa do limite de {config.max_bytes} bytes")
                digest.update(chunk)
                fh.write(chunk)
        if expected and size != int(expected):
            partial.unlink(missing_ok=True)
            raise _Transient(f"download truncado: {size} de {expected} bytes")
        sha = digest.hexdigest()
        last_modified = response.headers.get("Last-Modified", "")
        etag = response.headers.get("ETag", "")
    changed = sha != state.get("sha256") or not target.is_file()
    partial.replace(target)
    (folder / "estado.json").write_text(json.dumps(
        {"url": spec.url, "sha256": sha, "etag": etag, "last_modified": last_modified, "bytes": size},
        ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return Fetched(spec, target, changed, sha, last_modified, size,
                   "nova versão" if changed else "inalterada (mesmo SHA-256)")


# --- the job -----------------------------------------------------------------------------------------


@dataclass
class Summary:
    sources: list[dict] = field(default_factory=list)
    rows: dict[str, object] = field(default_factory=dict)
    errors: int = 0
    warnings: int = 0
    findings: int = 0
    pages: int = 0
    broken_links: list = field(default_factory=list)
    timings: dict[str, float] = field(default_factory=dict)
    published: bool = False
    failure: str = ""

    def markdown(self, as_of: date) -> str:
        lines = [f"# Build noturno — {as_of.isoformat()}", "",
                 f"**{'Publicado' if self.published else 'NADA PUBLICADO: ' + self.failure}**", "", "## Fontes", ""]
        for s in self.sources:
            lines.append(f"- {s['nome']} ({s['adaptador']}): {s['situacao']}; dados de {s.get('data') or 'data não informada'}; "
                         f"{s.get('bytes', 0)} bytes; sha256 {s.get('sha256', '')[:12]}")
        if not self.sources:
            lines.append("- nenhuma fonte em nightly.toml: o site foi gerado com a amostra fictícia do projeto")
        lines += ["", "## Linhas por tabela", ""]
        lines += [f"- {t}: {n}" for t, n in self.rows.items()]
        lines += ["", f"Erros: {self.errors} · avisos: {self.warnings} · achados: {self.findings} · páginas: {self.pages} · "
                  f"links quebrados: {len(self.broken_links)}", "", "## Tempos", ""]
        lines += [f"- {stage}: {seconds:.1f} s" for stage, seconds in self.timings.items()]
        return "\n".join(lines) + "\n"


def run(config: NightlyConfig, progress: Progress | None = None) -> Summary:
    """The whole job; returns the summary (``published`` tells whether the site was replaced). It holds the
    locks of the site and of the state folder throughout: another job (or a build) writing either stops
    at once (:class:`folders.FolderBusy`), this one too when it comes second."""
    reason = refusal("de saída (--out)", config.out)
    if reason:
        raise NightlyError(reason)
    with exclusive(config.out, config.state):
        return _run(config, progress)


def _run(config: NightlyConfig, progress: Progress | None = None) -> Summary:
    from . import SAMPLE_DIR
    from .adapters import IngestError, SourceOptions, ingest
    from .build import BuildError, build
    from .settings import Settings
    from .site.links import broken_links

    progress = progress or LineProgress(io.StringIO())  # timings for the summary, nothing printed
    summary = Summary()
    try:
        folders = []
        with progress.stage("download"):
            fetched = [fetch(spec, config) for spec in config.sources]
        with progress.stage("ingestão"):
            for f in fetched:
                package = config.state / f.spec.nome / "pacote"
                if f.changed or not (package / "datapackage.json").is_file():
                    try:
                        report = ingest(f.spec.adaptador, f.path, package, options=SourceOptions(
                            url=f.spec.fonte_url or f.spec.url, licenca=f.spec.licenca))
                    except IngestError as exc:
                        raise NightlyError(f"fonte {f.spec.nome}: {exc}") from None
                    situacao = f"{f.note}; ingerida ({report.mantidas} de {report.lidas} linhas mantidas)"
                else:
                    situacao = f"{f.note}; pacote anterior reaproveitado, sem nova ingestão"
                source = json.loads((package / "datapackage.json").read_text(encoding="utf-8"))["sources"][0]
                summary.sources.append({"nome": f.spec.nome, "adaptador": f.spec.adaptador, "situacao": situacao,
                                        "data": source.get("date", ""), "bytes": f.bytes, "sha256": f.sha256,
                                        "last_modified": f.last_modified})
                folders.append(package)
        candidate = config.state / "site"
        published = config.out / "dados" / "datapackage.json"  # the last good release: changes, versions
        settings = Settings(data=tuple(folders) or (SAMPLE_DIR,), out=candidate, as_of=config.as_of,
                            lenient=config.lenient, base_path=config.base_path,
                            whoosh_dir=config.state / "busca", previous=str(config.out) if published.is_file() else "")
        try:
            result = build(settings, progress=progress)
        except BuildError as exc:
            if exc.report is not None:
                summary.errors = len(exc.report.errors)
            raise NightlyError(f"o build falhou: {exc}") from None
        summary.pages = result.pages
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
    except NightlyError as exc:
        summary.failure = str(exc)
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
        shutil.copytree(candidate, staging, symlinks=True)
    swap_into_place(staging, out)
