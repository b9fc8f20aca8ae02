"""Memory the build has freed, given back to the system between its stages.

glibc's allocator keeps the memory a process frees inside its heap, to hand it out again, and returns it
to the system only from the heap's top. A stage that reads a national table and lets most of what it made
go (the reader's blocks, the validation's columns) leaves its freed memory spread through the heap, so the
process stays at its peak while the next stage adds its own. ``malloc_trim`` hands every free page back.
"""

from __future__ import annotations

import ctypes

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
