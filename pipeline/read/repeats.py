"""A row repeated whole: the rule of a table without a primary key, kept once. The same departure written
twice is one departure (the 2021 export has such rows): inside one file, each repeat is reported as a
warning naming both lines and counted as duplicated; across the files of one table read in batches, it is
kept once silently (across folders, ``read.source.merge`` matches rows).

One rule for every table, whole (``read.source``) or read in batches (``build.batches``): rows are compared
by a 128-bit hash of their cells (two keyed 64-bit hashes, each distinct text of a column hashed once),
kept in sorted arrays (:class:`Seen`), a few bytes a row instead of the row."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..contract.problems import Problem
from .columns import Columns


class Seen:
    """The hashes of the rows kept so far, each with its row's origin (file number, line), in sorted
    arrays merged as a binary counter is (a level of 2^k batches): finding a batch's rows costs a binary
    search per level, and keeping them all a few bytes each."""

    def __init__(self):
        self.levels: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (hash a, hash b, origin), sorted by a

    def find(self, a: np.ndarray, b: np.ndarray, order: np.ndarray | None = None) -> np.ndarray:
        """The origin of the row kept earlier with the same hashes, or -1; ``order``: the positions that sort
        ``a``, when known."""
        found = np.full(len(a), -1, dtype=np.int64)
        if not self.levels:
            return found
        if order is None:
            order = np.argsort(a, kind="stable")
        # numpy's binary search starts each key where the last one ended when the keys come in order
        ranked = np.empty(len(a), dtype=np.int64)
        ranked[order] = np.arange(len(a))
        ordered = a[order]
        for ha, hb, origin in self.levels:
            left = np.searchsorted(ha, ordered, side="left")[ranked]
            present = ha[np.minimum(left, len(ha) - 1)] == a
            for i in np.flatnonzero(present).tolist():  # a row seen before (or a first hash shared): rare
                if found[i] < 0:
                    right = np.searchsorted(ha, a[i], side="right")
                    span = slice(left[i], right)
                    hit = np.flatnonzero(hb[span] == b[i])
                    if len(hit):
                        found[i] = origin[span][hit[0]]
        return found

    def add(self, a: np.ndarray, b: np.ndarray, origin: np.ndarray) -> None:
        if not len(a):  # a batch of repeats only
            return
        if (a[1:] < a[:-1]).any():
            order = np.argsort(a, kind="stable")
            a, b, origin = a[order], b[order], origin[order]
        self.levels.append((a, b, origin))
        while len(self.levels) > 1 and len(self.levels[-1][0]) >= len(self.levels[-2][0]):
            self.levels[-2:] = [_merged(*self.levels[-2:])]


def _merged(first: tuple, second: tuple) -> tuple:
    """Two levels in one, sorted by the first hash, the rows of ``first`` before those of ``second`` with the same."""
    at = np.searchsorted(first[0], second[0], side="right") + np.arange(len(second[0]))
    theirs = np.zeros(len(first[0]) + len(second[0]), dtype=bool)
    theirs[at] = True
    out = []
    for x, y in zip(first, second):
        merged = np.empty(len(theirs), dtype=x.dtype)
        merged[at], merged[~theirs] = y, x
        out.append(merged)
    return tuple(out)


_MIX = np.uint64(0x100000001B3)  # FNV's 64-bit prime: each column's hash folded into the row's


def hashes(batch: Columns) -> tuple[np.ndarray, np.ndarray]:
    """Two 64-bit hashes of each row's cells, under two keys: each distinct text hashed once with its
    column's key (SipHash, in C: ``pandas.util.hash_array``), the row's folded from its columns' by
    their numbers."""
    a, b = np.zeros(len(batch), dtype=np.uint64), np.zeros(len(batch), dtype=np.uint64)
    for i, (codes, texts) in enumerate(zip(batch.codes, batch.texts)):
        for h, key in ((a, "a"), (b, "b")):  # h = (h ^ the text's hash) * _MIX, in place
            np.bitwise_xor(h, pd.util.hash_array(texts, hash_key=f"{key}{i:015d}", categorize=False)[codes], out=h)
            np.multiply(h, _MIX, out=h)
    return a.view(np.int64), b.view(np.int64)


def first_rows(batch: Columns, seen: Seen, number: int = 0) -> tuple[np.ndarray, list[Problem]]:
    """The positions of the batch's rows (of file ``number``) not kept already (the same cells, in this file
    or an earlier one, as ``seen`` holds them), in order: each repeat inside one file reported as a
    ``linha-repetida`` warning naming both lines; ``seen`` then holds the rows kept."""
    if not len(batch):
        return np.arange(0), []
    a, b = hashes(batch)
    origin = (np.int64(number) << 32) | batch.row_numbers
    # sorted by the first hash; by both when two rows share the first and differ in the second (rare), so
    # that equal hashes stand side by side
    order = np.argsort(a)
    sa, sb = a[order], b[order]
    shared = sa[1:] == sa[:-1]
    if (shared & (sb[1:] != sb[:-1])).any():
        order = np.lexsort((b, a))
        sa, sb = a[order], b[order]
        shared = sa[1:] == sa[:-1]
    earlier = seen.find(a, b, order)
    # repeats inside the batch itself: of the rows with equal hashes, the first in the file stands
    starts = np.ones(len(a), dtype=bool)
    starts[1:] = ~(shared & (sb[1:] == sb[:-1]))
    within = np.empty(len(a), dtype=np.int64)
    within[order] = np.minimum.reduceat(order, np.flatnonzero(starts))[np.cumsum(starts) - 1]
    # the origin of the row each repeats (an earlier batch's first, else this batch's first), or -1
    at = np.where(earlier >= 0, earlier, np.where(within == np.arange(len(a)), -1, origin[within]))
    kept = at < 0
    new = order[kept[order]]  # the rows kept, in the order of their hashes
    seen.add(a[new], b[new], origin[new])
    keep = np.flatnonzero(kept)
    if len(keep) == len(batch):
        return keep, []
    inside = np.flatnonzero((at >= 0) & ((at >> 32) == number))  # inside one file: reported
    rows = batch.table(inside)
    problems = [Problem.of("linha-repetida", batch.name, batch.source, line, None, None, grave=False, registro=cells,
                           primeira=int(at[pos] & 0xFFFFFFFF))
                for pos, line, cells in zip(inside.tolist(), rows.row_numbers, rows.rows)]
    return keep, problems


def without_repeats(batch: Columns, seen: Seen, number: int = 0) -> tuple[Columns, list[Problem]]:
    """The batch less the rows :func:`first_rows` does not keep, and the repeats it reports."""
    keep, problems = first_rows(batch, seen, number)
    return (batch, problems) if len(keep) == len(batch) else (batch.take(keep), problems)
