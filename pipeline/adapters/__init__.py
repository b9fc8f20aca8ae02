"""Adapters: the regulator's export layouts -> the data contract's source package.

``python -m pipeline ingest ADAPTADOR ARQUIVO --out PASTA`` calls :func:`ingest`, which writes the
tables the export can fill (UTF-8 CSVs in the schema's column order), a copy of the project's
``datapackage.json`` and ``ingest-report.json``, and returns the :class:`IngestReport`. The package
it writes is an ordinary source folder: ``validate`` and ``build --data`` read it like any other.
"""

from __future__ import annotations

import csv
from pathlib import Path

from .. import PROJECT_ROOT, SAMPLE_DIR
from ..folders import refusal, staged
from ..places import resolve
from ..schema import Schema
from . import antt_horarios, antt_linhas_secoes
from .common import REPORT_NAME, IngestError, IngestReport, SourceOptions, write_report

ADAPTERS = {
    antt_horarios.NAME: antt_horarios.ingest,
    antt_linhas_secoes.NAME: antt_linhas_secoes.ingest,
}

__all__ = ["ADAPTERS", "REPORT_NAME", "IngestError", "IngestReport", "SourceOptions", "ingest"]


def ingest(
    adapter: str, path: Path, out: Path, schema: Schema | None = None, options: SourceOptions | None = None
) -> IngestReport:
    """Run the adapter named ``adapter`` on the export at ``path``, writing the package into ``out``.

    Raises :class:`IngestError` when the export cannot be read at all (nothing is written then).
    """
    try:
        run = ADAPTERS[adapter]
    except KeyError:
        raise IngestError(f"adaptador desconhecido: {adapter} (conhecidos: {', '.join(ADAPTERS)})") from None
    if Path(out).resolve() in (SAMPLE_DIR.resolve(), PROJECT_ROOT.resolve()):
        raise IngestError(f"{out}: a pasta de saída não pode ser a amostra do projeto nem a pasta do projeto")
    reason = refusal("de saída (--out)", Path(out))
    if reason:
        raise IngestError(reason)
    # written whole into a staging folder, then put in place: a failure (a full disk) leaves no half package
    with staged(Path(out), "pacote gerado por python -m pipeline ingest") as staging:
        report = run(Path(path), staging, schema, options)
        report.municipios_nao_resolvidos = unresolved_places(staging)
        write_report(staging, report)
        return report


def unresolved_places(package: Path) -> list[dict]:
    """The places the package's lines and sections name that stay without an IBGE code, with why."""
    found: dict[tuple[str, str], dict] = {}
    for name in ("linhas.csv", "secoes.csv"):
        if not (package / name).is_file():
            continue
        with open(package / name, encoding="utf-8", newline="") as fh:
            for row in csv.DictReader(fh):
                for which in ("origem", "destino"):
                    place = resolve(row[f"{which}_municipio"], row[f"{which}_uf"])
                    if place.codigo_ibge is None:
                        found.setdefault((place.uf, place.nome), {
                            "municipio": place.nome, "uf": place.uf, "motivo": place.motivo})
    return [found[k] for k in sorted(found)]
