# The reference web client (web/): TypeScript sources in web/src, built by web/build.mjs
# into web/dist, which is committed: the server embeds it (api/api.mk, api/web.c), so
# building the server needs no npm. The npm tools (typescript, openapi-typescript,
# openapi-fetch, playwright-core, axe-core; pinned in web/package-lock.json) are installed
# into web/node_modules by `npm ci`, once.
#
#   make web-build     rebuild web/dist (and web/src/schema.d.ts from openapi/openapi.yaml)
#   make test-web      a fresh build must equal the committed one byte for byte, then the
#                      browser tests (web/tests/run.mjs): Debian's chromium driven by
#                      playwright-core against this build's catan-server and a throwaway
#                      PostgreSQL; screenshots in $(B)/web-test/ (the players' journey in its
#                      short form: two turns each, then holidays let the bots finish)
#   make test-web-journey   the long form of the journey: three people play a whole game to
#                      its end by clicks and taps (several minutes; not in `make test`)

WEB_STAMP := web/node_modules/.catan-npm-ci
WEB_ENV := NO_UPDATE_NOTIFIER=1 NPM_CONFIG_UPDATE_NOTIFIER=false

$(WEB_STAMP): web/package.json web/package-lock.json | $(DEPS_STAMP)
	cd web && $(WEB_ENV) npm ci --ignore-scripts --no-audit --no-fund --loglevel=error
	@touch $@

web-deps: $(WEB_STAMP)
.PHONY: web-deps

web-build: $(WEB_STAMP)
	cd web && node build.mjs
.PHONY: web-build

# The committed bundle and types are what the sources and the contract make now.
test-web-build: $(WEB_STAMP)
	@mkdir -p $(B)/web
	@cp web/src/schema.d.ts $(B)/web/schema.committed.d.ts
	cd web && node build.mjs $(abspath $(B)/web/dist)
	@cmp -s web/src/schema.d.ts $(B)/web/schema.committed.d.ts || \
		{ echo "web/src/schema.d.ts was out of date (openapi.yaml changed): rebuilt, commit it with make web-build"; exit 1; }
	@diff -r web/dist $(B)/web/dist >/dev/null || \
		{ diff -r web/dist $(B)/web/dist | head -20; echo "web/dist is not the build of web/src: run make web-build and commit web/dist"; exit 1; }
	@echo "web/dist matches a fresh build"
.PHONY: test-web-build

test-web: test-web-build $(SERVER)
	@scripts/with-postgres.sh env CATAN_SERVER=$(SERVER) WEB_TEST_OUT=$(B)/web-test node web/tests/run.mjs
.PHONY: test-web
test-web-journey: $(WEB_STAMP) $(SERVER)
	@scripts/with-postgres.sh env CATAN_SERVER=$(SERVER) WEB_TEST_OUT=$(B)/web-test node web/tests/run.mjs journey_to_the_end
.PHONY: test-web-journey

# Normal pass only: the browser drives the server, the sanitizer build adds little here.
ifeq ($(SAN),)
TEST_RUN_EXTRA += test-web
endif
