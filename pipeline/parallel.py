"""Work split across processes: the page stage renders the record pages on every core, and validation
runs the portal's own checks beside Frictionless's verdict.

``split(items, work, workers)`` runs ``work(items[k::workers])`` in ``workers - 1`` forked children and
``work(items[0::workers])`` here, then waits for them. A fork shares the parent's memory copy-on-write,
so the page contexts are not pickled or copied; each child writes its own files and reports only
success or failure. The interleaved split gives every process a fair share of big and small records.
"""

from __future__ import annotations

import os
import pickle
import sys
import traceback
from collections.abc import Callable, Sequence

MIN_PER_WORKER = 200  # below this a fork costs more than it saves


class WorkerError(RuntimeError):
    """A child process failed; its traceback went to stderr."""


def workers_default() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def split(items: Sequence, work: Callable[[Sequence], None], workers: int) -> None:
    workers = max(1, min(workers, len(items) // MIN_PER_WORKER))
    if workers == 1 or not hasattr(os, "fork"):
        work(items)
        return
    sys.stdout.flush()
    sys.stderr.flush()
    children = []
    for k in range(1, workers):
        pid = os.fork()
        if pid == 0:  # the child: its share, then exit without running the parent's cleanup
            code = 0
            try:
                work(items[k::workers])
            except BaseException:
                traceback.print_exc()
                code = 1
            finally:
                sys.stderr.flush()
                os._exit(code)
        children.append(pid)
    try:
        work(items[0::workers])
    finally:
        failed = [pid for pid in children if os.waitpid(pid, 0)[1] != 0]
    if failed:
        raise WorkerError(f"{len(failed)} processo(s) auxiliar(es) falharam ao gerar as páginas")


class Call:
    """``fn()`` run in a forked child while the caller goes on; :meth:`result` waits for its return
    value (sent back pickled through a pipe) or raises :class:`WorkerError` with the child's traceback."""

    def __init__(self, fn: Callable[[], object]):
        sys.stdout.flush()
        sys.stderr.flush()
        read, write = os.pipe()
        self.pid = os.fork()
        if self.pid == 0:  # the child
            os.close(read)
            try:
                payload = pickle.dumps((True, fn()))
            except BaseException:
                payload = pickle.dumps((False, traceback.format_exc()))
            with os.fdopen(write, "wb") as fh:
                fh.write(payload)
            os._exit(0)
        os.close(write)
        self.fd = read

    def result(self):
        with os.fdopen(self.fd, "rb") as fh:
            data = fh.read()
        os.waitpid(self.pid, 0)
        if not data:
            raise WorkerError("o processo auxiliar terminou sem resposta")
        ok, value = pickle.loads(data)
        if not ok:
            raise WorkerError(f"o processo auxiliar falhou:\n{value}")
        return value


def call(fn: Callable[[], object], parallel: bool = True):
    """A :class:`Call` of ``fn`` in a child, or (``parallel`` false, or no fork) a finished stand-in."""
    if parallel and hasattr(os, "fork"):
        return Call(fn)
    value = fn()

    class Done:
        def result(self):
            return value

    return Done()
