"""A table read in batches (``x-em-lotes``), judged a distinct text at a time, its verdicts kept from one
batch to the next.

Such a table has no primary key, no unique column and no foreign key (refused here otherwise), and no
named check of :mod:`.checks` reads two of its cells together, so validation's verdict on one of its
rows depends on that row's cells alone, and on each cell's text alone:

- Frictionless's cell reader of its field (type, missing value, constraints);
- the portal's grammar (:func:`.checks._grammar_refusal`, over :mod:`.cells`);
- a CPF in a text column (:func:`pipeline.contract.identifiers.has_cpf` and ``has_any_cpf``: refused, or
  masked in lenient mode).

A text that passes all three is *clean*. A row whose texts are all clean gets no problem and is kept as
read, which is what :func:`pipeline.validate.validate` decides of it; a row holding any other text is
validated by :func:`~pipeline.validate.validate` itself, with the rows of its batch that are like it, so
every problem it reports keeps its wording and its order (pipeline/build/batches.py). Each distinct text of a column is judged once
for as long as the column's verdicts fit :data:`MAX_KNOWN` (amounts repeat from batch to batch).
tests/test_batches.py compares both ways on hostile batches.
"""

from __future__ import annotations

import numpy as np

from ..contract.identifiers import has_any_cpf, has_cpf
from ..contract.schema import Schema, foreign_keys_of, primary_key_of
from ..read.columns import Columns
from .checks import _grammar_refusal
from .screen import cell_readers

MAX_KNOWN = 200_000  # verdicts kept per column; past it, the column's are forgotten and judged again
_FLAGGED = object()  # the verdict of a text that is not clean


class Verdicts:
    """Each column's verdict on each distinct text seen: its typed value when clean (as Frictionless reads
    it), else :data:`_FLAGGED`."""

    def __init__(self, name: str, schema: Schema):
        [resource] = [r for r in schema.source_descriptor()["resources"] if r["name"] == name]
        unique = [f["name"] for f in resource["schema"]["fields"] if f.get("constraints", {}).get("unique")]
        if primary_key_of(resource) or foreign_keys_of(resource) or unique:
            raise ValueError(f"{name}: a table read in batches cannot have a key, a unique column or a "
                             "foreign key (its rows would not be judged one at a time)")
        self.name = name
        self.fields = resource["schema"]["fields"]
        self.readers = cell_readers(resource["schema"])[1]
        self.known: list[dict[str, object]] = [{} for _ in self.fields]
        self.flagged: list[set[str]] = [set() for _ in self.fields]  # the known texts that are not clean

    def _judge(self, i: int, text: str):
        field = self.fields[i]
        typed, notes = self.readers[i](text)
        if notes or _grammar_refusal(text, field) is not None:
            return _FLAGGED
        if field.get("type", "string") == "string" and (has_cpf(text) or has_any_cpf(text)):
            return _FLAGGED
        return typed

    def split(self, batch: Columns) -> tuple[np.ndarray, list[np.ndarray]]:
        """The positions of the batch's rows that hold a text that is not clean, in order; and per column,
        the verdict on each of its distinct texts (``batch.texts``): its typed value, as Frictionless reads
        it, or :data:`_FLAGGED`."""
        flagged = np.zeros(len(batch), dtype=bool)
        verdicts = []
        for i, field in enumerate(self.fields):
            codes, texts = batch.column(field["name"])
            known, bad_texts, texts = self.known[i], self.flagged[i], texts.tolist()
            new = set(texts).difference(known)  # a batch's texts are distinct
            if len(known) + len(new) > MAX_KNOWN:
                known.clear()
                bad_texts.clear()
                new = texts
            for text in new:
                known[text] = verdict = self._judge(i, text)
                if verdict is _FLAGGED:
                    bad_texts.add(text)
            verdict = np.fromiter(map(known.__getitem__, texts), dtype=object, count=len(texts))
            if bad_texts:
                bad = np.fromiter(map(bad_texts.__contains__, texts), dtype=bool, count=len(texts))
                if bad.any():
                    flagged |= bad[codes]
            verdicts.append(verdict)
        return np.flatnonzero(flagged), verdicts
