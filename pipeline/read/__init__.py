"""Read stage: source folders -> raw text tables, with each source's provenance and each table's coverage."""

from .source import SourcePackage, SourceTable, read_source

__all__ = ["SourcePackage", "SourceTable", "read_source"]
