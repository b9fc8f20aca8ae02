"""Adapters: the regulator's export layouts -> the data contract's source package.

``python -m pipeline ingest ADAPTADOR ARQUIVO --out PASTA`` calls :func:`ingest`, which writes the
tables the export can fill (UTF-8 CSVs in the schema's column order), a copy of the project's
``datapackage.json`` and ``ingest-report.json``, and returns the :class:`IngestReport`. The package
it writes is an ordinary source folder: ``validate`` and ``build --data`` read it like any other. An
adapter with ``SEVERAL_FILES`` (Monitriip's monthly files) takes several files into one package.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from .. import PROJECT_ROOT, SAMPLE_DIR
from ..contract.schema import Schema
from ..tools import memory
from ..tools.folders import refusal, staged
from . import (
    antt_habilitadas,
    antt_historico,
    antt_horarios,
    antt_linhas_secoes,
    antt_monitriip,
    antt_paralisados,
    antt_pontos,
    columnar,
)
from .base import Adapter, detect
from .common import REPORT_NAME, IngestError, IngestReport, SourceOptions, unresolved_places, write_report

# Every adapter, by the name ``ingest`` takes; each declares the headers it reads (pipeline/adapters/base.py).
ADAPTERS: dict[str, type[Adapter]] = {a.NAME: a for a in (antt_horarios.Timetable, antt_linhas_secoes.LinesAndSections,
                                                           antt_habilitadas.LicensedCarriers, antt_paralisados.Paralysed,
                                                           antt_historico.History, antt_pontos.Stops,
                                                           antt_monitriip.Tickets)}

__all__ = ["ADAPTERS", "REPORT_NAME", "IngestError", "IngestReport", "SourceOptions", "ingest"]


def ingest(
    adapter: str | None, path: Path | Sequence[Path], out: Path, schema: Schema | None = None,
    options: SourceOptions | None = None,
) -> IngestReport:
    """Run the adapter named ``adapter`` (None: the one whose declared header the files have) on the export
    at ``path`` (or on several, in order, into one package: adapters with ``SEVERAL_FILES``), writing the
    package into ``out``.

    Raises :class:`IngestError` when an export cannot be read at all (nothing is written then).
    """
    paths = [Path(path)] if isinstance(path, (str, os.PathLike)) else [Path(p) for p in path]
    if not paths:
        raise IngestError("nenhum arquivo informado")
    if adapter is None:
        found = {p: detect(p, ADAPTERS) for p in paths}
        if len(set(found.values())) > 1:
            which = "; ".join(f"{p.name}: {name}" for p, name in found.items())
            raise IngestError(f"os arquivos são de exportações diferentes ({which}); ingira cada exportação à parte")
        adapter = found[paths[0]]
    try:
        chosen = ADAPTERS[adapter]
    except KeyError:
        raise IngestError(f"adaptador desconhecido: {adapter} (conhecidos: {', '.join(ADAPTERS)})") from None
    if len(paths) > 1 and not getattr(chosen, "SEVERAL_FILES", False):
        several = ", ".join(name for name, a in ADAPTERS.items() if getattr(a, "SEVERAL_FILES", False))
        raise IngestError(f"o adaptador {adapter} lê um arquivo por vez, e foram informados {len(paths)}; ingira "
                          f"cada um numa pasta própria (junta vários arquivos num pacote: {several})")
    if Path(out).resolve() in (SAMPLE_DIR.resolve(), PROJECT_ROOT.resolve()):
        raise IngestError(f"{out}: a pasta de saída não pode ser a amostra do projeto nem a pasta do projeto")
    reason = refusal("de saída (--out)", Path(out))
    if reason:
        raise IngestError(reason)
    # written whole into a staging folder, then put in place: a failure (a full disk) leaves no half package
    with staged(Path(out), "pacote gerado por python -m pipeline ingest") as staging, memory.collector_paused():
        report = chosen.run(paths[0] if len(paths) == 1 else paths, staging, schema, options)
        if not issubclass(chosen, columnar.ColumnAdapter):  # the column engine finds them in its tables
            report.municipios_nao_resolvidos = unresolved_places(staging, schema)
        write_report(staging, report)
        return report
