# The two commands: `make site` (sets up .venv from pinned versions, builds output/: the build validates)
# and `make test` (the full suite, as CI runs it). `make test-fast` skips the tests marked `slow` (one
# hostile case per class, no real-export builds, a few browser checks): the tier to run while working.
# `make serve` serves output/ on http://127.0.0.1:8000/.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-$(shell cksum < requirements.lock | cut -d' ' -f1)
DATA   ?= datasets
OUT    ?= output
AS_OF  ?=
PORT   ?= 8000

.PHONY: site test test-fast serve lock lint clean bench nightly

$(STAMP): requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.lock
	rm -f $(VENV)/.installed-* && touch $@

SITE_URL ?=
ANTERIOR ?=
site: $(STAMP)
	$(BIN)/python -m pipeline build --data $(DATA) --out $(OUT) $(if $(AS_OF),--as-of $(AS_OF)) $(if $(SITE_URL),--site-url $(SITE_URL)) $(if $(ANTERIOR),--anterior $(ANTERIOR)) $(if $(VERSOES_URL),--versoes-url $(VERSOES_URL))

# The nightly job: fetch the sources of nightly.toml, ingest, validate, build, check links, publish. Its exit
# status 3 (published, a source kept at its last good copy) is a warning here, for the workflow to deploy.
NIGHTLY_CONFIG ?= nightly.toml
NIGHTLY_STATE  ?= .cache/nightly
BASE_PATH      ?=
nightly: $(STAMP)
	$(BIN)/python -m pipeline nightly --config $(NIGHTLY_CONFIG) --state $(NIGHTLY_STATE) --out $(OUT) $(if $(AS_OF),--as-of $(AS_OF)) $(if $(BASE_PATH),--base-path $(BASE_PATH)) $(if $(SITE_URL),--site-url $(SITE_URL)) $(if $(ANTERIOR),--anterior $(ANTERIOR)) $(if $(VERSOES_URL),--versoes-url $(VERSOES_URL)) $(if $(CONTATO),--contato $(CONTATO)); \
	status=$$?; if [ $$status -eq 3 ]; then \
	  echo "::warning title=Build noturno::publicado com a última cópia boa de fonte(s) que falharam hoje (ver o resumo)"; \
	  exit 0; fi; exit $$status

# the suite in TEST_WORKERS processes (pytest-xdist): two, the CI machine's cores; TEST_WORKERS=0 runs it in one.
# Bytecode is written even where the environment says not to (PYTHONDONTWRITEBYTECODE, set on the CI machine):
# the suite starts dozens of Python processes (workers, builds, the CLI), and each would compile the
# project's modules and rewrite the tests' asserts again (3-4 s of each worker's collection).
TEST_WORKERS ?= 2
TEST_ENV     := PYTHONDONTWRITEBYTECODE=
test: $(STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) --durations=15

test-fast: $(STAMP)
	$(TEST_ENV) $(BIN)/python -m pytest -q -n $(TEST_WORKERS) -m "not slow"

serve:
	@test -f $(OUT)/index.html || $(MAKE) site
	$(BIN)/python -m http.server --directory $(OUT) --bind 127.0.0.1 $(PORT)

lint: $(STAMP)
	$(BIN)/ruff check pipeline tests bench

lock:
	rm -rf /tmp/portal-lock-venv && $(PYTHON) -m venv /tmp/portal-lock-venv
	/tmp/portal-lock-venv/bin/pip install --quiet -r requirements.in
	(echo "# Exact versions of every package the project installs (pip freeze of requirements.in)."; \
	 /tmp/portal-lock-venv/bin/pip freeze) > requirements.lock

BENCH_SCALES ?= 0.1,1,3
BENCH_OUT    ?= bench/out
bench: $(STAMP)
	$(BIN)/python bench/run.py --scales $(BENCH_SCALES) --out $(BENCH_OUT)

clean:
	rm -rf $(OUT) .$(OUT).staging .pytest_cache
