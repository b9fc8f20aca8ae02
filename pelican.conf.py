"""Pelican settings of the portal: settings only. The build (``python -m pipeline build``, pipeline/build/__init__.py
``render``) overrides OUTPUT_PATH, DELETE_OUTPUT_DIRECTORY and SITEURL (the site's address, or its path) and adds
the data and the workers (PORTAL_DATA, PORTAL_WORKERS), the folder for what Pagefind reads (PORTAL_SEARCH_PAGES)
and the releases' address (PORTAL_VERSOES_URL); it hands Pelican the site's writer by the get_writer signal."""

from pathlib import Path

from pipeline.contract.limits import MAX_QUERY
from pipeline.read.provenance import BY_THE_DECREE, REVOKED
from pipeline.site.compiled import TEMPLATES
from pipeline.site.filters import FILTERS
from pipeline.site.fixed import fixed_part
from pipeline.site.urls import current, menu

_HERE = Path(__file__).resolve().parent

SITENAME = "Portal do Transporte Rodoviário Interestadual de Passageiros"
SITESUBTITLE = "Linhas, horários, tarifas, transportadoras e atos do transporte rodoviário interestadual de passageiros"
SITEURL = ""
RELATIVE_URLS = False
DEFAULT_LANG = "pt-BR"
TIMEZONE = "America/Sao_Paulo"
DEFAULT_DATE = "fs"

PATH = str(_HERE / "content")
THEME = str(_HERE / "theme")
THEME_STATIC_DIR = "tema"
PLUGINS = ["pipeline.site"]

# Hand-written pages (about, methodology, how to request copies) live in content/pages/.
PAGE_PATHS = ["pages"]
ARTICLE_PATHS = []
STATIC_PATHS = []
IGNORE_FILES = [".#*", "*.txt"]
PAGE_URL = "{slug}/"
PAGE_SAVE_AS = "{slug}/index.html"

# The portal's own generators write the home page and every data page.
DIRECT_TEMPLATES = []
ARTICLE_SAVE_AS = ""
ARCHIVES_SAVE_AS = ""
AUTHORS_SAVE_AS = AUTHOR_SAVE_AS = ""
CATEGORIES_SAVE_AS = CATEGORY_SAVE_AS = ""
TAGS_SAVE_AS = TAG_SAVE_AS = ""
DRAFT_SAVE_AS = DRAFT_PAGE_SAVE_AS = ""
FEED_ALL_ATOM = FEED_ALL_RSS = CATEGORY_FEED_ATOM = TRANSLATION_FEED_ATOM = None
AUTHOR_FEED_ATOM = AUTHOR_FEED_RSS = None

# Reproducible output: no caches, no timestamps from the clock.
LOAD_CONTENT_CACHE = False
CACHE_CONTENT = False
OUTPUT_RETENTION = []
DELETE_OUTPUT_DIRECTORY = False
SLUGIFY_SOURCE = "basename"

# Every data cell is hostile text: autoescape everything (Pelican's default is off). A build reads each
# template once: ``auto_reload`` off spares a stat of the template's file on every page (a noticeable part
# of the rendering at national scale). Each template is compiled once per process (pipeline/site/compiled.py).
JINJA_ENVIRONMENT = {"trim_blocks": True, "lstrip_blocks": True, "autoescape": True, "extensions": [],
                     "auto_reload": False, "bytecode_cache": TEMPLATES}

# The theme's pt-BR filters, for every page (the hand-written pages too: their footer shows dates).
JINJA_FILTERS = FILTERS
# Constants the pages share with the code (one place for each rule).
JINJA_GLOBALS = {"MAX_CONSULTA": MAX_QUERY, "MENU": menu(), "REVOGADO": REVOKED, "PELAS_REGRAS": BY_THE_DECREE,
                 # the header and the footer, made once (pipeline/site/fixed.py); the menu's entries a page is under
                 "parte_fixa": fixed_part, "menu_atual": current}
