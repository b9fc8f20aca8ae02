"""The build gives the memory a stage freed back to the system before the next stage (pipeline/tools/memory.py):
glibc keeps freed memory in its heap, and a process that read a national table stayed at its peak."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

_CHILD = """
import sys
sys.path.insert(0, {root!r})
from pipeline.tools.memory import give_back

def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) // 1024

blocks = [bytearray(64 * 1024) for _ in range(4000)]  # 256 MB in the heap, not mapped apart
kept = blocks[::100]  # a block kept near the heap's top: glibc alone returns nothing below it
del blocks
before = rss()
given = give_back()
print(before, rss(), given)
"""


def test_memory_a_stage_freed_is_given_back_to_the_system():
    out = subprocess.run([sys.executable, "-c", _CHILD.format(root=str(ROOT))], capture_output=True, text=True,
                         check=True).stdout.split()
    before, after, given = int(out[0]), int(out[1]), out[2] == "True"
    assert given, "glibc's malloc_trim was not found"
    assert before > 200 and after < before - 150, (before, after)


def test_the_collector_is_paused_inside_the_block_and_left_as_found_after_it():
    import gc

    from pipeline.tools.memory import collector_paused

    assert gc.isenabled()
    try:
        with collector_paused():
            assert not gc.isenabled()
            with collector_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()  # the inner block leaves it off, as it found it
            raise KeyError("a failure inside")
    except KeyError:
        pass
    assert gc.isenabled()  # on again, though the block failed
    gc.disable()
    try:
        with collector_paused():
            pass
        assert not gc.isenabled()  # off before: off after
    finally:
        gc.enable()
