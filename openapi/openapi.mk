# The HTTP contract: openapi/openapi.yaml, its lint, its JSON form, and the npm tools the
# HTTP contract tests use. The tools (@redocly/cli, @stoplight/spectral-cli,
# @stoplight/prism-cli, pinned in openapi/package-lock.json) are installed locally into
# openapi/node_modules by `npm ci`, once (a stamp file keeps it quick); after that every
# target here works offline.
#
#   make lint            redocly lint + spectral lint + check_contract.py; fails on errors
#   make openapi-json    openapi/openapi.json (committed: the server embeds it, so building
#                        the server needs no npm), regenerated from openapi.yaml
#   make test-openapi    the codec's real output validated against the spec's schemas, and
#                        the Prism proxy proven to pass good responses and flag bad ones
#   make openapi-deps    just the npm install
#   scripts/prism.sh PORT UPSTREAM_URL   a validating proxy for the HTTP tests

OPENAPI_YAML := openapi/openapi.yaml
OPENAPI_JSON := $(B)/openapi.json
OPENAPI_BIN := openapi/node_modules/.bin
OPENAPI_STAMP := openapi/node_modules/.catan-npm-ci
# No telemetry, no update checks: the tools must not need the network once installed.
OPENAPI_ENV := REDOCLY_TELEMETRY=off REDOCLY_SUPPRESS_UPDATE_NOTICE=true NO_UPDATE_NOTIFIER=1 \
	NPM_CONFIG_UPDATE_NOTIFIER=false

# scripts/deps.sh installs node and npm when they are missing. --ignore-scripts: none of
# the tools needs an install script (the only ones are a telemetry ping and a banner).
$(OPENAPI_STAMP): openapi/package.json openapi/package-lock.json | $(DEPS_STAMP)
	cd openapi && $(OPENAPI_ENV) npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

openapi-deps: $(OPENAPI_STAMP)
.PHONY: openapi-deps

$(OPENAPI_JSON): $(OPENAPI_YAML) openapi/redocly.yaml $(OPENAPI_STAMP)
	@mkdir -p $(dir $@)
	cd openapi && $(OPENAPI_ENV) ./node_modules/.bin/redocly bundle --config redocly.yaml openapi.yaml \
		--ext json --output $(abspath $@) >/dev/null

openapi-json: $(OPENAPI_JSON)
	cp $(OPENAPI_JSON) openapi/openapi.json
.PHONY: openapi-json

lint: $(OPENAPI_STAMP) $(OPENAPI_JSON)
	cd openapi && $(OPENAPI_ENV) ./node_modules/.bin/redocly lint --config redocly.yaml openapi.yaml
	cd openapi && $(OPENAPI_ENV) ./node_modules/.bin/spectral lint --ruleset .spectral.yaml \
		--fail-severity error openapi.yaml
	python3 openapi/check_contract.py $(OPENAPI_JSON) .
	@cmp -s $(OPENAPI_JSON) openapi/openapi.json || { echo "openapi/openapi.json is out of date: run make openapi-json"; exit 1; }
.PHONY: lint

# The codec's JSON against the spec: random games printed by codec_samples, validated by
# validate_samples.js (Ajv, JSON Schema 2020-12).
CODEC_SAMPLES := $(B)/openapi/codec_samples
$(CODEC_SAMPLES): $(B)/obj/openapi/codec_samples.o $(CODEC_LIB) $(ENGINE_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) -o $@ $^ $(CODEC_LIBS)

test-openapi: $(CODEC_SAMPLES) $(OPENAPI_JSON) $(OPENAPI_STAMP)
	$(CODEC_SAMPLES) $${OPENAPI_SAMPLE_GAMES:-12} > $(B)/openapi/codec_samples.txt
	node openapi/validate_samples.js $(OPENAPI_JSON) < $(B)/openapi/codec_samples.txt
	openapi/test_prism.sh $(OPENAPI_JSON)
.PHONY: test-openapi
