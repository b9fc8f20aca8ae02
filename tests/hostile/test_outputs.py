"""The folders the tools write, as a user sees them (issue "Trust nothing from outside"): folders that
overlap are refused before anything is written, one run at a time writes a folder (a second stops at once,
naming the first), what a killed run left beside a folder is cleaned up by the next, and the public address
and sub-path of the site are checked. Everything goes through ``pipeline.__main__.main``, in this process."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import MINIMAL, PROJECT_ROOT, snapshot

from pipeline.__main__ import main
from pipeline.contract.settings import Settings
from pipeline.tools import folders

AS_OF = "2026-06-30"


def run(capsys, *args: str) -> tuple[int, str]:
    """``python -m pipeline ...`` in this process: the exit code and what it printed on stderr."""
    capsys.readouterr()
    code = main(list(args))
    return code, capsys.readouterr().err


def build(capsys, out: Path, *more: str, data: Path = MINIMAL) -> tuple[int, str]:
    return run(capsys, "build", "--data", str(data), "--out", str(out), "--as-of", AS_OF, *more)


def copy_of_minimal(folder: Path) -> Path:
    shutil.copytree(MINIMAL, folder)
    return folder


# --- (a) build: folders that overlap ---------------------------------------------------------------------


@pytest.mark.parametrize("spelled", ["same", "link"])
def test_out_and_index_the_same_folder_are_refused_before_anything_is_written(spelled, tmp_path, capsys):
    site = tmp_path / "S"
    index = site
    if spelled == "link":  # a link to the site is the site
        index = tmp_path / "atalho"
        index.symlink_to(site, target_is_directory=True)
    before = snapshot(tmp_path)
    code, err = build(capsys, site, "--index", str(index))
    assert code == 2
    assert f"--out {site} e --index {index} são a mesma pasta" in err and "Traceback" not in err
    assert not site.exists() and snapshot(tmp_path) == before


def test_an_index_inside_the_site_is_refused_and_the_site_kept(tmp_path, capsys):
    site = tmp_path / "S"
    assert build(capsys, site, "--no-search")[0] == 0
    before = snapshot(tmp_path)
    code, err = build(capsys, site, "--index", str(site / "busca-cli"))
    assert code == 2
    assert f"--index {site / 'busca-cli'} fica dentro de --out {site}" in err
    assert snapshot(tmp_path) == before


def test_a_site_inside_a_data_folder_is_refused(tmp_path, capsys):
    data = copy_of_minimal(tmp_path / "pacote")
    before = snapshot(tmp_path)
    code, err = build(capsys, data / "site", "--no-search", data=data)
    assert code == 2
    assert f"--out {data / 'site'} fica dentro de --data {data}" in err
    assert snapshot(tmp_path) == before


def test_a_data_folder_inside_the_site_is_refused(tmp_path, capsys):
    site = tmp_path / "S"
    data = copy_of_minimal(site / "pacote")
    before = snapshot(tmp_path)
    code, err = build(capsys, site, "--no-search", data=data)
    assert code == 2
    assert f"--data {data} fica dentro de --out {site}" in err
    assert snapshot(tmp_path) == before


def test_a_previous_release_folder_holding_the_site_is_refused(tmp_path, capsys):
    previous = tmp_path / "lancamentos"
    previous.mkdir()
    (previous / "leia-me.txt").write_text("não mexa", encoding="utf-8")
    site = previous / "site"
    before = snapshot(tmp_path)
    code, err = build(capsys, site, "--no-search", "--anterior", str(previous))
    assert code == 2
    assert f"--out {site} fica dentro de --anterior {previous}" in err
    assert not site.exists() and snapshot(tmp_path) == before


def test_the_previous_release_may_be_the_site_being_replaced(tmp_path, capsys):
    site = tmp_path / "S"
    assert build(capsys, site, "--no-search", "--as-of", "2026-05-31")[0] == 0
    # the nightly job's case: the release is read before the swap, its versions are kept
    for previous, as_of in ((site, "2026-06-30"), (site / "dados", "2026-07-31")):
        code, err = build(capsys, site, "--no-search", "--anterior", str(previous), "--as-of", as_of)
        assert code == 0, err
        assert (site / "index.html").is_file() and (site / "dados" / "mudancas.json").is_file()
        (first,) = [p for p in (site / "dados" / "versoes").iterdir() if p.name.startswith("2026-05-31-")]
        assert (first / "datapackage.json").is_file()
    names = sorted(p.name for p in (site / "dados" / "versoes").iterdir())  # <data>-<código> (issue 26)
    assert [name[:10] for name in names] == ["2026-05-31", "2026-06-30", "2026-07-31"]


# --- (b) nightly: the site and the state folder --------------------------------------------------------------


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]  # nothing listens there once the socket is closed


def nightly_config(tmp_path: Path, with_source: bool = False) -> Path:
    """A config with no source (the job would build the sample) or with one on a closed port."""
    text = "[nightly]\ntimeout = 0.5\nretries = 0\nbackoff = 0.05\n"
    if with_source:
        text = (f'[[fonte]]\nnome = "antt-horarios"\nadaptador = "antt-horarios"\n'
                f'url = "http://127.0.0.1:{closed_port()}/quadro.csv"\n\n') + text
    path = tmp_path / "nightly.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize("state", ["X", "X/estado"])
def test_nightly_state_and_site_that_overlap_are_refused_before_any_work(state, tmp_path, capsys):
    config = nightly_config(tmp_path)
    site = tmp_path / "X"
    site.mkdir()
    (site / "index.html").write_text("o site publicado", encoding="utf-8")
    before = snapshot(tmp_path)
    code, err = run(capsys, "nightly", "--config", str(config), "--out", str(site), "--state", str(tmp_path / state))
    assert code == 2 and "Traceback" not in err
    assert f"--out {site}" in err and f"--state {tmp_path / state}" in err
    assert ("são a mesma pasta" if state == "X" else "fica dentro de --out") in err
    assert snapshot(tmp_path) == before


def test_nightly_refuses_a_bad_base_path_before_downloading(tmp_path, capsys):
    config = nightly_config(tmp_path, with_source=True)
    before = snapshot(tmp_path)
    code, err = run(capsys, "nightly", "--config", str(config), "--out", str(tmp_path / "site"),
                    "--state", str(tmp_path / "estado"), "--base-path", "/..")
    assert code == 2 and '--base-path "/.."' in err
    assert snapshot(tmp_path) == before  # no download tried, no state folder, no summary


def test_the_nightly_summary_is_never_written_into_the_published_site(tmp_path, capsys):
    config = nightly_config(tmp_path)
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("o site publicado", encoding="utf-8")
    before = snapshot(tmp_path)
    code, err = run(capsys, "nightly", "--config", str(config), "--out", str(site), "--state",
                    str(tmp_path / "estado"), "--resumo", str(site / "resumo.md"))
    assert code == 2 and f"--resumo {site / 'resumo.md'} fica dentro de --out {site}" in err
    assert snapshot(tmp_path) == before


# --- (c) validate: the report is not written into a package ---------------------------------------------


@pytest.mark.parametrize("report", ["r.json", ""])
def test_a_report_inside_or_over_the_package_is_refused(report, tmp_path, capsys):
    data = copy_of_minimal(tmp_path / "pacote")
    target = data / report if report else data
    before = snapshot(tmp_path)
    code, err = run(capsys, "validate", str(data), "--report", str(target))
    assert code == 2
    assert f"--report {target}" in err and f"pasta de dados {data}" in err
    assert snapshot(tmp_path) == before


# --- (d) one run at a time ---------------------------------------------------------------------------


def test_a_second_build_into_a_locked_folder_stops_at_once_naming_the_first(tmp_path, capsys):
    site = tmp_path / "site"
    with folders.exclusive(site):
        code, err = build(capsys, site, "--no-search")
        assert code == 1
        assert f"PID {os.getpid()}" in err and str(site) in err and "Traceback" not in err
        assert "[leitura]" not in err  # stopped before reading anything
        assert not site.exists()
    assert not folders.lock_path(site).exists()  # the lock file goes with its holder
    code, err = build(capsys, site, "--no-search")
    assert code == 0, err
    assert (site / "index.html").is_file() and not folders.lock_path(site).exists()


@pytest.mark.parametrize("command", [
    ["generate", "--scale", "small"],
    ["ingest", "antt-horarios", str(MINIMAL.parent / "antt" / "horarios-formato-novo.csv")],
])
def test_generate_and_ingest_hold_the_lock_too(command, tmp_path, capsys):
    out = tmp_path / "pacote"
    with folders.exclusive(out):
        code, err = run(capsys, *command, "--out", str(out))
    assert code == 1 and f"PID {os.getpid()}" in err and not out.exists()


@pytest.mark.parametrize("locked", ["out", "state"])
def test_a_nightly_job_stops_when_its_site_or_state_is_being_written(locked, tmp_path, capsys):
    paths = {"out": tmp_path / "site", "state": tmp_path / "estado"}
    config = nightly_config(tmp_path)
    with folders.exclusive(paths[locked]):
        code, err = run(capsys, "nightly", "--config", str(config), "--out", str(paths["out"]),
                        "--state", str(paths["state"]))
    assert code == 1 and f"PID {os.getpid()}" in err and "Traceback" not in err
    assert not paths["out"].exists() and not paths["state"].exists()


HOLDER = """
import sys, time
from pipeline.tools import folders
with folders.exclusive(sys.argv[1]):
    print("preso", flush=True)
    time.sleep(60)
"""


def test_a_lock_held_by_another_process_then_left_by_its_death(tmp_path, capsys):
    site = tmp_path / "site"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(site)], cwd=PROJECT_ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "preso"
        code, err = build(capsys, site, "--no-search")
        assert code == 1 and f"PID {holder.pid}" in err and "pipeline" in err
        assert not site.exists()
    finally:
        holder.send_signal(signal.SIGKILL)  # dies holding it: the lock file stays, with its PID in it
        holder.wait(timeout=30)
        holder.stdout.close()
    stale = folders.lock_path(site)
    assert stale.is_file() and stale.read_text(encoding="utf-8").startswith(f"{holder.pid}\n")
    code, err = build(capsys, site, "--no-search")
    assert code == 0, err
    assert (site / "index.html").is_file() and not stale.exists()


# --- (e) what killed runs left beside the folder -------------------------------------------------------------


def test_leftovers_of_killed_runs_are_removed_and_nothing_else(tmp_path, capsys):
    site = tmp_path / "site"
    leftovers = [tmp_path / name for name in (".site.staging", ".site.busca-abc123", ".busca-abcd1234", ".site.old")]
    for folder in leftovers:
        folder.mkdir()
        (folder / "index.html").write_text("de uma execução interrompida", encoding="utf-8")
    unrelated = [tmp_path / ".outra-coisa", tmp_path / ".busca-minhas-notas", tmp_path / ".outro.staging"]
    for folder in unrelated:
        folder.mkdir()
        (folder / "guardar.txt").write_text("meu", encoding="utf-8")
    (tmp_path / "notas.txt").write_text("minhas notas", encoding="utf-8")
    kept = {p.name: snapshot(p) for p in unrelated}
    code, err = build(capsys, site, "--no-search")
    assert code == 0, err
    assert not any(p.exists() for p in leftovers)
    assert {p.name: snapshot(p) for p in unrelated} == kept
    assert (tmp_path / "notas.txt").read_text(encoding="utf-8") == "minhas notas"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [".busca-minhas-notas", ".outra-coisa", ".outro.staging", "notas.txt", "site"])


def test_the_previous_folder_of_an_unfinished_swap_is_put_back(tmp_path):
    site = tmp_path / "site"
    old = tmp_path / ".site.old"
    old.mkdir()
    (old / "index.html").write_text("o último site completo", encoding="utf-8")
    with folders.exclusive(site):
        assert (site / "index.html").read_text(encoding="utf-8") == "o último site completo"
        assert not old.exists()


# --- (f) the site's address and sub-path ------------------------------------------------------------------


@pytest.mark.parametrize(("option", "value", "said"), [
    ("--base-path", "/..", 'trecho "." ou ".."'),
    ("--base-path", "/a/../b", 'trecho "." ou ".."'),
    ("--site-url", "https://x.gov.br:99999999", "a porta 99999999 não existe"),
    ("--site-url", "https://x.gov.br:0", "a porta 0 não existe"),
    ("--site-url", "https://x..gov.br", 'o nome do servidor "x..gov.br" é inválido'),
    ("--site-url", "https://-x.gov.br", 'o nome do servidor "-x.gov.br" é inválido'),
    ("--site-url", "https://x.gov.br./portal", 'o nome do servidor "x.gov.br." é inválido'),
    ("--site-url", "https://x.gov.br/portal/../..", 'trecho "." ou ".."'),
])
def test_a_bad_address_or_sub_path_is_refused(option, value, said, tmp_path, capsys):
    site = tmp_path / "site"
    code, err = build(capsys, site, "--no-search", f"{option}={value}")
    assert code == 2 and f'{option} "{value}"' in err and said in err and "Traceback" not in err
    assert not site.exists() and not list(tmp_path.iterdir())


def test_a_port_and_a_sub_path_are_accepted():
    settings = Settings(data=(MINIMAL,), site_url="https://x.gov.br:8443/portal")
    assert settings.site_url == "https://x.gov.br:8443/portal" and settings.base_path == "/portal"
    assert Settings(data=(MINIMAL,), site_url="http://127.0.0.1:8000/").site_url == "http://127.0.0.1:8000"


# --- (f) the lock file itself -----------------------------------------------------------------------------


def test_a_link_planted_where_the_lock_goes_is_refused_and_its_target_untouched(tmp_path, capsys):
    """The parent of --out is often shared: a symbolic link planted at .<nome>.lock would have the build
    write its PID and command line over the link's target. The lock is never opened through a link."""
    target = tmp_path / "alheio.txt"
    target.write_text("conteúdo de outra pessoa\n", encoding="utf-8")
    site = tmp_path / "site"
    folders.lock_path(site).symlink_to(target)
    code, err = build(capsys, site, "--no-search")
    assert code != 0 and "é um link simbólico: recusado" in err
    assert target.read_text(encoding="utf-8") == "conteúdo de outra pessoa\n" and not site.exists()


def test_a_lock_that_is_not_a_regular_file_is_refused(tmp_path, capsys):
    site = tmp_path / "site"
    os.mkfifo(folders.lock_path(site))  # opening a FIFO for writing would wait for a reader forever
    code, err = build(capsys, site, "--no-search")
    assert code != 0 and "não é um arquivo comum: recusado" in err and not site.exists()


FORKER = """
import os, sys, time
from pipeline.tools import folders
with folders.exclusive(sys.argv[1]):
    child = os.fork()
    if child == 0:  # a worker, as the page stage and the downloads fork them
        time.sleep(60)
        os._exit(0)
    print(child, flush=True)
    time.sleep(60)
"""


def test_a_killed_builds_forked_worker_neither_keeps_its_lock_nor_outlives_it(tmp_path, capsys):
    """kill -9 of a build: its forked workers die with it and hold none of its locks, so the next build
    starts at once instead of being refused in the name of the dead process."""
    site = tmp_path / "site"
    holder = subprocess.Popen([sys.executable, "-c", FORKER, str(site)], cwd=PROJECT_ROOT,
                              stdout=subprocess.PIPE, text=True)
    try:
        worker = int(holder.stdout.readline())
    finally:
        holder.send_signal(signal.SIGKILL)
        holder.wait(timeout=30)
        holder.stdout.close()
    import time

    def alive(pid: int) -> bool:  # a zombie (dead, not yet reaped by whoever adopted it) is not alive
        try:
            return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
        except (OSError, IndexError):
            return False

    for _ in range(100):  # the worker is killed with its parent (PR_SET_PDEATHSIG)
        if not alive(worker):
            break
        time.sleep(0.05)
    else:
        os.kill(worker, signal.SIGKILL)
        pytest.fail("o processo auxiliar sobreviveu ao build morto")
    code, err = build(capsys, site, "--no-search")
    assert code == 0, err


def test_a_file_size_limit_is_said_in_words_by_every_stage_and_the_site_kept(tmp_path):
    """Under ``ulimit -f`` the first file over the limit stops the build, whichever stage writes it (the
    tables read in batches write theirs in a child process): said in words, no traceback, the previous
    site kept and nothing left beside it."""
    from pipeline import SAMPLE_DIR

    site = tmp_path / "site"
    site.mkdir()
    (site / folders.OWNED_MARKER).write_text("", encoding="utf-8")
    (site / "index.html").write_text("anterior", encoding="utf-8")
    command = (f"ulimit -f 150; exec {sys.executable} -m pipeline build --data {SAMPLE_DIR} --out {site} "
               f"--no-search --as-of 2026-11-29")
    done = subprocess.run(["bash", "-c", command], cwd=PROJECT_ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 1, done.stderr[-2000:]
    assert "ulimit -f" in done.stderr and "Traceback" not in done.stderr and "WorkerError" not in done.stderr
    assert (site / "index.html").read_text(encoding="utf-8") == "anterior"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_the_nightly_copy_to_a_full_site_folder_says_why_and_leaves_nothing_beside_it(tmp_path, monkeypatch):
    """The candidate site is on another file system than --out and the copy fills the disk: the job says
    so in words (was "falhou: Error"), leaves no half-copied staging folder, and the site stays."""
    import errno

    from pipeline import nightly

    candidate, out = tmp_path / "estado" / "site", tmp_path / "site"
    candidate.mkdir(parents=True)
    (candidate / "index.html").write_text("novo", encoding="utf-8")
    out.mkdir()
    (out / "index.html").write_text("anterior", encoding="utf-8")

    def other_file_system(self, target):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    def full(src, dst, **kw):
        Path(dst).mkdir()
        (Path(dst) / "index.html").write_text("metade", encoding="utf-8")
        raise shutil.Error([(str(src), str(dst), "[Errno 28] No space left on device")])

    monkeypatch.setattr(Path, "rename", other_file_system)
    monkeypatch.setattr(shutil, "copytree", full)
    with pytest.raises(nightly.NightlyError) as caught:
        nightly._publish(candidate, out)
    assert "No space left on device" in str(caught.value) and "nada foi publicado" in str(caught.value)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["estado", "site"]
    assert (out / "index.html").read_text(encoding="utf-8") == "anterior"


def test_a_foreign_state_folder_is_refused_before_anything_is_written_into_it(tmp_path, capsys):
    state = tmp_path / "documentos"
    state.mkdir()
    (state / "carta.txt").write_text("de outra pessoa", encoding="utf-8")
    config = tmp_path / "nightly.toml"
    config.write_text('[[fonte]]\nnome = "antt-horarios"\nadaptador = "antt-horarios"\n'
                      'url = "http://127.0.0.1:9/09-2026_horarios_sigma.csv"\n', encoding="utf-8")
    code, err = run(capsys, "nightly", "--config", str(config), "--out", str(tmp_path / "site"), "--state", str(state))
    assert code != 0 and "não foi gerada pelo job noturno" in err
    assert sorted(p.name for p in state.iterdir()) == ["carta.txt"]
