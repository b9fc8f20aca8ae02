"""Work split across processes: the page stage renders the record pages on every core, and validation
runs the portal's own checks beside Frictionless's verdict.

``split(items, work, workers, niceness)`` runs ``work`` on ``items`` here and in ``workers - 1`` forked
children, each process taking the next few items not yet taken until none is left, then waits for them.
A fork shares the parent's memory copy-on-write, so the page contexts are not pickled or copied; each child
writes its own files and reports only success or failure.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import traceback
from collections.abc import Callable, Iterator, Sequence
from functools import partial

MIN_PER_WORKER = 200  # below this a fork costs more than it saves


class WorkerError(RuntimeError):
    """A child process failed; its traceback went to stderr."""


def cores() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)


def workers_default() -> int:
    """The page renderers: one per core. The build's own process renders at its priority; the others
    (:func:`split`'s children) at the lowest, :data:`RENDER_NICENESS`, below the downloads and the search
    index written beside the pages (pipeline/publish/background.py): they take a core only when that work
    leaves it idle."""
    return cores()


RENDER_NICENESS = 19  # the renderers beside the build's process yield their core to every other process


PIECE = 32  # items a process takes at a time from the shared list (:func:`split`)


def split(items: Sequence, work: Callable[[Sequence], None], workers: int, niceness: int = 0,
          alone: int = 0) -> None:
    """Run ``work`` over ``items`` in ``workers`` processes: this one and ``workers - 1`` forked children at
    ``niceness`` (``os.nice``). Each process takes the next :data:`PIECE` items not yet taken, runs ``work`` on
    them, and so on to the end (a counter in memory shared by the fork): a child yielding its core to other
    work takes fewer, and no process waits at the end for another's share. Items next to each other stay in
    one piece (a kind's records, made one after another, near in memory). The first ``alone`` items are
    taken one at a time: the long ones, put first, so that no piece holds several of them and the stage
    ends on short pieces."""
    workers = max(1, min(workers, len(items) // MIN_PER_WORKER))
    if workers == 1 or not hasattr(os, "fork"):
        work(items)
        return
    import multiprocessing

    taken, lock = multiprocessing.RawValue("q", 0), multiprocessing.Lock()

    def pieces():
        while True:
            with lock:
                start = taken.value
                size = 1 if start < alone else PIECE
                taken.value = start + size
            if start >= len(items):
                return
            yield items[start:start + size]

    def stop() -> None:  # nobody takes more: the stage has failed
        with lock:
            taken.value = len(items)

    sys.stdout.flush()
    sys.stderr.flush()
    children = []
    for _ in range(1, workers):
        pid = os.fork()
        if pid == 0:  # the child: pieces until none is left, then exit without running the parent's cleanup
            code = 0
            try:
                if niceness:
                    os.nice(niceness)
                for piece in pieces():
                    work(piece)
            except BaseException:
                traceback.print_exc()
                code = 1
                stop()
            finally:
                sys.stderr.flush()
                os._exit(code)
        children.append(pid)
    try:
        for piece in pieces():
            work(piece)
    except BaseException:
        stop()
        raise
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
            except OSError as exc:  # a full disk, a file-size limit: said in words by whoever catches it
                payload = pickle.dumps((False, OSError(exc.errno, exc.strerror, exc.filename)))
            except BaseException:
                payload = pickle.dumps((False, traceback.format_exc()))
            with os.fdopen(write, "wb") as fh:
                fh.write(payload)
            os._exit(0)
        os.close(write)
        self.fd = read

    def result(self):
        with os.fdopen(self.fd, "rb") as fh:
            self.fd = None
            data = fh.read()
        os.waitpid(self.pid, 0)
        self.pid = None
        if not data:
            raise WorkerError("o processo auxiliar terminou sem resposta")
        ok, value = pickle.loads(data)
        if not ok and isinstance(value, OSError):
            raise value  # the stage's own OSError, as the other stages raise theirs
        if not ok:
            raise WorkerError(f"o processo auxiliar falhou:\n{value}")
        return value


    def cancel(self) -> None:
        """Stop the child if it still runs (the caller failed before asking for the result)."""
        if self.pid is None:
            return
        try:
            os.kill(self.pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
        os.waitpid(self.pid, 0)
        os.close(self.fd)
        self.pid = self.fd = None


class Feed:
    """``consume(messages)`` run in a forked child (a :class:`Call`) while the caller goes on sending it
    ``messages`` one by one (:meth:`send`, pickled through a pipe, which holds the caller back when the child
    falls behind): work done beside the caller's, on another core, at ``nice`` +``niceness``. :meth:`close`
    ends the messages and waits for the child; a failure of the child is raised there (as :meth:`Call.result`
    raises it), or at the next :meth:`send` once it has ended.

    The messages may come from a process forked after the feed: it sends, then calls :meth:`end`,
    while the process that made the feed ends its own (its copy of the pipe) at once and later waits
    (:meth:`close`) or stops the child (:meth:`cancel`). The child reads until every copy is ended."""

    def __init__(self, consume: Callable[[Iterator], None], niceness: int = 0):
        read, write = os.pipe()
        self.maker = os.getpid()
        self.call = Call(partial(_consume, consume, read, write, niceness))
        os.close(read)
        self.out = os.fdopen(write, "wb")

    def send(self, message) -> None:
        try:
            pickle.dump(message, self.out, protocol=pickle.HIGHEST_PROTOCOL)
            self.out.flush()
        except BrokenPipeError:  # the child has ended: its failure says why (to the maker, which waits for it)
            if os.getpid() == self.maker:
                self.close()
            raise WorkerError("o processo auxiliar terminou antes do fim dos dados") from None

    def end(self) -> None:
        """No more messages from this process (each was flushed as it was sent)."""
        try:
            self.out.close()
        except BrokenPipeError:
            pass

    def close(self) -> None:
        """End this process's messages and wait for the child; in a process forked after the feed, which cannot
        wait for a child not its own, end its messages only."""
        if self.call is None:
            return
        self.end()
        if os.getpid() != self.maker:
            return
        call, self.call = self.call, None
        call.result()

    def cancel(self) -> None:
        """Stop the child if it still runs (the caller failed before waiting for it)."""
        self.end()
        call, self.call = self.call, None
        if call is not None:
            call.cancel()


def _consume(consume: Callable[[Iterator], None], read: int, write: int, niceness: int) -> None:
    """The child of a :class:`Feed`: the messages read from the pipe until the caller closes it."""
    os.close(write)
    if niceness:
        os.nice(niceness)
    with os.fdopen(read, "rb") as fh:
        consume(_messages(fh))


def _messages(fh) -> Iterator:
    while True:
        try:
            yield pickle.load(fh)
        except EOFError:
            return


def call(fn: Callable[[], object], parallel: bool = True):
    """A :class:`Call` of ``fn`` in a child, or (``parallel`` false, or no fork) a :class:`Later` here."""
    if parallel and hasattr(os, "fork"):
        return Call(fn)
    return Later(fn)


class Later:
    """``fn()`` run here when :meth:`result` is first asked (where a :class:`Call` gives its child's value),
    a failure raised there as ``fn`` raised it. For work too small to be worth a fork and a child's cold
    start, or where there is no fork."""

    def __init__(self, fn: Callable[[], object]):
        self.fn, self.cancelled = fn, False

    def result(self):
        fn, self.fn = self.fn, None
        if fn is None:
            raise WorkerError("o trabalho foi cancelado" if self.cancelled else "o resultado já foi pedido")
        return fn()

    def cancel(self) -> None:
        self.fn, self.cancelled = None, True

