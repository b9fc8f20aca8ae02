"""What the benchmarks that run this checkout's code and another's alternately share (``bench/tickets.py``,
``bench/cpu.py``): their options, and the package they run on when none is given."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NATIONAL = ROOT / "bench" / "out" / "data-1-952"  # as ``make bench`` generates it


def add_options(parser: argparse.ArgumentParser, package: str, times: int, each: str) -> None:
    """``--pacote`` (``package``: what it must hold), ``--contra`` and ``--vezes`` (``times`` by default; ``each``:
    what is counted)."""
    parser.add_argument("--pacote", help=f"{package} (padrão: o nacional com um ano de bilhetes)")
    parser.add_argument("--contra", help="raiz de outro checkout do projeto, medido alternadamente com este")
    parser.add_argument("--vezes", type=int, default=times, help=f"{each} de cada código")


def package(given: str | None) -> Path:
    """The package given, or the national one with a year of tickets, generated into :data:`NATIONAL` when
    it is not there yet."""
    if given:
        return Path(given)
    if not (NATIONAL / "datapackage.json").is_file():
        sys.path[:0] = [str(ROOT), str(ROOT / "bench")]
        from run import scaled

        from pipeline.sample import generate

        generate(scaled("1"), 952, NATIONAL)
    return NATIONAL


def codes(contra: str | None) -> dict[str, Path]:
    """The code each run takes, by its label: this checkout (``este``), then ``--contra``'s."""
    return {"este": ROOT, **({"contra": Path(contra).resolve()} if contra else {})}
