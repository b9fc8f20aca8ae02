"""A piece of the publication run by a second process, so that it overlaps the rendering of the pages
on the other core. The process is forked: it shares the tables already in memory and nothing is
pickled. Its failure is reported to the build as a :class:`BackgroundError` with the child's message.

The processes run at a lower priority (``nice`` +:data:`NICENESS`): the pages, then Pagefind, which
read them, are the build's longest path, and the downloads and the Whoosh index only have to be done by
its end. With the same priority, the three processes writing beside the pages took a large share of
the page renderer's core as well."""

from __future__ import annotations

import multiprocessing
import os
import traceback
from collections.abc import Callable


class BackgroundError(RuntimeError):
    pass


NICENESS = 10  # the background work yields the core to the pages (see the module's note)


def _run(fn: Callable[[], None], conn) -> None:
    try:
        os.nice(NICENESS)
        fn()
        conn.send(None)
    except BaseException as exc:  # reported to the parent, which decides
        errno = getattr(exc, "errno", None)
        message = (getattr(exc, "strerror", None) or str(exc)) if errno is not None else str(exc)
        conn.send((type(exc).__name__, message, errno, getattr(exc, "filename", None),
                   traceback.format_exc(limit=3)))
    finally:
        conn.close()


class Background:
    def __init__(self, process, conn):
        self.process, self.conn = process, conn

    @classmethod
    def start(cls, fn: Callable[[], None]) -> Background:
        ctx = multiprocessing.get_context("fork")
        parent, child = ctx.Pipe(duplex=False)
        process = ctx.Process(target=_run, args=(fn, child), daemon=True)
        process.start()
        child.close()
        return cls(process, parent)

    def wait(self) -> None:
        """Until the work is done; raises the child's failure (an OSError stays an OSError)."""
        try:
            outcome = self.conn.recv()
        except EOFError:
            outcome = ("BackgroundError", f"o processo terminou sem resposta (código {self.process.exitcode})",
                       None, None, "")
        self.process.join()
        self.conn.close()
        if outcome is None:
            return
        kind, message, errno, filename, _ = outcome
        if errno is not None:
            raise OSError(errno, message, filename)
        raise BackgroundError(f"{kind}: {message}")

    def cancel(self) -> None:
        if self.process.is_alive():
            self.process.terminate()
        self.process.join()
        self.conn.close()
