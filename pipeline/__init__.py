"""Build pipeline of the transparency portal for interstate and international road passenger
transport (Decreto nº 952/1993).

Stages: package (read) -> validation -> derive (legal rules, findings) -> publish -> site -> search.
"""

from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent
SCHEMA_PATH = PROJECT_ROOT / "datasets" / "datapackage.json"
SAMPLE_DIR = PROJECT_ROOT / "datasets"
DECREE_PATH = PROJECT_ROOT / "content" / "legal" / "decreto-952-1993.txt"
