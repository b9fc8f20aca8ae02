"""Build settings, declared once with their help text and validated with a helpful message.

The CLI builds them from its arguments; tests pass keyword overrides of the defaults (``Settings(out=...)``).
"""

from __future__ import annotations

import dataclasses
import re
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path

from .. import PROJECT_ROOT, SAMPLE_DIR
from ..tools.folders import overlap, refusal
from ..tools.parallel import workers_default

BASE_PATH = re.compile(r"(/[A-Za-z0-9._~-]+)*")  # a sub-path the site is served from: "" or /portal
# where it is published: the host and port are checked apart (check_host), with their own messages
SITE_URL = re.compile(r"(?P<scheme>https?://)(?P<host>[A-Za-z0-9.-]*)(?::(?P<port>\d+))?"
                      r"(?P<path>(?:/[A-Za-z0-9._~-]+)*)/?")


# How often the catalogues say the data is updated (dct:accrualPeriodicity): the code of the EU frequency
# vocabulary (http://publications.europa.eu/resource/authority/frequency/<código>), its pt-BR label, and the
# ISO 8601 repeating duration Project Open Data v1.1 asks for in data.json ("irregular" where none fits).
FREQUENCIES = {
    "DAILY": ("diária", "R/P1D"),
    "WEEKLY": ("semanal", "R/P1W"),
    "MONTHLY": ("mensal", "R/P1M"),
    "QUARTERLY": ("trimestral", "R/P3M"),
    "ANNUAL": ("anual", "R/P1Y"),
    "IRREG": ("irregular", "irregular"),
}
EU_FREQUENCY = "http://publications.europa.eu/resource/authority/frequency/"
# The theme dados.gov.br asks for: the VCGE (Vocabulário Controlado do Governo Eletrônico, version 2, 2013-11-12,
# published as SKOS under http://vocab.e.gov.br/id/governo; "Transporte Rodoviário" is notation 186, narrower
# than #transportes)
VCGE_SCHEME = "http://vocab.e.gov.br/id/governo#esquema"
VCGE_ROAD_TRANSPORT = "http://vocab.e.gov.br/id/governo#transporte-rodoviario"
# an e-mail address as Project Open Data's pattern accepts it (local part, @, a domain with a dot) and mail
# servers deliver it: no spaces, no quoting, a top-level domain of letters
EMAIL = re.compile(r"[A-Za-z0-9_~!$&'()*+,;=.-]+@(?P<domain>(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,63})")
# domains reserved for examples and tests (RFC 2606, RFC 6761): an address there reaches no one
RESERVED_DOMAINS = re.compile(r"(?:.*\.)?(?:example\.(?:com|net|org)|example|invalid|test|localhost|local)\Z", re.I)


def release_assets(versions_url: str, version: str = "") -> str:
    """Where the assets of the GitHub Release ``version`` answer, by GitHub's convention
    (``<versoes-url>/download/<versão>/``); with no version, where every release's assets start."""
    return f"{versions_url.rstrip('/')}/download/" + (f"{version}/" if version else "")


def release_page(versions_url: str, version: str) -> str:
    """The page of the GitHub Release ``version`` (``<versoes-url>/tag/<versão>``): a kept version's address."""
    return f"{versions_url.rstrip('/')}/tag/{version}"


class SettingsError(ValueError):
    """A setting is wrong; the message says which and how to fix it (pt-BR, shown to the user)."""


@dataclass(frozen=True)
class Settings:
    data: tuple[Path, ...] = field(
        default=(SAMPLE_DIR,),
        metadata={"help": "pastas do pacote de origem; a primeira que tiver uma tabela a fornece"},
    )
    out: Path = field(default=PROJECT_ROOT / "output", metadata={"help": "pasta do site gerado"})
    as_of: date = field(
        default_factory=date.today,
        metadata={"help": "data de referência AAAA-MM-DD de todos os cálculos (padrão: hoje)"},
    )
    lenient: bool = field(
        default=False,
        metadata={"help": "publica as linhas válidas e as rejeitadas em tabela própria, em vez de falhar"},
    )
    allow_mixed_sources: bool = field(
        default=False,
        metadata={"help": "aceita combinar fontes fictícias com reais (só para testes); "
                          "o aviso de dados fictícios continua em todas as páginas"},
    )
    base_path: str = field(
        default="",
        metadata={"help": "caminho sob o qual o site é servido, como /portal (GitHub Pages de projeto); vazio: a raiz"},
    )
    site_url: str = field(
        default="",
        metadata={"help": "endereço público do site, como https://portal.exemplo.gov.br/portal: dá as URLs absolutas "
                          "do sitemap.xml e do robots.txt (e o --base-path, se este não for dado); vazio: sem sitemap"},
    )
    previous: str = field(
        default="",
        metadata={"help": "pacote publicado anterior (a pasta dados/ ou a raiz do site anterior, ou sua URL): "
                          "o build publica o que mudou desde ele e, de uma pasta, mantém as versões anteriores"},
    )
    versions_url: str = field(
        default="",
        metadata={"help": "endereço onde cada versão publicada fica guardada fora do site (as releases do repositório, "
                          "no job noturno do GitHub): a página /dados/ aponta para ele"},
    )
    release_folder: Path | None = field(default=None, metadata={
        "help": "pasta onde gravar os arquivos da release desta versão (todos os downloads, para o gh release "
                "create do job noturno): com --versoes-url, os arquivos grandes ficam só na release, com endereço "
                "duradouro, e não no site (pipeline/publish/hosting.py); sem ela, tudo fica no site"})
    search_index: bool = field(default=True, metadata={"help": "gera o índice Pagefind da busca no navegador"})
    whoosh_dir: Path | None = field(default=PROJECT_ROOT / ".cache" / "busca", metadata={
        "help": "pasta do índice Whoosh da busca por linha de comando (não publicado); None: sem ele (o job "
                "noturno, onde ninguém o lê)"})
    workers: int = field(default_factory=workers_default, metadata={
        "help": "processos que geram as páginas em paralelo (padrão: um por núcleo disponível; os que acompanham "
                "o da build têm a menor prioridade e só usam o que os downloads e o índice de busca, gravados ao "
                "lado, deixam livre)"})
    pelican_conf: Path = field(default=PROJECT_ROOT / "pelican.conf.py", metadata={"help": "configuração do Pelican"})
    contact_email: str = field(default="", metadata={
        "help": "e-mail de contato publicado nos catálogos (contactPoint do DCAT-AP e do data.json, que o Project "
                "Open Data exige): o de quem mantém o portal; vazio: os catálogos apontam só a página /sobre/ e o "
                "data.json fica sem o hasEmail que o esquema v1.1 exige"})
    update_frequency: str = field(default="IRREG", metadata={
        "help": "frequência de atualização declarada nos catálogos, um código do vocabulário de frequências da UE: "
                + ", ".join(f"{k} ({v[0]})" for k, v in FREQUENCIES.items())
                + "; padrão IRREG (um build feito à mão); o job noturno declara DAILY"})
    vcge_theme: str = field(default=VCGE_ROAD_TRANSPORT, metadata={
        "help": "tema do VCGE (Vocabulário Controlado do Governo Eletrônico) que o dados.gov.br pede, como URI"})
    vcge_label: str = field(default="Transporte Rodoviário", metadata={"help": "o rótulo do tema do VCGE"})

    def __post_init__(self):
        data = tuple(Path(p) for p in ((self.data,) if isinstance(self.data, (str, Path)) else self.data))
        object.__setattr__(self, "data", data)
        object.__setattr__(self, "out", Path(self.out))
        if isinstance(self.as_of, str):
            object.__setattr__(self, "as_of", parse_as_of(self.as_of))
        if not data:
            raise SettingsError("informe ao menos uma pasta de dados (--data)")
        if not isinstance(self.workers, int) or self.workers < 1:
            raise SettingsError(f"--processos deve ser um número inteiro maior que zero, não {self.workers!r}")
        if self.versions_url and not re.fullmatch(r"https?://[^\s\"'<>]+", self.versions_url):
            raise SettingsError(f'--versoes-url "{self.versions_url}" deve ser um endereço http:// ou https://')
        object.__setattr__(self, "contact_email", check_email(self.contact_email))
        if self.release_folder is not None:
            object.__setattr__(self, "release_folder", Path(self.release_folder))
            if not self.versions_url:
                raise SettingsError("--pasta-release pede --versoes-url: o endereço das releases do repositório "
                                    "(https://github.com/<dono>/<repositório>/releases), de onde os arquivos da "
                                    "release serão baixados")
        if self.update_frequency not in FREQUENCIES:
            raise SettingsError(f'--frequencia "{self.update_frequency}" não é um código do vocabulário de frequências '
                                f"da UE aceito aqui: use {', '.join(FREQUENCIES)}")
        if not re.fullmatch(r"https?://[^\s\"'<>]+", self.vcge_theme) or not self.vcge_label.strip():
            raise SettingsError(f'tema do VCGE "{self.vcge_theme}" ({self.vcge_label!r}): informe o URI http(s) do '
                                "termo e o seu rótulo, como http://vocab.e.gov.br/id/governo#transporte-rodoviario")
        base = check_base_path(self.base_path)
        if self.site_url:
            m = SITE_URL.fullmatch(self.site_url)
            if not m:
                raise SettingsError(f'--site-url "{self.site_url}" deve ser como https://portal.exemplo.gov.br ou '
                                    "https://exemplo.github.io/portal (sem ?, # nem espaços)")
            check_host(self.site_url, m["host"], m["port"])
            check_segments("--site-url", self.site_url, m["path"])
            if base and base != m["path"]:
                raise SettingsError(f'--site-url "{self.site_url}" e --base-path "{self.base_path}" não combinam: '
                                    f"o caminho do endereço público é {m['path'] or '/'}")
            base = m["path"]
            port = f":{int(m['port'])}" if m["port"] else ""
            object.__setattr__(self, "site_url", m["scheme"] + m["host"] + port + m["path"])
        object.__setattr__(self, "base_path", base)
        for folder in data:
            if not folder.is_dir():
                raise SettingsError(f"a pasta de dados {folder} não existe ou não é uma pasta")
        if not self.out.resolve().name:
            raise SettingsError(f"a pasta de saída {self.out} não pode ser a raiz")
        if self.out.resolve() == PROJECT_ROOT:
            raise SettingsError(f"a pasta de saída {self.out} não pode ser a do projeto")
        if not Path(self.pelican_conf).is_file():
            raise SettingsError(f"configuração do Pelican não encontrada: {self.pelican_conf}")

    @property
    def whoosh_index(self) -> Path | None:
        """The folder the build writes the command line's Whoosh index into; None when it writes none (without
        the search indexes, ``search_index`` false, or without a folder for it)."""
        return Path(self.whoosh_dir) if self.search_index and self.whoosh_dir is not None else None

    @property
    def assets_prefix(self) -> str:
        """Where the releases' assets answer (``<versoes-url>/download/``): the only addresses outside the
        previous site's ``dados/`` that its descriptor may send the build to (pipeline/release/changes.py)."""
        return release_assets(self.versions_url) if self.versions_url else ""

    def previous_folder(self) -> Path | None:
        """The folder ``--anterior`` names, when it names one (not a URL)."""
        if not self.previous or self.previous.startswith(("http://", "https://")):
            return None
        return Path(self.previous)

    def check_outputs(self) -> None:
        """Before anything is written: the folders the build writes (the site, the Whoosh index) and those it
        reads (each --data, a local --anterior) are apart, and the build replaces its output folders whole,
        so it refuses any that another program made. ``--anterior`` may name the site being replaced, or
        its ``dados/``: the build reads it before the swap (the nightly job's case)."""
        named = [("--out", self.out)]
        if self.whoosh_index is not None:
            named.append(("--index", self.whoosh_index))
        if self.release_folder is not None:
            named.append(("--pasta-release", self.release_folder))
        named += [("--data", folder) for folder in self.data]
        previous = self.previous_folder()
        if previous is not None and previous.resolve() not in (self.out.resolve(), (self.out / "dados").resolve()):
            named.append(("--anterior", previous))
        reason = overlap(named, read_only={"--data", "--anterior"})
        if reason:
            raise SettingsError(reason)
        folders = [("de saída (--out)", self.out)]
        if self.release_folder is not None:
            folders.append(("da release (--pasta-release)", self.release_folder))
        if self.whoosh_index is not None:
            folders.append(("do índice de busca (--index)", self.whoosh_index))
        for name, folder in folders:
            reason = refusal(name, folder)
            if reason:
                raise SettingsError(reason)



def check_email(given: str) -> str:
    """The contact e-mail the catalogues publish, without a ``mailto:``; "" when none is given. An address
    that cannot be one (no domain, spaces, two @) or one of a domain reserved for examples is refused: a
    catalogue that names it would send its readers nowhere."""
    email = (given or "").strip()
    if email.lower().startswith("mailto:"):
        email = email[len("mailto:"):]
    if not email:
        return ""
    m = EMAIL.fullmatch(email)
    if not m:
        raise SettingsError(f'--contato-email "{given}" não é um endereço de e-mail: use um como dados@orgao.gov.br '
                            "(sem espaços nem acentos, um só @, um domínio com ponto)")
    if RESERVED_DOMAINS.fullmatch(m["domain"]):
        raise SettingsError(f'--contato-email "{given}": {m["domain"]} é um domínio reservado para exemplos e testes, '
                            "que não recebe e-mail; informe o endereço real de quem mantém o portal, ou nenhum")
    return email


def check_base_path(given: str) -> str:
    """``--base-path`` without its trailing slashes, once checked (the nightly job checks its own with it,
    before it downloads anything)."""
    base = given.rstrip("/")
    if not BASE_PATH.fullmatch(base):
        raise SettingsError(f'--base-path "{given}" deve ser vazio ou como /portal (letras, dígitos, . _ ~ -)')
    check_segments("--base-path", given, base)
    return base


def check_segments(option: str, given: str, path: str) -> None:
    """A ``.`` or ``..`` segment would take every URL out of the sub-path the site is served from."""
    if any(segment in (".", "..") for segment in path.split("/")):
        raise SettingsError(f'{option} "{given}" tem um trecho "." ou "..": os endereços do site sairiam do '
                            "caminho em que ele é servido; use um caminho como /portal")


def check_host(url: str, host: str, port: str | None) -> None:
    """A host name of labels (letters, digits, hyphens inside) and a port a server can listen on."""
    labels = host.split(".")
    if not host or any(not label or label.startswith("-") or label.endswith("-") for label in labels):
        raise SettingsError(f'--site-url "{url}": o nome do servidor "{host}" é inválido (vazio, começa ou '
                            'termina com "." ou "-", ou tem um trecho vazio como em "a..b"); use como '
                            "https://portal.exemplo.gov.br")
    if port is not None and not (len(port) <= 5 and 1 <= int(port) <= 65535):
        raise SettingsError(f'--site-url "{url}": a porta {port} não existe; use uma de 1 a 65535, ou nenhuma')


def parse_as_of(text: str) -> date:
    try:
        return date.fromisoformat(text)
    except ValueError:
        raise SettingsError(f'--as-of "{text}" não é uma data no formato AAAA-MM-DD') from None


def help_text(name: str) -> str:
    return next(f.metadata.get("help", "") for f in dataclasses.fields(Settings) if f.name == name)
