# One entry point for set-up, tests and the local stack; every target builds .venv on demand.
PYTHON ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
PORT ?= 3000

.PHONY: install test lint typecheck unit web-test run soak bench bench-http openapi screenshots lock clean simulate sam-env

$(STAMP): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[dev]'
	@touch $(STAMP)

install: $(STAMP)

# checkov pins boto3, packaging and networkx to versions the app cannot take: it gets a venv of its own,
# inside .venv (so git, ruff and `make clean` treat it as the app's).
CHECKOV := $(VENV)/checkov
$(CHECKOV)/.installed: policies/checkov-constraints.txt
	@test -x $(CHECKOV)/bin/python || $(PYTHON) -m venv $(CHECKOV)
	$(CHECKOV)/bin/python -m pip install --quiet --upgrade pip
	$(CHECKOV)/bin/python -m pip install --quiet -c policies/checkov-constraints.txt checkov
	@touch $@

# SAM CLI pins boto3, pydantic and click too: its own venv, for `sam build` in the tests (tests/stack/test_sam_build.py).
SAM := $(VENV)/sam
$(SAM)/.installed: layers/sam-cli-constraints.txt
	@test -x $(SAM)/bin/python || $(PYTHON) -m venv $(SAM)
	$(SAM)/bin/python -m pip install --quiet --upgrade pip
	$(SAM)/bin/python -m pip install --quiet -c layers/sam-cli-constraints.txt aws-sam-cli
	@touch $@

# The last two lines: checkov's built-in checks on the stack CloudFormation runs (policies/checkov.yaml).
lint: $(STAMP) $(CHECKOV)/.installed
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo
	$(BIN)/python -m policies.stack $(VENV)/stack.json
	CKV_SKIP_PACKAGE_UPDATE_CHECK=true $(CHECKOV)/bin/checkov --config-file policies/checkov.yaml --file $(VENV)/stack.json

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(SAM)/.installed node_modules/.installed
	$(BIN)/pytest -n 2 -q

# axe-core for the browser tests' accessibility scans (package.json pins it, package-lock.json locks it);
# a dev tool only: web/ neither ships nor serves it.
node_modules/.installed: package.json package-lock.json
	npm ci --ignore-scripts --no-audit --no-fund
	@touch $@

# The web client's pure modules (state, words, games list, join, new game), without a browser.
web-test: node_modules/.installed
	node --test tests/web/

test: lint typecheck web-test unit

# Two execution environments serve API calls side by side (WORKERS=1: in-process, one at a time).
run: $(STAMP)
	$(BIN)/python -m local_stack serve --port $(PORT) --aws-port $(or $(AWS_PORT),0) --workers $(or $(WORKERS),2) $(if $(HOST),--host $(HOST))

# env.json for `sam local ... --env-vars env.json`, from the running `make run` (CONTAINER_HOST: how a
# container reaches this machine; host.docker.internal by default).
sam-env: $(STAMP)
	$(BIN)/python -m local_stack sam-env --out env.json $(if $(CONTAINER_HOST),--container-host $(CONTAINER_HOST))

# GAMES complete games over HTTP against a fresh `make run` stack; prints RSS and games/s.
soak: $(STAMP)
	$(BIN)/python bench/soak.py --games $(or $(GAMES),1000) --max-rss-mb $(or $(MAX_RSS_MB),500)

# QUICK=1: three rounds, shorter runs. SELF_CHECK=1: the work tree against itself and against itself +10 % CPU.
bench: $(STAMP)
	$(BIN)/python bench/run.py --base $(or $(BASE),HEAD) $(if $(QUICK),--quick) $(if $(SELF_CHECK),--self-check)

# Moves/s through `make run` (WORKERS execution environments) against the twin's raw conditional-update rate.
bench-http: $(STAMP)
	$(BIN)/python bench/http_rate.py --workers $(or $(WORKERS),2) --concurrency $(or $(CONCURRENCY),4)

# 200 by-mail games on a fake clock through the real handlers, stream consumer and sweep on moto.
simulate: $(STAMP)
	$(BIN)/python -m tests.simulation --games $(or $(GAMES),200) --seed $(or $(SEED),7)

openapi: $(STAMP)
	$(BIN)/python -m handlers.api > openapi.json
	$(BIN)/python -m app.feed.events > docs/webhook-events.schema.json

# The web client at phone size on the local stack, into docs/web-*.png (needs /usr/bin/chromium).
screenshots: $(STAMP)
	$(BIN)/python -m tests.browser.screenshots
	$(BIN)/python -m tests.browser.account_screenshots
	DIXIT_SHOOT=1 $(BIN)/python -m pytest -q -n 0 -p no:cacheprovider tests/browser/test_web_absences.py tests/browser/test_web_rematch.py tests/browser/test_web_talk.py tests/browser/test_web_install.py tests/browser/test_web_push.py tests/browser/test_account.py

# Refresh the pinned versions that make every fresh clone install the same tree.
lock: $(STAMP)
	$(BIN)/python -m pip freeze --exclude-editable | grep -v '^-e' > constraints.txt
	$(BIN)/python layers/dependencies/pins.py > layers/dependencies/requirements.txt

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .import_linter_cache
