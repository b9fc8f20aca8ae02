"""The nightly job's HTTP client (pipeline/nightly/download.py) and catalogue reader (pipeline/nightly/catalogue.py) against
the local stand-in of the regulator's CKAN catalogue (tests/standin.py): what an operator sees (the file and
its SHA-256, the pt-BR messages, no partial file left behind), the waits robots.txt asks for (seen through
an injected clock, never slept), and the pages the reader must survive. Every file served is made up here."""

from __future__ import annotations

import hashlib
import os
import socket

import pytest
from standin import DEFAULT_ROBOTS, LAST_MODIFIED, Standin

from pipeline.contract.problems import shown
from pipeline.nightly.catalogue import (
    EMPRESAS_HABILITADAS,
    EMPRESAS_HABILITADAS_SEM_DATA,
    SIGMA_HORARIOS,
    VENDA_PASSAGEM,
    CatalogueError,
    Resource,
    file_name,
    newest,
    resources,
)
from pipeline.nightly.download import USER_AGENT, Client, Downloaded, DownloadError, NotModified, user_agent

SLUG = "gerenciamento-de-autorizacoes"
SEP = b"cnpj;razao_social;data_autorizacao;prefixo;descricao_linha\r\n"
AUG = SEP + b"00.000.000/0001-91;EMPRESA FICTICIA DE TESTE LTDA;01/08/2026;XXYY0000001;XX/Cidade A - YY/Cidade B\r\n"
SEPT = SEP + b"00.000.000/0001-91;EMPRESA FICTICIA DE TESTE LTDA;01/09/2026;XXYY0000001;XX/Cidade A - YY/Cidade B\r\n" * 3000
DATASETS = {
    SLUG: [
        ("Horários", "08-2026_horarios_sigma.csv", AUG),
        ("Horários (JSON)", "08-2026_horarios_sigma.json", b"{}"),
        ("Horários", "09-2026_horarios_sigma.csv", SEPT),
        ("Horários (JSON)", "09-2026_horarios_sigma.json", b"{}"),
        ("Dicionário de dados dos horários", "horarios_dicionario_dados.pdf", b"%PDF-1.4 stand-in"),
    ],
}
SEPT_PATH = Standin.download_path(SLUG, "09-2026_horarios_sigma.csv")


class FakeTime:
    """The client's clock and sleep: sleeping moves the clock, nothing waits. ``tick`` moves it at every
    reading (a slow transfer)."""

    def __init__(self, tick: float = 0.0) -> None:
        self.now = 1000.0
        self.tick = tick
        self.sleeps: list[float] = []

    def clock(self) -> float:
        self.now += self.tick
        return self.now

    def sleep(self, seconds: float) -> None:
        self.sleeps.append(round(seconds, 6))
        self.now += seconds


@pytest.fixture
def site():
    with Standin(DATASETS) as s:
        yield s


@pytest.fixture
def fake():
    return FakeTime()


def client(fake: FakeTime, **kw) -> Client:
    options = {"timeout": 2.0, "sleep": fake.sleep, "clock": fake.clock, **kw}
    return Client(**options)


def pt(n: int) -> str:
    """A number as the messages write it (pt-BR): 300.060."""
    return f"{n:,}".replace(",", ".")


def refused(call) -> DownloadError:
    with pytest.raises(DownloadError) as info:
        call()
    return info.value


def no_api(site: Standin) -> None:
    assert not [p for p in site.paths() if p.startswith("/api/")], site.paths()


# --- the nightly path: page, newest file, download ---------------------------------------------------


def test_page_then_newest_month_then_file(site, fake, tmp_path):
    c = client(fake)
    page = site.page_url(SLUG)
    found = resources(c.get_text(page), page)
    assert [file_name(r.url) for r in found] == [f for _, f, _ in DATASETS[SLUG]]
    assert found[0] == Resource("Horários", site.download_url(SLUG, "08-2026_horarios_sigma.csv"))

    chosen, period = newest(found, SIGMA_HORARIOS, page)
    assert period == "2026-09"
    assert file_name(chosen.url) == "09-2026_horarios_sigma.csv"

    got = c.download(chosen.url, tmp_path / "parcial")
    assert isinstance(got, Downloaded)
    assert got.path.read_bytes() == SEPT
    assert got.sha256 == hashlib.sha256(SEPT).hexdigest() and got.bytes == len(SEPT)
    assert got.etag == Standin.etag(SEPT) and got.last_modified == LAST_MODIFIED and got.url == chosen.url

    # robots.txt first and once, then one request per crawl delay (10 s), never the API
    assert site.paths() == ["/robots.txt", f"/dataset/{SLUG}", SEPT_PATH]
    assert fake.sleeps == [10.0, 10.0]
    no_api(site)
    assert {r.headers["User-Agent"] for r in site.requests} == {USER_AGENT}


def test_user_agent_names_the_portal_its_job_and_a_contact(site, fake, tmp_path):
    assert "portal-transporte-rodoviario" in USER_AGENT and "nightly" in USER_AGENT and "+https://" in USER_AGENT
    mine = user_agent("mailto:dados@example.org")
    client(fake, user_agent=mine).download(site.download_url(SLUG, "08-2026_horarios_sigma.csv"), tmp_path / "f")
    assert {r.headers["User-Agent"] for r in site.requests} == {mine}
    with pytest.raises(ValueError, match="User-Agent inválido"):
        Client(user_agent="robô\r\nX-Injected: 1")


def test_conditional_request_answered_304_leaves_nothing_to_write(site, fake, tmp_path):
    c = client(fake)
    url = site.download_url(SLUG, "09-2026_horarios_sigma.csv")
    first = c.download(url, tmp_path / "a")
    again = c.download(url, tmp_path / "b", etag=first.etag, last_modified=first.last_modified)
    assert again == NotModified(url, first.etag, first.last_modified)
    assert not (tmp_path / "b").exists()
    sent = site.requests[-1].headers
    assert sent["If-None-Match"] == first.etag and sent["If-Modified-Since"] == first.last_modified
    assert "If-None-Match" not in site.requests[1].headers  # the first download was not conditional
    # Last-Modified alone is enough
    assert isinstance(c.download(url, tmp_path / "c", last_modified=first.last_modified), NotModified)
    # a changed file (another ETag) is downloaded again
    assert isinstance(c.download(url, tmp_path / "d", etag='"outro"'), Downloaded)


def test_304_to_a_request_that_was_not_conditional_is_refused(site, fake, tmp_path):
    site.behave(SEPT_PATH, status=304)
    target = tmp_path / "parcial"
    error = refused(lambda: client(fake).download(site.url(SEPT_PATH), target))
    assert "HTTP 304 (não modificado) a um pedido que não era condicional" in str(error)
    assert error.permanent and not target.exists()


# --- robots.txt -----------------------------------------------------------------------------------------


def test_robots_forbids_the_api(site, fake):
    c = client(fake)
    error = refused(lambda: c.get_text(site.url("/api/3/action/package_show?id=" + SLUG)))
    assert error.permanent
    assert str(error) == (f"não foi possível baixar {site.url('/api/3/action/package_show?id=' + SLUG)}: "
                          f"o robots.txt de {site.host} não permite /api/3/action/package_show?id={SLUG}")
    assert site.paths() == ["/robots.txt"]


def test_redirect_into_a_forbidden_path_is_refused_before_it_is_requested(site, fake, tmp_path):
    site.behave(SEPT_PATH, location="/api/3/action/resource_show?id=1")
    error = refused(lambda: client(fake).download(site.url(SEPT_PATH), tmp_path / "f"))
    assert "não permite /api/3/action/resource_show?id=1" in str(error) and error.permanent
    no_api(site)


def test_robots_of_the_job_itself(fake, tmp_path):
    robots = "User-agent: portal-transporte-rodoviario\nDisallow: /dataset/\n\nUser-agent: *\nDisallow:\n"
    with Standin(DATASETS, robots=robots) as s:
        error = refused(lambda: client(fake).get_text(s.page_url(SLUG)))
        assert f"o robots.txt de {s.host} não permite /dataset/{SLUG}" in str(error)
        assert s.paths() == ["/robots.txt"]


def test_absent_robots_allows_everything_without_waits(fake, tmp_path):
    with Standin(DATASETS, robots=None) as s:
        c = client(fake)
        c.get_text(s.page_url(SLUG))
        c.download(s.download_url(SLUG, "08-2026_horarios_sigma.csv"), tmp_path / "f")
        assert s.paths()[0] == "/robots.txt" and len(s.paths()) == 3
        assert fake.sleeps == []


def test_unreadable_robots_means_the_host_is_not_crawled(fake, tmp_path):
    with Standin(DATASETS) as s:
        s.behave("/robots.txt", status=503)
        c = client(fake, retries=2, backoff=1.0)
        error = refused(lambda: c.download(s.download_url(SLUG, "09-2026_horarios_sigma.csv"), tmp_path / "f"))
        assert not error.permanent
        assert (f"o robots.txt de {s.host} não pôde ser lido: o servidor respondeu HTTP 503 (3 tentativas); "
                "sem ele o portal não baixa nada desse servidor") in str(error)
        assert s.paths() == ["/robots.txt"] * 3
        assert fake.sleeps == [1.0, 2.0]  # urllib3's retries, with the client's back-off
        # the refusal is kept: the next request does not ask again
        refused(lambda: c.get_text(s.page_url(SLUG)))
        assert s.paths() == ["/robots.txt"] * 3
        assert not (tmp_path / "f").exists()


def test_a_huge_crawl_delay_is_refused_not_waited(fake):
    with Standin(DATASETS, robots="User-agent: *\nCrawl-delay: 86400\n") as s:
        error = refused(lambda: client(fake).get_text(s.page_url(SLUG)))
        assert "pede 86400 s entre pedidos" in str(error) and error.permanent
        assert fake.sleeps == []


# --- retries and their waits --------------------------------------------------------------------------


def test_server_errors_are_retried_with_backoff_never_faster_than_the_crawl_delay(fake, tmp_path):
    with Standin(DATASETS, robots="User-agent: *\nDisallow: /api/\n") as s:
        s.behave(SEPT_PATH, status=503, times=2)
        got = client(fake, backoff=2.0).download(s.url(SEPT_PATH), tmp_path / "f")
        assert got.path.read_bytes() == SEPT
        assert fake.sleeps == [2.0, 4.0]
    fake = FakeTime()
    with Standin(DATASETS) as s:  # Crawl-delay: 10
        s.behave(SEPT_PATH, status=429, times=2)
        client(fake, backoff=2.0).download(s.url(SEPT_PATH), tmp_path / "f")
        assert fake.sleeps == [10.0, 10.0, 10.0]  # the crawl delay before the file, then before each retry


def test_retry_after_is_honoured(fake, tmp_path):
    with Standin(DATASETS, robots=None) as s:
        s.behave(SEPT_PATH, status=503, times=1, headers={"Retry-After": "7"})
        client(fake).download(s.url(SEPT_PATH), tmp_path / "f")
        assert fake.sleeps == [7.0]


def test_server_down_for_good_is_a_transient_error_after_the_retries(site, fake, tmp_path):
    site.behave(SEPT_PATH, status=500)
    target = tmp_path / "parcial"
    target.write_bytes(b"left by an earlier run")
    error = refused(lambda: client(fake, retries=2).download(site.url(SEPT_PATH), target))
    assert str(error) == f"não foi possível baixar {site.url(SEPT_PATH)}: o servidor respondeu HTTP 500 (3 tentativas)"
    assert not error.permanent and not target.exists()
    assert site.paths().count(SEPT_PATH) == 3


def test_missing_file_is_permanent_and_not_retried(site, fake, tmp_path):
    url = site.download_url(SLUG, "10-2026_horarios_sigma.csv")
    error = refused(lambda: client(fake).download(url, tmp_path / "f"))
    assert str(error) == f"não foi possível baixar {url}: o endereço não existe no servidor (HTTP 404)"
    assert error.permanent and not (tmp_path / "f").exists()
    assert site.paths().count(urlpath(url)) == 1


def urlpath(url: str) -> str:
    return "/" + url.split("/", 3)[3]


def test_truncated_body_is_retried_then_reported_and_removed(site, fake, tmp_path):
    site.behave(SEPT_PATH, truncate=1000)
    target = tmp_path / "parcial"
    error = refused(lambda: client(fake, retries=2).download(site.url(SEPT_PATH), target))
    assert str(error).endswith(f"download truncado: 1.000 de {pt(len(SEPT))} bytes (3 tentativas)")
    assert not error.permanent and not target.exists()
    assert site.paths().count(SEPT_PATH) == 3
    assert fake.sleeps == [10.0, 10.0, 10.0]


def test_truncated_once_then_whole(site, fake, tmp_path):
    site.behave(SEPT_PATH, truncate=1000, times=1)
    got = client(fake).download(site.url(SEPT_PATH), tmp_path / "f")
    assert got.sha256 == hashlib.sha256(SEPT).hexdigest() and got.path.read_bytes() == SEPT


def test_content_length_that_is_not_a_number_is_refused(site, fake, tmp_path):
    site.behave(SEPT_PATH, content_length="abc")
    error = refused(lambda: client(fake).download(site.url(SEPT_PATH), tmp_path / "f"))
    assert 'o servidor declarou um tamanho inválido (Content-Length "abc")' in str(error)
    assert not (tmp_path / "f").exists()
    site.behave(SEPT_PATH, content_length="-5")
    assert "Content-Length \"-5\"" in str(refused(lambda: client(fake).download(site.url(SEPT_PATH), tmp_path / "f")))


def test_content_length_smaller_than_the_body_ends_the_file_there(site, fake, tmp_path):
    # HTTP ends the message at the declared length: the bytes after it are not part of the answer and
    # cannot be told from garbage on the connection. What the client keeps is exactly what was declared.
    site.behave(SEPT_PATH, content_length="half")
    got = client(fake).download(site.url(SEPT_PATH), tmp_path / "f")
    assert got.bytes == len(SEPT) // 2 and got.path.read_bytes() == SEPT[: len(SEPT) // 2]


def test_timeouts_and_a_server_that_is_down(site, fake, tmp_path):
    site.behave(SEPT_PATH, delay=0.6)
    error = refused(lambda: client(fake, timeout=0.2, retries=1).download(site.url(SEPT_PATH), tmp_path / "f"))
    assert "sem resposta dentro do tempo limite (0.2 s) (2 tentativas)" in str(error) and not error.permanent
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]  # nothing listens there once the socket is closed
    url = f"http://127.0.0.1:{port}/dataset/x/resource/y/download/z.csv"
    error = refused(lambda: client(fake, retries=1).download(url, tmp_path / "f"))
    assert "servidor fora do ar (conexão recusada)" in str(error) and not error.permanent
    assert not (tmp_path / "f").exists()


# --- limits ---------------------------------------------------------------------------------------------


def test_file_above_the_size_limit(site, fake, tmp_path):
    error = refused(lambda: client(fake, max_bytes=10_000).download(site.url(SEPT_PATH), tmp_path / "f"))
    assert f"o arquivo tem {pt(len(SEPT))} bytes, acima do limite de 10.000 bytes" in str(error)
    assert error.permanent and not (tmp_path / "f").exists()
    site.behave(SEPT_PATH, content_length="")  # no Content-Length: counted while it streams
    error = refused(lambda: client(fake, max_bytes=10_000).download(site.url(SEPT_PATH), tmp_path / "f"))
    assert "o arquivo passa do limite de 10.000 bytes" in str(error)
    assert error.permanent and not (tmp_path / "f").exists()


def test_file_taking_too_long(site, tmp_path):
    slow = FakeTime(tick=30.0)  # every reading of the clock is 30 s later
    c = client(slow, max_seconds=120.0)
    error = refused(lambda: c.download(site.url(SEPT_PATH), tmp_path / "f"))
    assert "o download passou de 120 s, o limite por arquivo" in str(error) and not error.permanent
    assert not (tmp_path / "f").exists()
    assert site.paths().count(SEPT_PATH) == 1  # not retried


def test_page_above_its_limit(site, fake):
    error = refused(lambda: client(fake).get_text(site.page_url(SLUG), limit=1000))
    assert "a página passa do limite de 1.000 bytes" in str(error) and error.permanent


def test_full_disk_is_a_message_not_a_traceback(site, fake, tmp_path):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    target = tmp_path / "parcial"
    target.symlink_to("/dev/full")  # writes fail with ENOSPC; removing the link leaves /dev/full alone
    error = refused(lambda: client(fake).download(site.url(SEPT_PATH), target))
    assert str(error) == f"não foi possível baixar {site.url(SEPT_PATH)}: não foi possível gravar {target}: disco cheio"
    assert error.permanent and not target.is_symlink() and os.path.exists("/dev/full")
    missing = tmp_path / "nao-existe" / "parcial"
    error = refused(lambda: client(fake).download(site.url(SEPT_PATH), missing))
    assert f"não foi possível gravar {missing}: a pasta não existe" in str(error)


# --- redirects ------------------------------------------------------------------------------------------


def test_redirect_followed_and_the_final_url_kept(site, fake, tmp_path):
    old = "/dataset/antigo/resource/0/download/09-2026_horarios_sigma.csv"
    site.behave(old, location=SEPT_PATH, status=301)
    got = client(fake).download(site.url(old), tmp_path / "f")
    assert got.url == site.url(SEPT_PATH) and got.path.read_bytes() == SEPT
    assert site.paths() == ["/robots.txt", old, SEPT_PATH]
    assert fake.sleeps == [10.0, 10.0]  # the crawl delay holds between the hops too


def test_redirect_to_another_host_reads_its_robots_first(fake, tmp_path):
    with Standin(DATASETS) as catalogue, Standin(DATASETS, robots="User-agent: *\nDisallow: /dataset/\n") as mirror:
        catalogue.behave(SEPT_PATH, location=mirror.url(SEPT_PATH).replace("127.0.0.1", "localhost"))
        error = refused(lambda: client(fake).download(catalogue.url(SEPT_PATH), tmp_path / "f"))
        assert f"o robots.txt de localhost:{mirror.host.split(':')[1]} não permite {SEPT_PATH}" in str(error)
        assert mirror.paths() == ["/robots.txt"] and catalogue.paths() == ["/robots.txt", SEPT_PATH]


def test_a_redirect_to_a_host_the_configuration_does_not_name_is_refused_before_asking_it(fake, tmp_path):
    """The job follows only the hosts it is given (the catalogue's, and its file storage): a redirect to
    another one (localhost, 127.0.0.2, any machine) is refused before its robots.txt or anything else is
    asked of it, and the message quotes the host briefly and escaped."""
    with Standin(DATASETS) as catalogue, Standin(DATASETS) as other:
        catalogue.behave(SEPT_PATH, location=other.url(SEPT_PATH).replace("127.0.0.1", "localhost"))
        allowed = client(fake, hosts=["127.0.0.1"])
        error = refused(lambda: allowed.download(catalogue.url(SEPT_PATH), tmp_path / "f"))
        assert other.paths() == [] and not (tmp_path / "f").exists() and error.permanent
        assert 'o servidor redirecionou para outro servidor, "localhost", que a configuração não autoriza' in str(error)
        # the same redirect to an allowed host is followed
        ok = client(fake, hosts=["127.0.0.1", "localhost"]).download(catalogue.url(SEPT_PATH), tmp_path / "g")
        assert (tmp_path / "g").is_file() and ok.url.startswith("http://localhost:")


def test_a_servers_header_is_quoted_briefly_and_escaped(site, fake, tmp_path):
    site.behave(SEPT_PATH, content_length="<script>alert(document.cookie)</script>" + "x" * 500)
    error = str(refused(lambda: client(fake).download(site.url(SEPT_PATH), tmp_path / "f")))
    assert "<" not in error and ">" not in error and "alert" in error and "x" * 60 not in error and "…" in error


@pytest.mark.parametrize("location", ["ftp://ftp.example.org/09-2026_horarios_sigma.csv", "file:///etc/passwd"])
def test_redirect_out_of_http_is_refused(site, fake, tmp_path, location):
    site.behave(SEPT_PATH, location=location)
    error = refused(lambda: client(fake).download(site.url(SEPT_PATH), tmp_path / "f"))
    assert str(error) == (f"não foi possível baixar {site.url(SEPT_PATH)}: o servidor redirecionou para "
                          f"{shown(location)}, que não é um endereço http(s)")
    assert error.permanent and not (tmp_path / "f").exists()


def test_redirect_loop_stops(site, fake, tmp_path):
    for n in range(10):
        site.behave(f"/salto/{n}", location=f"/salto/{n + 1}")
    error = refused(lambda: client(fake).download(site.url("/salto/0"), tmp_path / "f"))
    assert "mais de 5 redirecionamentos (o último para " in str(error) and error.permanent
    assert site.paths().count("/salto/5") == 1 and "/salto/6" not in site.paths()


# --- pages ----------------------------------------------------------------------------------------------


def test_page_decoded_by_its_charset(fake):
    text = "<html><body><a href='/dataset/1/resource/2/download/inscri%C3%A7%C3%A3o.csv'>Inscrição</a></body></html>"
    with Standin(robots=None, pages={"/latin": text}) as s:
        s.behave("/latin", body=text.encode("iso-8859-1"), headers={"Content-Type": "text/html; charset=ISO-8859-1"})
        page = client(fake).get_text(s.url("/latin"))
        assert "Inscrição" in page
        assert resources(page, s.url("/latin")) == [
            Resource("Inscrição", s.url("/dataset/1/resource/2/download/inscri%C3%A7%C3%A3o.csv"))]
        assert file_name(resources(page, s.url("/latin"))[0].url) == "inscrição.csv"


# --- the catalogue reader -------------------------------------------------------------------------------

PAGE = "https://dados.antt.gov.br/dataset/monitriip-bilhetes-de-passagem"


def res(file: str, name: str = "Venda de passagens") -> Resource:
    return Resource(name, f"https://dados.antt.gov.br/dataset/989414bc/resource/{len(file)}/download/{file}")


def test_newest_period_across_a_year():
    found = [res("venda_passagem_11_2025.csv"), res("venda_passagem_01_2026.csv"), res("venda_passagem_12_2025.csv"),
             res("venda_passagem_dicionario_dados.pdf")]
    chosen, period = newest(found, VENDA_PASSAGEM, PAGE)
    assert period == "2026-01" and file_name(chosen.url) == "venda_passagem_01_2026.csv"


def test_year_only_and_fixed_names():
    found = [res("relatorio_2024.csv"), res("relatorio_2025.csv")]
    assert newest(found, r"relatorio_(?P<ano>\d{4})\.csv", PAGE)[1] == "2025"
    found = [res("empresas_habilitadas_regular.csv"), res("empresas_habilitadas_regular_09_2026.csv")]
    assert newest(found, EMPRESAS_HABILITADAS_SEM_DATA, PAGE) == (found[0], "")
    assert newest(found, EMPRESAS_HABILITADAS, PAGE) == (found[1], "2026-09")


def test_no_file_matching_names_the_page_the_pattern_and_what_was_seen():
    found = [res(f"venda_passagem_{m:02d}_2019.csv") for m in range(1, 13)]
    with pytest.raises(CatalogueError) as info:
        newest(found, SIGMA_HORARIOS, PAGE)
    message = str(info.value)
    assert message.startswith(f"nenhum arquivo de {PAGE} tem nome no padrão {SIGMA_HORARIOS}; arquivos na página: "
                              "venda_passagem_01_2019.csv, venda_passagem_02_2019.csv")
    assert message.endswith("venda_passagem_10_2019.csv e mais 2")
    with pytest.raises(CatalogueError, match="não lista nenhum arquivo para baixar"):
        newest([], VENDA_PASSAGEM, PAGE)


def test_two_files_for_the_newest_period_are_refused():
    found = [res("venda_passagem_08_2026.csv"), Resource("Cópia", "https://dados.antt.gov.br/x/download/venda_passagem_08_2026.csv")]
    with pytest.raises(CatalogueError) as info:
        newest(found, VENDA_PASSAGEM, PAGE)
    assert "lista 2 arquivos para o período 2026-08" in str(info.value)
    assert found[0].url in str(info.value) and found[1].url in str(info.value)
    assert "o portal não escolhe entre eles" in str(info.value)


def test_bad_patterns_and_impossible_months():
    with pytest.raises(CatalogueError, match="não é uma expressão regular válida"):
        newest([res("a.csv")], "(", PAGE)
    with pytest.raises(CatalogueError, match="tem o grupo mes mas não o grupo ano"):
        newest([res("a.csv")], r"(?P<mes>\d\d)\.csv", PAGE)
    with pytest.raises(CatalogueError, match="o mês '13' não existe"):
        newest([res("venda_passagem_13_2026.csv")], VENDA_PASSAGEM, PAGE)


HOSTILE = """<!DOCTYPE html><html><head>
<script>document.write('<a href="/dataset/1/resource/9/download/09-2099_horarios_sigma.csv">x</a>');
var s = "</li><li class='resource-item'>";</script>
<style>a[href$=".csv"]::after { content: "<a href='/download/evil.csv'>" }</style>
<base href="https://outro.example/">
</head><body>
<ul class="resource-list">
  <li class="resource-item" data-id="1">
    <a class="heading" href="/dataset/d/resource/1" title="Hor&aacute;rios &amp; Frequ&ecirc;ncias">Hor&aacute;rios &amp; Frequ<span class="format-label" data-format="csv">CSV</span>
    <div class="dropdown"><ul class="dropdown-menu"><li><a class="dropdown-item" href="/dataset/d/resource/1">Mais</a>
    <li><a class="dropdown-item resource-url-analytics" href=" /dataset/d/resource/1/download/08-2026_horarios_sigma.csv?x=1&amp;y=2#frag ">Baixar</a>
  <li class="resource-item" data-id="2"><a class="heading" href="/dataset/d/resource/2">Horários<span class="format-label">CSV</span></a>
    <ul><li><a class="resource-url-analytics" href="javascript:alert(1)">Baixar</a></li></ul>
    <a href="/dataset/d/resource/2/download/09-2026_horarios_sigma.csv">09-2026 (link solto)</a>
  </li>
  <li class="resource-item"><a class="heading">Sem link</a></li>
  <li class="resource-item"><a class="resource-url-analytics" href="ftp://ftp.example.org/10-2026_horarios_sigma.csv">ftp</a></li>
  <li class="resource-item"><a class="resource-url-analytics" href="http://[::1">IPv6 quebrado</a></li>
  <li class="resource-item"><a class="resource-url-analytics" href="data:text/csv,a;b">data</a></li>
</ul>
<p>Também: <a href="https://dados.antt.gov.br/dataset/d/resource/3/download/venda_passagem_09_2026.csv"><b>Venda</b> <i>09/2026</i></a>
<a href='/dataset/d/resource/1/download/08-2026_horarios_sigma.csv?x=1&y=2'>repetido</a>
<a href=/dataset/d/resource/4/download/%3Cscript%3E.csv>&lt;script&gt;</a>
<a href="/dataset/d/resource/5">não é download</a><a name="x"><a href
<div <div =x><li class="resource-item"><a class="heading" title="sem fim" href="/r/6"><span>
"""


def test_hostile_page():
    found = resources(HOSTILE, "https://dados.antt.gov.br/dataset/d")
    base = "https://dados.antt.gov.br/dataset/d/resource"
    assert found == [
        Resource("Horários & Frequências", f"{base}/1/download/08-2026_horarios_sigma.csv?x=1&y=2"),
        Resource("09-2026 (link solto)", f"{base}/2/download/09-2026_horarios_sigma.csv"),
        Resource("Venda 09/2026", f"{base}/3/download/venda_passagem_09_2026.csv"),
        Resource("<script>", f"{base}/4/download/%3Cscript%3E.csv"),
    ]
    assert newest(found, SIGMA_HORARIOS, "https://dados.antt.gov.br/dataset/d")[1] == "2026-09"


@pytest.mark.parametrize("html", ["", "<", "<li class='resource-item'>" * 5000, "<a href='/download/x.csv'>" * 3,
                                  "\x00<a href='/download/\x00.csv'>\udcff</a>", "<!--", "<![CDATA[", "&#xDFFF;" * 10,
                                  "<a href='/download/x.csv' href='/download/y.csv'>dois href</a>"])
def test_broken_markup_does_not_break_the_reader(html):
    found = resources(html, "https://dados.antt.gov.br/dataset/d")
    assert all(r.url.startswith("https://dados.antt.gov.br/") for r in found)


def test_long_names_from_the_real_templates_keep_the_title():
    name = "Pontos do Esquema Operacional - Setembro de 2026 (arquivo completo)"
    with Standin({SLUG: [(name, "09-2026_pontos_do_esquema_operacional_sigma.csv", b"x")]}, robots=None) as s:
        page = s.render(SLUG)
        assert name[:47] + "..." in page  # CKAN cuts the shown name at 50 characters
        assert resources(page, s.page_url(SLUG))[0].name == name


def test_default_robots_of_the_standin_is_the_reported_one():
    assert DEFAULT_ROBOTS == "User-agent: *\nDisallow: /api/\nCrawl-delay: 10\n"
