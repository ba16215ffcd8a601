# The two commands: `make demo` shows the banner, `make test` runs every test.
# Both install the system packages they need first (scripts/install-deps.sh).

SWIFT ?= swift

.PHONY: all deps build release demo test clean

all: build

deps:
	@scripts/install-deps.sh

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build -c release

# Shows offline → back online on $$DISPLAY; without a display, on a private Xvfb + openbox,
# writing a screenshot of each stage to screenshots/.
demo: release
	scripts/demo.sh "$$($(SWIFT) build -c release --show-bin-path)/window-banner"

# Unit tests, X11 tests (each suite starts its own Xvfb + openbox/i3) and CLI tests.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

clean:
	rm -rf .build
