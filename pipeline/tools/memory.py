"""Memory the build has freed, given back to the system between its stages; the cyclic garbage collector
paused while a stage makes many objects that hold no cycle.

glibc's allocator keeps the memory a process frees inside its heap, to hand it out again, and returns it
to the system only from the heap's top. A stage that reads a national table and lets most of what it made
go (the reader's blocks, the validation's columns) leaves its freed memory spread through the heap, so the
process stays at its peak while the next stage adds its own. ``malloc_trim`` hands every free page back.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Iterator
from contextlib import contextmanager

_trim = None


def give_back() -> bool:
    """Give the memory freed so far back to the system (glibc's ``malloc_trim(0)``). False where the C
    library has no such call (not glibc): nothing is done there."""
    global _trim
    if _trim is None:
        try:
            _trim = ctypes.CDLL(None).malloc_trim
        except (OSError, AttributeError):
            _trim = False
    if not _trim:
        return False
    _trim(0)
    return True


@contextmanager
def collector_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector inside the block. A stage that makes a value per distinct text (a
    tuple, a string) of a column with as many distinct texts as rows makes enough objects to start a
    collection every few hundred, each walking everything the stage holds; none of them forms a cycle, which
    reference counting frees (a cycle made anyway waits for the next collection after the block). Nested or
    with the collector already off: left as found."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
