"""The house's layout: every module of pipeline/ in a part (a folder), no circle between parts, no stage
importing a later one, and the parts everything shares (the contract, the tools) importing no stage. Read
from the modules' own import statements (ast), so a new import against the layout fails here."""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import PROJECT_ROOT

PIPELINE = PROJECT_ROOT / "pipeline"
STAGES = ["read", "validate", "derive", "publish", "release", "site", "index"]  # the build's order
SHARED = {"contract", "tools"}  # what every part may read: they read no part but each other


def module_of(path: Path) -> str:
    parts = path.relative_to(PROJECT_ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def part_of(dotted: str) -> str | None:
    parts = dotted.split(".")
    return parts[1] if len(parts) > 1 and (PIPELINE / parts[1]).is_dir() else None


def edges() -> dict[str, set[str]]:
    """part -> the parts its modules import (pipeline's own names, such as PROJECT_ROOT, are no part)."""
    found: dict[str, set[str]] = {}
    for path in PIPELINE.rglob("*.py"):
        mod = module_of(path)
        package = mod if path.name == "__init__.py" else mod.rsplit(".", 1)[0]
        here = part_of(mod)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            if node.level:
                base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if not target.startswith("pipeline"):
                continue
            for name in [target] + [f"{target}.{a.name}" for a in node.names] if target == "pipeline" else [target]:
                there = part_of(name)
                if here and there and there != here:
                    found.setdefault(here, set()).add(there)
    return found


def test_every_module_is_in_a_part():
    loose = sorted(p.name for p in PIPELINE.glob("*.py") if p.name not in ("__init__.py", "__main__.py"))
    assert loose == [], f"módulos fora de uma pasta: {loose}"


def test_no_circle_between_parts():
    graph = edges()

    def reach(start: str) -> set[str]:
        seen, todo = set(), [start]
        while todo:
            for nxt in graph.get(todo.pop(), ()):
                if nxt not in seen:
                    seen.add(nxt)
                    todo.append(nxt)
        return seen

    circles = sorted(p for p in graph if p in reach(p))
    assert circles == [], {p: sorted(graph[p]) for p in circles}


def test_no_stage_imports_a_later_one_and_the_shared_parts_import_no_stage():
    graph = edges()
    against = [(a, b) for a in STAGES for b in graph.get(a, ()) if b in STAGES and STAGES.index(b) > STAGES.index(a)]
    assert against == []
    assert all(not (graph.get(p, set()) - SHARED) for p in SHARED), {p: sorted(graph.get(p, ())) for p in SHARED}
