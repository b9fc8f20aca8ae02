"""Progress of the long stages. The build reports to a :class:`Progress`; the CLI picks the kind:
a bar with counts on a terminal, one line per stage with its timing elsewhere (CI)."""

from __future__ import annotations

import sys
import time
from contextlib import contextmanager


class Progress:
    """Silent: the default for library calls and tests."""

    @contextmanager
    def stage(self, name: str):
        yield self

    def advance(self, done: int, total: int) -> None:
        pass

    def timings(self) -> dict[str, float]:
        return {}


class LineProgress(Progress):
    """One line per stage with its duration (non-interactive output, e.g. CI logs)."""

    def __init__(self, stream=None):
        self.stream = stream or sys.stderr
        self._timings: dict[str, float] = {}

    @contextmanager
    def stage(self, name: str):
        start = time.perf_counter()
        yield self
        elapsed = time.perf_counter() - start
        self._timings[name] = elapsed
        self.stream.write(f"[{name}] {elapsed:.2f} s\n")
        self.stream.flush()

    def timings(self) -> dict[str, float]:
        return dict(self._timings)


class BarProgress(LineProgress):
    """A bar with counts, redrawn in place, for an interactive terminal."""

    WIDTH = 30

    def __init__(self, stream=None):
        super().__init__(stream)
        self._name = ""

    @contextmanager
    def stage(self, name: str):
        self._name = name
        self.stream.write(f"[{name}] ...")
        self.stream.flush()
        with super().stage(name):
            yield self
            self.stream.write("\r\033[K")

    def advance(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // max(total, 1)
        bar = "#" * filled + "-" * (self.WIDTH - filled)
        self.stream.write(f"\r[{self._name}] [{bar}] {done}/{total}")
        self.stream.flush()


def for_stream(stream=None) -> Progress:
    stream = stream or sys.stderr
    return BarProgress(stream) if stream.isatty() else LineProgress(stream)
