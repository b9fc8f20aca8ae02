"""The nightly job against a local HTTP server on 127.0.0.1 serving fixture exports: a normal source, an
unchanged one (304), and servers that are down, slow, answer 404, send a truncated or an oversized file.
Every request loop is bounded (few retries, sub-second timeouts) and stops by itself."""

from __future__ import annotations

import hashlib
import json
import os
import socket
import subprocess
import threading
import time
from datetime import date
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from conftest import FIXTURES, PROJECT_ROOT

from pipeline.nightly import NightlyError, load_config, run

EXPORT = (FIXTURES / "antt" / "horarios-formato-novo.csv").read_bytes()
ETAG = '"' + hashlib.sha256(EXPORT).hexdigest()[:16] + '"'
MODIFIED = formatdate(1_700_000_000, usegmt=True)


class Handler(BaseHTTPRequestHandler):
    hits: dict[str, int] = {}

    def log_message(self, format, *args):  # noqa: A002
        pass

    def do_GET(self):  # noqa: N802 - the stdlib's name
        Handler.hits[self.path] = Handler.hits.get(self.path, 0) + 1
        if self.path == "/quadro.csv":
            if self.headers.get("If-None-Match") == ETAG:
                self.send_response(304)
                self.end_headers()
                return
            self._send(EXPORT, {"ETag": ETAG, "Last-Modified": MODIFIED})
        elif self.path == "/lento.csv":
            time.sleep(1.5)
            self._send(EXPORT)
        elif self.path == "/truncado.csv":
            self.send_response(200)
            self.send_header("Content-Length", str(len(EXPORT) + 500))
            self.end_headers()
            self.wfile.write(EXPORT[:200])
            self.wfile.flush()
            self.close_connection = True
        elif self.path == "/grande.csv":
            self._send(EXPORT * 200)
        else:
            self.send_error(404)

    def _send(self, body: bytes, headers: dict | None = None):
        self.send_response(200)
        self.send_header("Content-Type", "text/csv; charset=iso-8859-1")
        self.send_header("Content-Length", str(len(body)))
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        self.end_headers()
        self.wfile.write(body)


@pytest.fixture(scope="module")
def server():
    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


def config_file(tmp_path: Path, url: str, **limits) -> Path:
    limits = {"timeout": 0.5, "retries": 1, "backoff": 0.05, "max_bytes": 100_000, **limits}
    text = f'[[fonte]]\nnome = "antt-horarios"\nadaptador = "antt-horarios"\nurl = "{url}"\n\n[nightly]\n'
    text += "".join(f"{k} = {v}\n" for k, v in limits.items())
    path = tmp_path / "nightly.toml"
    path.write_text(text, encoding="utf-8")
    return path


def job(tmp_path: Path, url: str, **limits):
    return load_config(config_file(tmp_path, url, **limits), out=tmp_path / "site", state=tmp_path / "estado",
                       as_of=date(2026, 11, 29))


def test_a_source_is_fetched_ingested_built_checked_and_published(server, tmp_path):
    summary = run(job(tmp_path, server + "/quadro.csv"))
    assert summary.published and summary.broken_links == [] and summary.errors == 0
    [source] = summary.sources
    assert source["situacao"].startswith("nova versão; ingerida") and source["bytes"] == len(EXPORT)
    assert summary.rows["horarios"] > 0 and summary.rows["tarifas"] == "não coberto"
    site = tmp_path / "site"
    assert (site / "index.html").is_file() and not (site / "index.html").read_text(encoding="utf-8").count("ficticio")
    text = summary.markdown(date(2026, 11, 29))
    assert "**Publicado**" in text and "antt-horarios (antt-horarios): nova versão" in text
    assert "- horarios: " in text and "links quebrados: 0" in text and "- validação: " in text


def test_an_unchanged_source_is_neither_downloaded_nor_ingested_again(server, tmp_path):
    run(job(tmp_path, server + "/quadro.csv"))
    report = tmp_path / "estado" / "antt-horarios" / "pacote" / "ingest-report.json"
    before = report.stat().st_mtime_ns
    summary = run(job(tmp_path, server + "/quadro.csv"))
    assert summary.published
    assert summary.sources[0]["situacao"] == "inalterada (HTTP 304); pacote anterior reaproveitado, sem nova ingestão"
    assert report.stat().st_mtime_ns == before
    # the second night compared its release with the published one: nothing changed, and it says so
    changes = json.loads((tmp_path / "site" / "dados" / "mudancas.json").read_text(encoding="utf-8"))
    assert changes["tabelas"] and all(t["situacao"] == "sem_mudancas" for t in changes["tabelas"])


@pytest.mark.parametrize("path, reason", [
    ("DOWN", "servidor fora do ar"),
    ("/lento.csv", "sem resposta dentro do tempo limite"),
    ("/ausente.csv", "o servidor respondeu HTTP 404"),
    ("/truncado.csv", "download truncado"),
    ("/grande.csv", "acima do limite de 100000"),
])
def test_a_failing_source_publishes_nothing_and_keeps_the_last_good_site(server, tmp_path, path, reason):
    run(job(tmp_path, server + "/quadro.csv"))
    before = (tmp_path / "site" / "index.html").read_bytes()
    url = f"http://127.0.0.1:{closed_port()}/quadro.csv" if path == "DOWN" else server + path
    Handler.hits.pop(path, None)
    started = time.monotonic()
    with pytest.raises(NightlyError, match=reason):
        run(job(tmp_path, url))
    assert time.monotonic() - started < 10  # bounded: 2 attempts, sub-second timeouts
    if path in ("/lento.csv", "/truncado.csv"):
        assert Handler.hits[path] == 2  # a transient failure is retried once, as configured
    if path == "/ausente.csv":
        assert Handler.hits[path] == 1  # a 404 is final: no retry
    assert (tmp_path / "site" / "index.html").read_bytes() == before


def test_a_broken_internal_link_stops_the_publication(server, tmp_path, monkeypatch):
    run(job(tmp_path, server + "/quadro.csv"))
    before = (tmp_path / "site" / "index.html").read_bytes()
    monkeypatch.setattr("pipeline.site.links.broken_links", lambda site, base="": [("index.html", "/nada/")])
    with pytest.raises(NightlyError, match="1 link"):
        run(job(tmp_path, server + "/quadro.csv"))
    assert (tmp_path / "site" / "index.html").read_bytes() == before


def test_make_nightly_runs_end_to_end_and_writes_its_summary(server, tmp_path):
    config = config_file(tmp_path, server + "/quadro.csv")
    proc = subprocess.run(
        ["make", "-s", "nightly", f"NIGHTLY_CONFIG={config}", f"NIGHTLY_STATE={tmp_path / 'estado'}",
         f"OUT={tmp_path / 'site'}", "AS_OF=2026-11-29"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, env={**os.environ, "GITHUB_STEP_SUMMARY": str(tmp_path / "gh.md")},
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "# Build noturno — 2026-11-29" in proc.stdout and "**Publicado**" in proc.stdout
    summary = (tmp_path / "estado" / "resumo.md").read_text(encoding="utf-8")
    assert summary == (tmp_path / "gh.md").read_text(encoding="utf-8")
    assert (tmp_path / "site" / "linhas").is_dir()
    failed = subprocess.run(
        ["make", "-s", "nightly", f"NIGHTLY_CONFIG={config_file(tmp_path, server + '/ausente.csv')}",
         f"NIGHTLY_STATE={tmp_path / 'estado'}", f"OUT={tmp_path / 'site'}", "AS_OF=2026-11-29"],
        cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300,
    )
    assert failed.returncode != 0 and "nada foi publicado" in failed.stderr
    assert "NADA PUBLICADO" in (tmp_path / "estado" / "resumo.md").read_text(encoding="utf-8")


def test_a_malformed_config_is_a_message(tmp_path):
    bad = tmp_path / "n.toml"
    bad.write_text('[[fonte]]\nnome = "x"\nadaptador = "nenhum"\nurl = "ftp://x"\n', encoding="utf-8")
    with pytest.raises(NightlyError, match="adaptador desconhecido nenhum"):
        load_config(bad)
