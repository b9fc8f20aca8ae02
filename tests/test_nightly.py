"""The nightly job end to end against a local stand-in for the regulator's catalogue (tests/standin.py, on
127.0.0.1 only): dataset pages in CKAN's markup whose files change name every month, robots.txt, a source
that fails, one that shrinks, one that never worked. Every request loop is bounded (one retry, sub-second
timeouts) and stops by itself. The exports served are the project's fixtures (tests/fixtures/antt/README.md),
written from the documented headers."""

from __future__ import annotations

import functools
import http.server
import json
import os
import subprocess
import sys
import threading
from datetime import date
from pathlib import Path

import pytest
from conftest import FIXTURES, PROJECT_ROOT, page_text
from standin import Standin

from pipeline.nightly import NightlyError, load_config, run

ANTT = FIXTURES / "antt"
HORARIOS = (ANTT / "horarios-sigma.csv").read_bytes()
SECOES = (ANTT / "linhas-secoes-sigma.csv").read_bytes()
HABILITADAS = (ANTT / "habilitadas-regular.csv").read_bytes()
SIGMA, LICENCES = "gerenciamento-de-autorizacoes", "empresas-habilitadas"
NO_DELAY = "User-agent: *\nDisallow: /api/\n"


def catalogue(**extra) -> Standin:
    return Standin({
        SIGMA: [("Horários", "08-2026_horarios_sigma.csv", HORARIOS),
                ("Horários", "09-2026_horarios_sigma.csv", HORARIOS),
                ("Empresas, Linhas e Seções", "09-2026_empresas_linhas_secoes_sigma.csv", SECOES),
                ("Dicionário", "horarios_dicionario_dados.pdf", b"%PDF-1.4 ficticio")],
        LICENCES: [("Regular", "empresas_habilitadas_regular_09_2026.csv", HABILITADAS)],
    }, robots=extra.pop("robots", NO_DELAY), **extra)


def config_file(tmp_path: Path, site: Standin, *, sources: list[str] | None = None, **limits) -> Path:
    limits = {"timeout": 0.5, "retries": 1, "backoff": 0.05, "max_bytes": 1_000_000, **limits}
    blocks = {
        "horarios": f'nome = "antt-horarios"\nadaptador = "antt-horarios"\npagina = "{site.page_url(SIGMA)}"\n'
                    "arquivo = '(?P<mes>[0-9]{2})-(?P<ano>[0-9]{4})_horarios_sigma\\.csv'\n",
        "secoes": f'nome = "antt-linhas-secoes"\nadaptador = "antt-linhas-secoes"\npagina = "{site.page_url(SIGMA)}"\n'
                  "arquivo = '(?P<mes>[0-9]{2})-(?P<ano>[0-9]{4})_empresas_linhas_secoes_sigma\\.csv'\n",
        "habilitadas": f'nome = "antt-habilitadas"\nadaptador = "antt-empresas-habilitadas"\n'
                       f'pagina = "{site.page_url(LICENCES)}"\n'
                       "arquivo = 'empresas_habilitadas_regular_(?P<mes>[0-9]{2})_(?P<ano>[0-9]{4})\\.csv'\n",
    }
    text = "".join(f"[[fonte]]\n{blocks[name]}\n" for name in (sources or list(blocks)))
    text += "[nightly]\n" + "".join(f"{k} = {json.dumps(v)}\n" for k, v in limits.items())
    path = tmp_path / "nightly.toml"
    path.write_text(text, encoding="utf-8")
    return path


def job(tmp_path: Path, site: Standin, day: int = 29, **kw):
    overrides = {k: kw.pop(k) for k in ("site_url", "previous", "versions_url", "contato") if k in kw}
    return load_config(config_file(tmp_path, site, **kw), out=tmp_path / "site", state=tmp_path / "estado",
                       as_of=date(2026, 11, day), **overrides)


def test_the_newest_files_are_found_on_the_dataset_pages_dated_and_published(tmp_path):
    with catalogue() as site:
        summary = run(job(tmp_path, site))
        paths = site.paths()
        agents = {r.headers.get("User-Agent") for r in site.requests}
    assert summary.published and summary.stale == [] and summary.broken_links == []
    by_name = {s["nome"]: s for s in summary.sources}
    assert [f["nome"] for f in by_name["antt-horarios"]["arquivos"]] == ["09-2026_horarios_sigma.csv"]  # not 08
    assert {s["data"] for s in summary.sources} == {"2026-09"}  # the period in the file names
    assert paths[0] == "/robots.txt" and not any(p.startswith("/api/") for p in paths)
    assert not any("08-2026" in p for p in paths) and not any(p.endswith(".pdf") for p in paths)
    assert agents == {next(iter(agents))} and "portal-transporte-rodoviario/nightly" in next(iter(agents))
    for page in ("dados", "sobre"):  # each lists every source with the period of its data
        assert page_text(tmp_path / "site" / page / "index.html").count("09/2026") >= 3, page
    assert "falhou" not in page_text(tmp_path / "site" / "index.html")
    text = summary.markdown(date(2026, 11, 29))
    assert "**Publicado**" in text and "09-2026_horarios_sigma.csv (2026-09" in text


def test_an_unchanged_file_is_asked_for_conditionally_and_not_ingested_again(tmp_path):
    with catalogue() as site:
        run(job(tmp_path, site))
        report = tmp_path / "estado" / "antt-horarios" / "pacote" / "ingest-report.json"
        before = report.stat().st_mtime_ns
        site.requests.clear()
        summary = run(job(tmp_path, site, day=30))
        conditional = [r for r in site.requests if "download" in r.path]
    assert summary.published and all(s["situacao"].startswith("inalterada") for s in summary.sources)
    assert conditional and all(r.headers.get("If-None-Match") for r in conditional)
    assert report.stat().st_mtime_ns == before
    changes = json.loads((tmp_path / "site" / "dados" / "mudancas.json").read_text(encoding="utf-8"))
    read = {"horarios", "linhas", "secoes", "transportadoras", "habilitacoes"}  # what the sources give
    assert {t["tabela"]: t["situacao"] for t in changes["tabelas"] if t["tabela"] in read} == dict.fromkeys(
        read, "sem_mudancas")


def test_next_month_file_with_a_new_name_replaces_the_old_one(tmp_path):
    with catalogue() as site:
        run(job(tmp_path, site))
        site.datasets[SIGMA].append(("Horários", "10-2026_horarios_sigma.csv", HORARIOS.replace(b"08:00", b"08:15")))
        site.requests.clear()
        summary = run(job(tmp_path, site, day=30))
        new = [r for r in site.requests if r.path.endswith("10-2026_horarios_sigma.csv")]
    horarios = next(s for s in summary.sources if s["nome"] == "antt-horarios")
    assert horarios["situacao"].startswith("atualizada") and horarios["data"] == "2026-10"
    assert len(new) == 1 and not new[0].headers.get("If-None-Match")  # a new file: asked for whole
    kept = sorted(p.name for p in (tmp_path / "estado" / "antt-horarios" / "arquivos").iterdir())
    assert kept == ["10-2026_horarios_sigma.csv"]
    assert "08:15" in (tmp_path / "site" / "dados" / "horarios.csv").read_text(encoding="utf-8")


def test_a_source_that_fails_keeps_its_last_good_copy_and_every_page_says_so(tmp_path):
    with catalogue() as site:
        run(job(tmp_path, site))
        site.behave(site.download_path(SIGMA, "09-2026_horarios_sigma.csv"), status=503)
        summary = run(job(tmp_path, site, day=30))
    assert summary.published and summary.stale == ["antt-horarios"]
    horarios = next(s for s in summary.sources if s["nome"] == "antt-horarios")
    assert "HTTP 503" in horarios["falhou"] and "publicada a cópia de 2026-11-29" in horarios["situacao"]
    said = "cópia de 29/11/2026: a atualização de 30/11/2026 falhou"
    line = page_text(tmp_path / "site" / "linhas" / "goto0113002" / "index.html")
    assert said in line and "HTTP 503" in line  # the page that shows the timetable, and its footer
    assert said in page_text(tmp_path / "site" / "sobre" / "index.html")
    published = json.loads((tmp_path / "site" / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    stale = [s for s in published["sources"] if "x-atualizacao-falhou" in s]
    assert [s["x-atualizacao-falhou"]["em"] for s in stale] == ["2026-11-30"]
    assert "**Publicado, com 1 fonte(s) desatualizada(s): antt-horarios**" in summary.markdown(date(2026, 11, 30))


def test_after_a_failed_night_the_next_one_starts_from_the_last_good_copy(tmp_path):
    with catalogue() as site:
        run(job(tmp_path, site))
        good = json.loads((tmp_path / "estado" / "antt-horarios" / "estado.json").read_text(encoding="utf-8"))
        path = site.download_path(SIGMA, "09-2026_horarios_sigma.csv")
        site.behave(path, body=HORARIOS[:40], times=2)  # a broken file: the ingest refuses it
        failed = run(job(tmp_path, site, day=30))
        assert failed.stale == ["antt-horarios"]
        again = run(job(tmp_path, site, day=30))  # the server is right again, unchanged since the good night
    horarios = next(s for s in again.sources if s["nome"] == "antt-horarios")
    assert again.stale == [] and horarios["situacao"].startswith("inalterada")
    [entry] = good["arquivos"].values()
    assert horarios["arquivos"][0]["sha256"] == entry["sha256"]  # not the broken file's
    assert "falhou" not in page_text(tmp_path / "site" / "linhas" / "goto0113002" / "index.html")


def test_a_file_that_loses_most_of_its_rows_is_held_back_with_the_figures(tmp_path):
    with catalogue() as site:
        run(job(tmp_path, site))
        lines = SECOES.split(b"\r\n")
        site.datasets[SIGMA][2] = ("Empresas, Linhas e Seções", "09-2026_empresas_linhas_secoes_sigma.csv",
                                   b"\r\n".join(lines[:3]) + b"\r\n")
        summary = run(job(tmp_path, site, day=30))
    secoes = next(s for s in summary.sources if s["nome"] == "antt-linhas-secoes")
    assert summary.stale == ["antt-linhas-secoes"]
    assert "perde mais de 25%" in secoes["falhou"] and "retido" in secoes["falhou"]


def test_a_server_that_announces_half_its_file_does_not_publish_half_the_rows(tmp_path):
    """HTTP ends a body at its Content-Length: the client keeps the half announced, and the shrink check
    holds it back."""
    with catalogue() as site:
        run(job(tmp_path, site))
        good = (tmp_path / "site" / "dados" / "secoes.csv").read_bytes()
        site.datasets[SIGMA][2] = ("Empresas, Linhas e Seções", "09-2026_empresas_linhas_secoes_sigma.csv",
                                   SECOES.replace(b"Executiva", b"Semileito"))  # a new file, all of it sent
        site.behave(site.download_path(SIGMA, "09-2026_empresas_linhas_secoes_sigma.csv"), content_length="half")
        summary = run(job(tmp_path, site, day=30))
    assert summary.stale == ["antt-linhas-secoes"]
    assert (tmp_path / "site" / "dados" / "secoes.csv").read_bytes() == good  # the last good copy's sections


def test_a_file_with_no_row_kept_is_not_published_and_a_source_never_fetched_is_left_out(tmp_path):
    with catalogue() as site:
        site.datasets[LICENCES][0] = ("Regular", "empresas_habilitadas_regular_09_2026.csv",
                                      HABILITADAS.split(b"\n")[0] + b"\n")
        summary = run(job(tmp_path, site))
    habilitadas = next(s for s in summary.sources if s["nome"] == "antt-habilitadas")
    assert summary.published and "não manteve nenhuma" in habilitadas["falhou"]
    assert "sem cópia anterior" in habilitadas["situacao"]
    assert summary.rows["habilitacoes"] == "não coberto"  # never "0"


def test_robots_txt_is_obeyed_and_its_crawl_delay_waited(tmp_path):
    with catalogue(robots="User-agent: *\nDisallow: /dataset/empresas-habilitadas\nCrawl-delay: 1\n") as site:
        summary = run(job(tmp_path, site, sources=["horarios", "habilitadas"]))
        times = [r.time for r in site.requests if r.path != "/robots.txt"]
        asked = site.paths()
    habilitadas = next(s for s in summary.sources if s["nome"] == "antt-habilitadas")
    assert "robots.txt" in habilitadas["falhou"] and "/dataset/empresas-habilitadas" not in asked
    assert all(b - a >= 0.95 for a, b in zip(times, times[1:]))  # a second between two requests


def test_nothing_is_published_when_no_source_works_and_none_has_a_copy(tmp_path):
    with catalogue() as site:
        site.behave(site.page_url(SIGMA), status=404)
        with pytest.raises(NightlyError, match="nenhuma fonte pôde ser atualizada"):
            run(job(tmp_path, site, sources=["horarios"]))
    assert not (tmp_path / "site").exists()


def test_the_catalogues_give_full_addresses_that_resolve_under_the_base_path(tmp_path):
    releases = "https://github.com/exemplo/portal/releases"
    with catalogue() as site:
        run(job(tmp_path, site, site_url="https://exemplo.github.io/portal", versions_url=releases))
    out = tmp_path / "site"
    assert f'href="{releases}"' in (out / "dados" / "index.html").read_text(encoding="utf-8")  # versions kept there
    text = (out / "dados" / "catalogo.jsonld").read_text(encoding="utf-8") + (out / "data.json").read_text("utf-8")
    addresses = {a.rstrip('",') for a in text.replace('"', " ").split() if a.startswith("https://exemplo.github.io/")}
    assert addresses and all(a.startswith("https://exemplo.github.io/portal/") for a in addresses)
    for address in addresses:
        local = out / address.removeprefix("https://exemplo.github.io/portal/").split("#")[0]
        assert local.exists() or (local / "index.html").exists(), address
    assert "https://exemplo.github.io/portal/" in (out / "sitemap.xml").read_text(encoding="utf-8")


def test_the_changes_are_computed_against_the_previous_release_fetched_over_http(tmp_path):
    with catalogue() as site:
        run(job(tmp_path, site))
        live = tmp_path / "no-ar"
        (tmp_path / "site").rename(live)  # what is deployed; a fresh runner has no output/
        handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(live))
        handler.log_message = lambda *a, **k: None
        with http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as server:
            threading.Thread(target=server.serve_forever, daemon=True).start()
            site.datasets[SIGMA].append(("Horários", "10-2026_horarios_sigma.csv", HORARIOS.replace(b"08:00", b"08:15")))
            try:
                run(job(tmp_path, site, day=30, previous=f"http://127.0.0.1:{server.server_address[1]}/dados/"))
            finally:
                server.shutdown()
    changes = json.loads((tmp_path / "site" / "dados" / "mudancas.json").read_text(encoding="utf-8"))
    horarios = next(t for t in changes["tabelas"] if t["tabela"] == "horarios")
    assert changes["anterior"] == "2026-11-29" and horarios["situacao"] == "alterada"


def test_the_command_says_in_its_exit_status_that_a_source_is_stale(tmp_path):
    with catalogue() as site:
        config = config_file(tmp_path, site, sources=["horarios", "secoes"])
        command = [sys.executable, "-m", "pipeline", "nightly", "--config", str(config), "--state",
                   str(tmp_path / "estado"), "--out", str(tmp_path / "site"), "--resumo", str(tmp_path / "resumo.md")]
        env = {**os.environ, "GITHUB_STEP_SUMMARY": str(tmp_path / "gh.md")}
        first = subprocess.run([*command, "--as-of", "2026-11-29"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                               env=env, timeout=300)
        site.behave(site.download_path(SIGMA, "09-2026_horarios_sigma.csv"), status=500)
        stale = subprocess.run([*command, "--as-of", "2026-11-30"], cwd=PROJECT_ROOT, capture_output=True, text=True,
                               env=env, timeout=300)
        site.behave(site.page_url(SIGMA), status=404)
        gone = subprocess.run([*command, "--as-of", "2026-12-01", "--state", str(tmp_path / "vazio")],
                              cwd=PROJECT_ROOT, capture_output=True, text=True, env=env, timeout=300)
    assert first.returncode == 0, first.stderr[-2000:]
    assert stale.returncode == 3 and "1 fonte(s) não atualizada(s) hoje: antt-horarios" in stale.stderr
    assert gone.returncode == 1 and "nada foi publicado" in gone.stderr
    summary = (tmp_path / "resumo.md").read_text(encoding="utf-8")
    assert "NADA PUBLICADO" in summary and "antt-horarios" in summary and "HTTP 404" in summary
    # a failed night's summary lists what each source did, and states no count of a build that did not run
    sources = summary.split("## Fontes", 1)[1]
    assert "- antt-horarios (antt-horarios):" in sources and "- antt-linhas-secoes (antt-linhas-secoes):" in sources
    assert "nenhuma fonte em nightly.toml" not in summary and "Erros: 0" not in summary


def test_the_summary_never_passes_on_what_another_system_sent_as_html():
    from pipeline.nightly import Summary

    summary = Summary(configured=1, failure='o build falhou: "<script>alert(1)</script>" & ' + "x" * 5000,
                      sources=[{"nome": "a", "adaptador": "b", "situacao": "falhou: <img src=x onerror=alert(1)>"}])
    text = summary.markdown(date(2026, 11, 29))
    assert "<script>" not in text and "<img" not in text and "&lt;script&gt;" in text and "&amp;" in text
    assert max(len(line) for line in text.splitlines()) <= 1010


def test_a_download_redirected_to_a_host_the_configuration_does_not_name_is_not_followed(tmp_path):
    """The catalogue's file redirects to another host (localhost here): the job asks nothing of it, the
    source keeps its last good copy (none on a first night: left out), and the summary says why."""
    with catalogue() as site, catalogue() as other:
        site.behave(site.download_path(SIGMA, "09-2026_horarios_sigma.csv"),
                    location=other.url("/qualquer").replace("127.0.0.1", "localhost"))
        with pytest.raises(NightlyError) as caught:
            run(job(tmp_path, site, sources=["horarios"]))
        assert other.paths() == []
    [source] = caught.value.summary.sources
    assert 'outro servidor, "localhost", que a configuração não autoriza' in source["falhou"]
    assert 'outro servidor, "localhost"' in caught.value.summary.markdown(date(2026, 11, 29))


@pytest.mark.parametrize("text, message", [
    ('[nightly]\ntempo = 3\n', 'chave desconhecida "tempo" em [nightly]'),
    ('[[fonte]]\nnome = "x"\nadaptador = "antt-horarios"\nurl = "https://a/b.csv"\nendereco = "y"\n',
     'chave desconhecida "endereco" em a fonte nº 1 (x)'),
    ('[[fonte]]\nnome = "../x"\nadaptador = "antt-horarios"\nurl = "https://a/b.csv"\n', "nome = '../x'"),
    ('[[fonte]]\nnome = "x"\nadaptador = "antt-horarios"\nurl = "https://a/b.csv"\n' * 2, 'duas fontes se chamam "x"'),
    ('[nightly]\ntimeout = "abc"\n', "timeout = 'abc': deve ser um número"),
    ('[nightly]\nretries = 1e9\n', "retries = 1000000000.0: deve ser um número inteiro"),
    ('[[fonte]]\nnome = "x"\nadaptador = "nenhum"\nurl = "https://a/b.csv"\n', "adaptador desconhecido nenhum"),
    ('[[fonte]]\nnome = "x"\nadaptador = "antt-horarios"\nurl = "ftp://x"\n', "um endereço http:// ou https://"),
    ('[[fonte]]\nnome = "x"\nadaptador = "antt-horarios"\npagina = "https://a/dataset/b"\n', "informe arquivo"),
    ('[[fonte]]\nnome = "x"\nadaptador = "antt-horarios"\npagina = "https://a/d"\narquivo = "(?P<mes>1"\n',
     "expressão regular válida"),
    ('[[fonte]]\nnome = "x"\nadaptador = "antt-horarios"\nurl = "https://a/b.csv"\nmeses = 3\n', "meses deve ser 1"),
    ('[nightly]\nbase_path = "/a/../b"\n', '"." ou ".."'),
])
def test_a_malformed_config_is_refused_naming_the_key_before_anything_is_downloaded(tmp_path, text, message):
    bad = tmp_path / "n.toml"
    bad.write_text(text, encoding="utf-8")
    with pytest.raises(NightlyError) as refused:
        load_config(bad)
    assert message in str(refused.value)


def test_the_contact_given_on_the_command_line_is_checked_and_named_in_the_user_agent(tmp_path):
    with pytest.raises(NightlyError, match="--contato"):
        load_config(PROJECT_ROOT / "nightly.toml", contato="x)\nHost: outro")
    with catalogue() as site:
        summary = run(job(tmp_path, site, sources=["habilitadas"], contato="https://github.com/exemplo/portal"))
        agents = {r.headers.get("User-Agent") for r in site.requests}
    assert len(agents) == 1 and "https://github.com/exemplo/portal" in agents.pop()
    # an address that is not an e-mail reaches no catalogue, and the summary says what is missing
    catalogue_json = json.loads((tmp_path / "site" / "data.json").read_text(encoding="utf-8"))
    assert all("hasEmail" not in d["contactPoint"] for d in catalogue_json["dataset"])
    assert ("sem e-mail de contato: data.json e catalogo.jsonld saem sem contactPoint.hasEmail, que o Project "
            "Open Data exige; defina a variável CONTATO_EMAIL do repositório") in summary.markdown(date(2026, 11, 29))


def test_a_mailto_contact_is_the_catalogues_e_mail_and_the_summary_says_nothing_is_missing(tmp_path):
    with catalogue() as site:
        summary = run(job(tmp_path, site, sources=["habilitadas"], contato="mailto:dados@transparencia-onibus.org.br"))
    catalogue_json = json.loads((tmp_path / "site" / "data.json").read_text(encoding="utf-8"))
    assert {d["contactPoint"].get("hasEmail") for d in catalogue_json["dataset"]} == {
        "mailto:dados@transparencia-onibus.org.br"}
    assert "CONTATO_EMAIL" not in summary.markdown(date(2026, 11, 29))


def test_the_shipped_config_lists_every_antt_dataset_the_adapters_read():
    config = load_config(PROJECT_ROOT / "nightly.toml")
    adapters = {s.adaptador for s in config.sources}
    from pipeline.adapters import ADAPTERS
    assert adapters == set(ADAPTERS)
    assert all(s.pagina.startswith("https://dados.antt.gov.br/dataset/") and s.arquivo for s in config.sources)
    assert load_config(PROJECT_ROOT / "nightly.toml", base_path="/portal/").base_path == "/portal"


def test_make_nightly_against_the_stand_in_publishes_the_real_portal_a_fresh_runner_deploys(tmp_path):
    """The workflow's two nights, through `make nightly`: the second on a fresh runner (no output/), with the
    live site's /dados/ as the previous release over HTTP, the timetable's server down."""
    served = tmp_path / "servidor"
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(served))
    handler.log_message = lambda *a, **k: None
    with catalogue() as site, http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler) as live:
        threading.Thread(target=live.serve_forever, daemon=True).start()
        address = f"http://127.0.0.1:{live.server_address[1]}/portal"
        config = config_file(tmp_path, site)

        def night(day: str, out: Path, *extra: str):
            return subprocess.run(["make", "-s", "nightly", f"NIGHTLY_CONFIG={config}", f"NIGHTLY_STATE={tmp_path / 'estado'}",
                                   f"OUT={out}", f"AS_OF={day}", f"SITE_URL={address}", *extra],
                                  cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
        try:
            first = night("2026-11-29", tmp_path / "noite1")
            assert first.returncode == 0, first.stderr[-2000:]
            served.mkdir()
            (tmp_path / "noite1").rename(served / "portal")  # deployed
            site.behave(site.download_path(SIGMA, "09-2026_horarios_sigma.csv"), status=503)
            second = night("2026-11-30", tmp_path / "output", f"ANTERIOR={address}/dados/")
        finally:
            live.shutdown()
    assert second.returncode == 0 and "::warning" in second.stdout + second.stderr, second.stderr[-2000:]
    out = tmp_path / "output"
    # the command line's Whoosh index is not published: the job writes none, the browser's search it does
    assert not list((tmp_path / "estado").glob("**/_MAIN_*.toc")) and (out / "pagefind" / "pagefind-entry.json").is_file()
    dados = page_text(out / "dados" / "index.html")
    assert dados.count("09/2026") >= 3 and "a atualização de 30/11/2026 falhou" in dados
    changes = json.loads((out / "dados" / "mudancas.json").read_text(encoding="utf-8"))
    assert changes["anterior"] == "2026-11-29"  # compared with the release fetched over HTTP
    facts = json.loads((out / "linhas" / "goto0113002" / "index.json").read_text(encoding="utf-8"))
    assert facts["url"] == f"{address}/linhas/goto0113002/"  # a record's JSON gives full addresses
    for catalogue_file in (out / "dados" / "catalogo.jsonld", out / "data.json"):
        text = catalogue_file.read_text(encoding="utf-8").replace('"', " ")
        host = address.removesuffix("/portal")  # the site's server (the catalogue's pages are on another port)
        addresses = {a.rstrip(",") for a in text.split() if a.startswith(host)}
        assert addresses and all(a.startswith(address + "/") for a in addresses)
        assert " /dados/" not in text  # no address without the site's sub-path
        for a in addresses:
            local = out / a.removeprefix(address + "/").split("#")[0]
            assert local.exists() or (local / "index.html").exists(), a


def test_a_file_with_no_period_in_its_name_is_dated_by_last_modified(tmp_path):
    """``empresas_habilitadas_regular.csv`` is also published without a date: a fixed url, dated by the
    server's Last-Modified (the stand-in's: 29/08/2026)."""
    with Standin({LICENCES: [("Regular", "empresas_habilitadas_regular.csv", HABILITADAS)]}, robots=NO_DELAY) as site:
        config = tmp_path / "n.toml"
        config.write_text(f'[[fonte]]\nnome = "antt-habilitadas"\nadaptador = "antt-empresas-habilitadas"\n'
                          f'url = "{site.download_url(LICENCES, "empresas_habilitadas_regular.csv")}"\n'
                          '[nightly]\ntimeout = 0.5\nretries = 1\nbackoff = 0.05\n', encoding="utf-8")
        summary = run(load_config(config, out=tmp_path / "site", state=tmp_path / "estado", as_of=date(2026, 11, 29)))
    assert summary.published and summary.sources[0]["data"] == "2026-08-29"
    assert "29/08/2026" in page_text(tmp_path / "site" / "dados" / "index.html")


def test_a_night_that_would_not_fit_github_pages_publishes_nothing_and_says_why(tmp_path, monkeypatch):
    """Issue 31: the site is measured as GitHub Pages takes it before anything is published; over the limit
    the summary names the cause and the largest files, and the live site stays as it was. Within it, the
    night's release is written beside the site (output-release/) and the summary says for which version."""
    from pipeline.publish import hosting

    releases = "https://github.com/exemplo/portal/releases"
    with catalogue() as site:
        summary = run(job(tmp_path, site, site_url="https://exemplo.github.io/portal", versions_url=releases))
        assert summary.published and (tmp_path / "site-release" / "SHA256SUMS").is_file()
        version = json.loads((tmp_path / "site" / "dados" / "datapackage.json").read_text(encoding="utf-8"))["x-versao"]
        text = summary.markdown(date(2026, 11, 29))
        assert "## Hospedagem" in text and f"para a release {version}" in text
        before = (tmp_path / "site" / "index.html").read_bytes()
        monkeypatch.setattr(hosting, "PAGES_LIMIT", 1_000_000)
        with pytest.raises(NightlyError) as caught:
            run(job(tmp_path, site, day=30, site_url="https://exemplo.github.io/portal", versions_url=releases))
    assert "acima do limite de 1 MB" in str(caught.value) and "maiores arquivos:" in str(caught.value)
    assert (tmp_path / "site" / "index.html").read_bytes() == before


def test_a_month_missing_from_a_series_is_said_on_every_page_and_a_month_to_come_is_refused(tmp_path):
    """Monitriip's last four months as nightly.toml asks, with August absent from the catalogue and a file
    of December 2026 listed on 29/11/2026: the job reads June, July and September, refuses December (data
    cannot be of a month to come), and every page that names the source says that August is missing."""
    sys.path.insert(0, str(PROJECT_ROOT / "bench"))
    from exports import write_export

    files = []
    for month in (6, 7, 9, 12):
        path = write_export("antt-monitriip-bilhetes", 6, tmp_path / f"venda_passagem_{month:02d}_2026.csv",
                            period=(2026, month))
        files.append(("Bilhetes", path.name, path.read_bytes()))
    config = tmp_path / "nightly.toml"
    with Standin({"monitriip-bilhetes-de-passagem": files}, robots=NO_DELAY) as site:
        config.write_text(
            '[[fonte]]\nnome = "antt-monitriip"\nadaptador = "antt-monitriip-bilhetes"\n'
            f'pagina = "{site.page_url("monitriip-bilhetes-de-passagem")}"\n'
            "arquivo = 'venda_passagem_(?P<mes>[0-9]{2})_(?P<ano>[0-9]{4})\\.csv'\nmeses = 4\n"
            '[nightly]\ntimeout = 0.5\nretries = 1\nbackoff = 0.05\n', encoding="utf-8")
        summary = run(load_config(config, out=tmp_path / "site", state=tmp_path / "estado", as_of=date(2026, 11, 29)))
        asked = site.paths()
    [source] = summary.sources
    assert [f["periodo"] for f in source["arquivos"]] == ["2026-06", "2026-07", "2026-09"]
    assert source["lacunas"] == ["2026-08"] and source["posteriores"] == ["venda_passagem_12_2026.csv"]
    assert not any("12_2026" in p for p in asked if "/download/" in p)
    text = summary.markdown(date(2026, 11, 29))
    assert "faltam no catálogo os meses 08/2026" in text and "venda_passagem_12_2026.csv" in text
    for page in ("index.html", "sobre/index.html", "dados/index.html", "dados/bilhetes/index.html"):
        assert "falta o mês 08/2026 no catálogo da fonte" in page_text(tmp_path / "site" / page), page


def test_a_file_cut_short_on_a_first_night_publishes_none_of_its_rows(tmp_path):
    """The server's Content-Length lies: it declares, and sends, only the first part of the file, which ends
    in the middle of a line. On a first night there is no earlier copy to compare it with: the ingest refuses
    a file whose last line has no line break, and the source is left out instead of published in part."""
    cut = HORARIOS[: len(HORARIOS) // 2]
    assert not cut.endswith(b"\n")
    with Standin({SIGMA: [("Horários", "09-2026_horarios_sigma.csv", cut)]}, robots=NO_DELAY) as site:
        with pytest.raises(NightlyError) as caught:
            run(job(tmp_path, site, sources=["horarios"]))
    [source] = caught.value.summary.sources
    assert "a última linha não termina com quebra de linha" in source["falhou"]
    assert "a fonte ficou de fora" in source["situacao"] and not (tmp_path / "site").exists()
