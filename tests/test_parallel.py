"""The build's work on several processes gives the same output as on one: pages rendered by forked
workers, the portal's checks run beside Frictionless, and a failing worker fails the build."""

from __future__ import annotations

import filecmp
import os
import time
from datetime import date

import pytest
from conftest import MINIMAL

from pipeline import validate as validation
from pipeline.build import build
from pipeline.contract.settings import Settings, SettingsError
from pipeline.read import read_source
from pipeline.tools import parallel


def _files(folder):
    return sorted(p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file())


def test_pages_rendered_by_two_processes_equal_those_rendered_by_one(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PER_WORKER", 1)  # the minimal package is far below the threshold
    sites = {}
    for workers in (1, 2):
        out = tmp_path / f"site-{workers}"
        build(Settings(data=(MINIMAL,), out=out, as_of=date(2026, 6, 30), workers=workers, search_index=False))
        sites[workers] = out
    one, two = sites[1], sites[2]
    assert _files(one) == _files(two)
    pages = [f for f in _files(one) if f.endswith(".html")]
    assert any(f.startswith("linhas/") and f != "linhas/index.html" for f in pages)
    _, mismatch, errors = filecmp.cmpfiles(one, two, _files(one), shallow=False)
    assert mismatch == [] and errors == []


def _worked(tmp_path, items, workers, niceness=0, fail_in_child=False, fail_here=False):
    """Run ``parallel.split`` with a work that notes, for each item, the process and its niceness (a line
    appended to a file: each write is whole) and takes a moment, so that every process gets pieces."""
    parent, log = os.getpid(), tmp_path / "feitos.txt"
    log.touch()

    def work(piece):
        if (fail_in_child and os.getpid() != parent) or (fail_here and os.getpid() == parent):
            raise ValueError("falha de teste")
        for item in piece:
            time.sleep(0.002)
            with open(log, "a") as fh:
                fh.write(f"{os.getpid()} {os.nice(0)} {item}\n")

    parallel.split(items, work, workers, niceness=niceness)
    return parent, [line.split() for line in log.read_text().splitlines()]


def test_every_item_is_worked_once_and_the_children_at_their_niceness(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PER_WORKER", 1)
    monkeypatch.setattr(parallel, "PIECE", 3)
    parent, done = _worked(tmp_path, list(range(300)), 3, niceness=5)
    assert sorted(int(item) for _, _, item in done) == list(range(300))  # each once, whoever took it
    processes = {int(pid): int(nice) for pid, nice, _ in done}
    assert len(processes) == 3  # the pieces went to every process
    assert {nice - processes[parent] for pid, nice in processes.items() if pid != parent} == {5}


def test_the_long_items_are_taken_one_at_a_time_before_the_rest(tmp_path, monkeypatch):
    """With ``alone``, each long item (put first) is a piece of its own, whichever process takes it: in one piece
    of 32 a single process would work them all while the other waits at the end."""
    monkeypatch.setattr(parallel, "MIN_PER_WORKER", 1)
    long = ["longo-1", "longo-2", "longo-3"]
    items = long + [str(n) for n in range(70)]

    def pieces(alone):
        log = tmp_path / f"pecas-{alone}.txt"
        log.touch()

        def work(piece):
            with open(log, "a") as fh:
                fh.write(" ".join(piece) + "\n")
            time.sleep(0.01)

        parallel.split(items, work, 2, alone=alone)
        return [line.split() for line in log.read_text().splitlines()]

    split = pieces(len(long))
    assert sorted(i for piece in split for i in piece) == sorted(items)
    assert sorted(piece for piece in split if set(piece) & set(long)) == [[name] for name in long]
    assert sorted(map(len, split)) == [1, 1, 1, 6, 32, 32]
    assert [piece for piece in pieces(0) if set(piece) & set(long)] == [items[:32]]  # without it: one piece


def test_a_failing_worker_fails_the_split(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PER_WORKER", 1)
    monkeypatch.setattr(parallel, "PIECE", 1)
    with pytest.raises(parallel.WorkerError, match="falharam"):
        _worked(tmp_path, list(range(200)), 2, fail_in_child=True)
    done = [line.split() for line in (tmp_path / "feitos.txt").read_text().splitlines()]
    assert {int(pid) for pid, _, _ in done} <= {os.getpid()}
    assert len(done) < 150  # once the child failed, nobody took another piece


def test_a_failure_here_stops_the_children_taking_pieces(tmp_path, monkeypatch):
    monkeypatch.setattr(parallel, "MIN_PER_WORKER", 1)
    monkeypatch.setattr(parallel, "PIECE", 1)
    with pytest.raises(ValueError, match="falha de teste"):
        _worked(tmp_path, list(range(400)), 2, fail_here=True)
    done = (tmp_path / "feitos.txt").read_text().splitlines()
    assert len(done) < 200  # the child stopped, far from the end (2 ms an item)


def test_a_child_call_returns_its_value_or_its_failure():
    assert parallel.call(lambda: {"a": [1, 2]}).result() == {"a": [1, 2]}
    with pytest.raises(parallel.WorkerError, match="ZeroDivisionError"):
        parallel.call(lambda: 1 / 0).result()


def test_checks_in_a_second_process_give_the_same_report(package, schema, monkeypatch):
    package.edit("transportadoras.csv", "11222333000181", "11222333000182")  # wrong check digits
    source = read_source([package.path], schema)
    alone = validation.validate(source, schema)
    monkeypatch.setattr(validation, "PARALLEL_ROWS", 1)
    beside = validation.validate(source, schema)
    assert [p.as_row() for p in beside.problems] == [p.as_row() for p in alone.problems]
    assert "cnpj-digitos" in {p.regra for p in beside.problems}


def test_workers_must_be_a_positive_number():
    with pytest.raises(SettingsError, match="--processos"):
        Settings(workers=0)


def test_a_feed_hands_its_messages_in_order_to_a_child_and_reports_its_failure(tmp_path):
    out = tmp_path / "recebidas.txt"

    def write(messages):
        with open(out, "w") as fh:
            for m in messages:
                fh.write(f"{m}\n")

    feed = parallel.Feed(write)
    for n in range(2_000):  # more than a pipe holds at once: the sender waits for the child
        feed.send(("x" * 100, n))
    feed.close()
    lines = out.read_text().splitlines()
    assert len(lines) == 2_000 and lines[1_999] == f"{('x' * 100, 1999)}"

    def fail(messages):
        for m in messages:
            if m == 3:
                raise ValueError("a terceira mensagem")

    feed = parallel.Feed(fail)
    with pytest.raises(parallel.WorkerError) as failed:
        for n in range(100_000):  # the child ends at 3: a later send or the close says why
            feed.send(n)
        feed.close()
    assert "a terceira mensagem" in str(failed.value)


def test_work_run_here_says_whether_it_was_cancelled_or_already_asked():
    done = parallel.Later(lambda: 7)
    assert done.result() == 7
    with pytest.raises(parallel.WorkerError, match="o resultado já foi pedido"):
        done.result()
    dropped = parallel.Later(lambda: 7)
    dropped.cancel()
    with pytest.raises(parallel.WorkerError, match="o trabalho foi cancelado"):
        dropped.result()
