# The two commands: `make demo` shows the banner, `make test` runs every test.
# Both install the system packages they need first (scripts/install-deps.sh).

SWIFT ?= swift

PREFIX ?= $(HOME)/.local
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
# Where install puts the systemd user units and the zsh completion; `make deb` sets Debian's
# places (/usr/lib/systemd/user, /usr/share/zsh/vendor-completions).
SYSTEMD_USER_UNITDIR ?= $(DATADIR)/systemd/user
ZSH_COMPLETIONDIR ?= $(DATADIR)/zsh/site-functions
# Where install puts the XDG autostart entry of the session's notices: the user's own for
# PREFIX ~/.local; `make deb` sets /etc/xdg/autostart.
AUTOSTARTDIR ?= $(if $(filter $(HOME)/.local,$(PREFIX)),$(HOME)/.config/autostart,$(PREFIX)/etc/xdg/autostart)
# The build directory of install and deb (swift build --scratch-path).
SCRATCH ?= .build

.PHONY: all deps test-deps po build release demo test leaks soak fuzz install uninstall deb extension-zip clean static-cxx

all: build

# What building, the demo and the package need (and Swift itself where apt has it: Debian 13's
# swiftlang); test-deps adds everything the tests run.
deps:
	@scripts/install-deps.sh --build

test-deps:
	@scripts/install-deps.sh

build: deps po
	$(SWIFT) build

# The built-in banners' translations (gettext): each Resources/po/LANG.po must translate every
# msgid of window-banner.pot, none fuzzy (msgcmp), and pass msgfmt --check; it is compiled to
# Resources/locale/LANG/LC_MESSAGES/window-banner.mo, where a binary built in this checkout
# finds it (an installed one looks in $(DATADIR)/locale). See docs/translations.md.
LANGUAGES = $(basename $(notdir $(wildcard Resources/po/*.po)))

po: deps
	for lang in $(LANGUAGES); do \
		msgcmp Resources/po/$$lang.po Resources/po/window-banner.pot || exit 1; \
		install -d Resources/locale/$$lang/LC_MESSAGES || exit 1; \
		msgfmt --check -o Resources/locale/$$lang/LC_MESSAGES/window-banner.mo Resources/po/$$lang.po || exit 1; \
	done

# Release builds link the Swift runtime statically: the installed binaries need no Swift
# toolchain at run time, and start in about half the time (no dynamic symbol lookup of the
# Swift libraries). lld packs their relative relocations (DT_RELR): less to read and touch at
# start-up, 0.7 MiB less resident in the owner; it also folds identical functions, and the code
# is optimised for size (-Osize: the same start-up, ~0.2 MiB less resident; nothing here is
# CPU-bound); with no $ORIGIN run path the loader looks for the X libraries in the system
# directories only. The functions the owner runs are laid out side by side
# (packaging/owner-functions.order, written by scripts/order-functions.sh): the kernel maps code
# 64 KiB around each page run, and scattered they kept ~6 MiB of it resident (see docs/performance.md).
# The checkout's path is quoted: it may hold a space.
RELEASE = -c release -Xswiftc -static-stdlib -Xswiftc -Osize -Xswiftc -use-ld=lld \
	-Xlinker -z -Xlinker pack-relative-relocs -Xlinker --icf=all --disable-local-rpath \
	-Xlinker '--symbol-ordering-file=$(CURDIR)/packaging/owner-functions.order' -Xlinker --no-warn-symbol-ordering
# window-banner-full links the C++ standard library the Swift runtime needs statically too,
# where g++'s libstdc++.a is installed (scripts/install-deps.sh installs g++): one shared object
# fewer at every start (docs/performance.md). Package.swift reads the directory, in which
# libstdc++.so is that archive (the runtime's own link line asks for -lstdc++); without it the
# shared library is linked as before. (window-banner-config keeps the shared one: toml++'s
# library uses it.)
STATIC_CXX := $(shell p="$$(cc -print-file-name=libstdc++.a 2>/dev/null)"; [ -f "$$p" ] && echo "$$p")
export WINDOW_BANNER_STATIC_CXX = $(if $(STATIC_CXX),$(CURDIR)/.build-static-cxx)
# Whether `window-banner` links as a static executable (Package.swift reads it): not with Debian
# 13's own Swift, whose static-executable link names archives it lacks (scripts/static-client.sh).
# Asked when a recipe runs, after `deps` may have installed that Swift.
export WINDOW_BANNER_STATIC_CLIENT = $(shell scripts/static-client.sh '$(SWIFT)')
# The three binaries: window-banner (what scripts call), window-banner-full (the owner and the
# commands that draw), window-banner-config (reads config files for them).
PROGRAMS = window-banner window-banner-full window-banner-config

release: deps po static-cxx
	$(SWIFT) build $(RELEASE)

# Shows offline → back online on $$DISPLAY; without a display, on a private Xvfb + openbox,
# writing a screenshot of each stage to screenshots/.
demo: release
	scripts/demo.sh "$$($(SWIFT) build $(RELEASE) --show-bin-path)/window-banner"

# Unit tests, X11 tests (each suite starts its own Xvfb + openbox/i3), Wayland tests (each starts
# a headless sway as an unprivileged user), CLI, owner and network tests; the soak test in a
# process of its own (it measures that process's memory); then the core, X11 and Wayland tests
# again under AddressSanitizer/LeakSanitizer. The Debian package is built first
# (`make deb`, in the same build directory): DebianPackageTests reads dist/*.deb. Each `swift test`
# runs under scripts/check-leftovers.sh, which fails when a process the tests started outlives them.
# The test bundle is run directly rather than through `swift test`, which relays its output
# through pipes of its own: in a whole run that relay lost about 280 of the ~750 result lines
# (tests "started" and never reported; in CI once the name of the one that failed), where the
# bundle writing to the log itself loses none (docs/tests.md).
TESTS = "$$($(SWIFT) build --show-bin-path $(1))/WindowBannerPackageTests.xctest" --testing-library swift-testing
# The system's broadcast spools and notices (docs/fleet.md) are never the machine's in a test: a
# machine just updated has /run/reboot-required, whose notice would queue before every banner a
# test's monitor shows. Subprocess passes it on into the environments tests build; tests of the
# notices set a root of their own.
TEST_SYSTEM_ROOT = WINDOW_BANNER_ROOT=/nonexistent/window-banner-tests
test: test-deps po
	$(MAKE) deb
	$(SWIFT) build --build-tests
	$(TEST_SYSTEM_ROOT) scripts/check-leftovers.sh $(call TESTS) --skip SoakTests
	$(TEST_SYSTEM_ROOT) scripts/check-leftovers.sh $(call TESTS) --filter SoakTests
	$(MAKE) leaks

# The core, X11 and Wayland tests built with AddressSanitizer: any memory error or leak of ours fails
# (scripts/lsan.supp lists the libraries' own process-lifetime allocations; full stack unwinding so
# those are told apart by function, not just by library). The animation suites run here too:
# they assert no pacing, so sanitized code's slower frames pass them. The soak test is left out:
# it measures its process's resident memory, which under AddressSanitizer is mostly the
# allocator's quarantine of freed blocks (it runs on its own in `make test`, and LeakSanitizer
# still checks everything else).
leaks: test-deps
	$(SWIFT) build --build-tests --sanitize address --scratch-path .build-asan
	$(TEST_SYSTEM_ROOT) ASAN_OPTIONS=detect_leaks=1:fast_unwind_on_malloc=0 LSAN_OPTIONS="suppressions='$(CURDIR)/scripts/lsan.supp':print_suppressions=0" \
		scripts/check-leftovers.sh $(call TESTS,--sanitize address --scratch-path .build-asan) \
		--filter 'BannerCoreTests|BannerRuntimeTests|BannerX11Tests|BannerWaylandTests' --skip SoakTests

# The long runs `make test` keeps short: 10,000 present/update/dismiss cycles (memory and X
# resources must end where they started) and 200,000 seeded inputs per parser.
soak: test-deps
	$(SWIFT) build --build-tests
	WINDOW_BANNER_SOAK_CYCLES=10000 $(call TESTS) --filter SoakTests

fuzz: test-deps
	$(SWIFT) build --build-tests
	WINDOW_BANNER_FUZZ_ITERATIONS=200000 $(call TESTS) --filter Fuzz

# window-banner next to notify-send → dunst, osd_cat and a C Xlib+Xft floor, on one private
# Xvfb + openbox, timed on the X server's clock (X RECORD): prints one table and writes
# bench/results/results.{md,json} and frame-intervals.png. BENCH_FLAGS=--quick for a short run;
# add `--only N` for one numbered section (--only 5: memory) and `--results DIR` to leave the
# committed results alone. BENCH_SCRATCH=.build-bench builds beside a `make test` in progress.
BENCH_SCRATCH ?= .build
BENCH_FLAGS ?=
SWIFTC ?= swiftc
BENCH_BIN := bench/out/bin
# What the shaped floor links, pinned (bench/floor-shaped.c; Lineup.shapedFloorLibraries says the same).
SHAPED_FLOOR_LIBS := x11 xft xrender fontconfig freetype2 harfbuzz fribidi

bench: deps static-cxx
	@bench/install-deps.sh
	for product in $(PROGRAMS) window-banner-bench; do \
		$(SWIFT) build $(RELEASE) --scratch-path $(BENCH_SCRATCH) --product $$product || exit 1; \
	done
	mkdir -p $(BENCH_BIN)
	cc -O2 -Wall -o $(BENCH_BIN)/xrecord-probe bench/xrecord-probe.c $$(pkg-config --cflags --libs x11 xtst)
	mkdir -p bench/out/glue
	xml="$$(ls /usr/share/cargo/registry/wayland-protocols-*/wlr-protocols/unstable/wlr-screencopy-unstable-v1.xml | sort -V | tail -n 1)"; \
		wayland-scanner client-header "$$xml" bench/out/glue/wlr-screencopy-unstable-v1-client-protocol.h && \
		wayland-scanner private-code "$$xml" bench/out/glue/wlr-screencopy-unstable-v1-protocol.c
	cc -O2 -Wall -Ibench/out/glue -o $(BENCH_BIN)/screencopy-probe bench/screencopy-probe.c \
		bench/out/glue/wlr-screencopy-unstable-v1-protocol.c $$(pkg-config --cflags --libs wayland-client)
	cc -O2 -Wall -o $(BENCH_BIN)/floor bench/floor.c $$(pkg-config --cflags --libs x11 xft)
	cc -O2 -Wall -o $(BENCH_BIN)/floor-shaped bench/floor-shaped.c $$(pkg-config --cflags --libs $(SHAPED_FLOOR_LIBS))
	cc -O2 -Wall -o $(BENCH_BIN)/maximized-client bench/maximized-client.c $$(pkg-config --cflags --libs x11)
	cc -O2 -Wall -o $(BENCH_BIN)/self-raising-locker bench/self-raising-locker.c $$(pkg-config --cflags --libs x11)
	cc -O2 -o $(BENCH_BIN)/hello-c bench/startup/hello.c
	$(SWIFTC) -O bench/startup/hello.swift -o $(BENCH_BIN)/hello-swift
	$(SWIFTC) -O -static-stdlib bench/startup/hello.swift -o $(BENCH_BIN)/hello-swift-static
	$(SWIFTC) -O bench/startup/hello-foundation.swift -o $(BENCH_BIN)/hello-foundation
	bin="$$($(SWIFT) build $(RELEASE) --scratch-path $(BENCH_SCRATCH) --show-bin-path)"; \
		"$$bin/window-banner-bench" --window-banner "$$bin/window-banner" --bin $(BENCH_BIN) $(BENCH_FLAGS)

# The GNOME Shell extension (Resources/gnome-shell, built by scripts/build-extension.sh): the
# variant for the shell this machine has — 42–44's legacy script, or 45+'s ES module — installed
# where the shell looks, DATADIR/gnome-shell/extensions (for PREFIX ~/.local, the user's own
# extensions). The shell is the one installed, else the one this Debian's apt would install
# (so `make deb` on Debian 12 ships 42–44's, on Debian 13 45+'s), else 45+; a shell newer than
# the newest the extension names gets its major added. GNOME_SHELL_MAJOR=46 picks another.
EXTENSION_UUID := window-banner@window-banner
GNOME_SHELL_MAJOR ?= $(shell { gnome-shell --version 2>/dev/null | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p'; \
	apt-cache policy gnome-shell 2>/dev/null | sed -n 's/^ *Candidate: *\([0-9]*\).*/\1/p'; } | head -n 1)
EXTENSION_VARIANT = $(if $(GNOME_SHELL_MAJOR),$(if $(shell [ $(GNOME_SHELL_MAJOR) -lt 45 ] && echo old),42,45),45)

# The three binaries (side by side in BINDIR: window-banner runs window-banner-full from its own
# directory, which runs window-banner-config from its own), the man page (generated from the
# argument parser), shell completions, the systemd user units, the example config and the
# built-in styles' icons and translations (found at ../share/window-banner/icons and
# ../share/locale from the binaries' directory, so keep DATADIR = PREFIX/share).
# PREFIX defaults to ~/.local; DESTDIR is honoured.
# (The manual plugin builds the package itself: in debug mode, as only the Makefile's RELEASE
# flags can link the small client fully static.)
install: deps po static-cxx
	$(SWIFT) package --scratch-path $(SCRATCH) plugin generate-manual --configuration debug
	$(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH)
	$(eval BIN := $(shell $(SWIFT) build $(RELEASE) --scratch-path $(SCRATCH) --show-bin-path))
	for program in $(PROGRAMS); do install -Dm755 -s "$(BIN)/$$program" "$(DESTDIR)$(BINDIR)/$$program" || exit 1; done
	# window-banner-full's name until issue 33, for units and scripts that still call it.
	ln -sf window-banner-full "$(DESTDIR)$(BINDIR)/window-banner-x11"
	install -Dm644 $(SCRATCH)/plugins/GenerateManual/outputs/window-banner-full/window-banner.1 "$(DESTDIR)$(DATADIR)/man/man1/window-banner.1"
	install -d "$(DESTDIR)$(DATADIR)/man/man5"
	python3 scripts/md2man.py docs/config.md 5 > "$(DESTDIR)$(DATADIR)/man/man5/window-banner.toml.5"
	install -d "$(DESTDIR)$(DATADIR)/bash-completion/completions" "$(DESTDIR)$(ZSH_COMPLETIONDIR)" "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d"
	"$(BIN)/window-banner" --generate-completion-script bash > "$(DESTDIR)$(DATADIR)/bash-completion/completions/window-banner"
	"$(BIN)/window-banner" --generate-completion-script zsh > "$(DESTDIR)$(ZSH_COMPLETIONDIR)/_window-banner"
	"$(BIN)/window-banner" --generate-completion-script fish > "$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/window-banner.fish"
	install -d "$(DESTDIR)$(SYSTEMD_USER_UNITDIR)" "$(DESTDIR)$(AUTOSTARTDIR)"
	for unit in Resources/systemd/*.service; do \
		sed "s|@BINDIR@|$(BINDIR)|g" "$$unit" > "$(DESTDIR)$(SYSTEMD_USER_UNITDIR)/$$(basename $$unit)"; \
	done
	# The notices start with every graphical session, enabled for every user (docs/fleet.md).
	install -d "$(DESTDIR)$(SYSTEMD_USER_UNITDIR)/graphical-session.target.wants"
	ln -sf ../window-banner-notices.service "$(DESTDIR)$(SYSTEMD_USER_UNITDIR)/graphical-session.target.wants/window-banner-notices.service"
	sed "s|^Exec=window-banner |Exec=$(BINDIR)/window-banner |" Resources/autostart/window-banner-notices.desktop > "$(DESTDIR)$(AUTOSTARTDIR)/window-banner-notices.desktop.tmp"
	mv "$(DESTDIR)$(AUTOSTARTDIR)/window-banner-notices.desktop.tmp" "$(DESTDIR)$(AUTOSTARTDIR)/window-banner-notices.desktop"
	install -Dm644 Resources/config.example.toml "$(DESTDIR)$(DATADIR)/doc/window-banner/config.example.toml"
	install -d "$(DESTDIR)$(DATADIR)/window-banner/icons"
	install -m644 Resources/icons/*.png "$(DESTDIR)$(DATADIR)/window-banner/icons/"
	for lang in $(LANGUAGES); do \
		install -Dm644 Resources/locale/$$lang/LC_MESSAGES/window-banner.mo "$(DESTDIR)$(DATADIR)/locale/$$lang/LC_MESSAGES/window-banner.mo" || exit 1; \
	done
	install -Dm644 Resources/man/window-banner-config.1 "$(DESTDIR)$(DATADIR)/man/man1/window-banner-config.1"
	scripts/build-extension.sh "$(SCRATCH)/gnome-shell" $(GNOME_SHELL_MAJOR)
	install -Dm644 -t "$(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(EXTENSION_UUID)" \
		"$(SCRATCH)/gnome-shell/$(EXTENSION_VARIANT)/$(EXTENSION_UUID)/extension.js" "$(SCRATCH)/gnome-shell/$(EXTENSION_VARIANT)/$(EXTENSION_UUID)/metadata.json"

# The extension as extensions.gnome.org takes it, and as `gnome-extensions install ZIP` installs
# it: DIST/window-banner@window-banner.shell-42-44.zip and .shell-45.zip (DIST is dist/), each
# holding extension.js and metadata.json at its top (docs/gnome.md).
DIST ?= dist
extension-zip:
	rm -rf "$(SCRATCH)/extension-zip" && scripts/build-extension.sh "$(SCRATCH)/extension-zip"
	mkdir -p "$(DIST)"
	dist=$$(cd "$(DIST)" && pwd) && for variant in 42 45; do \
		name=$$([ $$variant = 42 ] && echo 42-44 || echo 45); \
		zip="$$dist/$(EXTENSION_UUID).shell-$$name.zip"; \
		rm -f "$$zip"; \
		(cd "$(SCRATCH)/extension-zip/$$variant/$(EXTENSION_UUID)" && python3 -m zipfile -c "$$zip" extension.js metadata.json) || exit 1; \
	done

uninstall:
	rm -rf "$(DESTDIR)$(DATADIR)/gnome-shell/extensions/$(EXTENSION_UUID)"
	rm -f "$(DESTDIR)$(BINDIR)/window-banner" "$(DESTDIR)$(BINDIR)/window-banner-full" "$(DESTDIR)$(BINDIR)/window-banner-x11" "$(DESTDIR)$(BINDIR)/window-banner-config" \
		"$(DESTDIR)$(DATADIR)/man/man1/window-banner.1" "$(DESTDIR)$(DATADIR)/man/man5/window-banner.toml.5" \
		"$(DESTDIR)$(DATADIR)/bash-completion/completions/window-banner" \
		"$(DESTDIR)$(ZSH_COMPLETIONDIR)/_window-banner" \
		"$(DESTDIR)$(DATADIR)/fish/vendor_completions.d/window-banner.fish" \
		"$(DESTDIR)$(SYSTEMD_USER_UNITDIR)/window-banner.service" \
		"$(DESTDIR)$(SYSTEMD_USER_UNITDIR)/window-banner-monitor.service" \
		"$(DESTDIR)$(SYSTEMD_USER_UNITDIR)/window-banner-notices.service" \
		"$(DESTDIR)$(SYSTEMD_USER_UNITDIR)/graphical-session.target.wants/window-banner-notices.service" \
		"$(DESTDIR)$(AUTOSTARTDIR)/window-banner-notices.desktop"
	rm -rf "$(DESTDIR)$(DATADIR)/doc/window-banner" "$(DESTDIR)$(DATADIR)/window-banner"
	for lang in $(LANGUAGES); do rm -f "$(DESTDIR)$(DATADIR)/locale/$$lang/LC_MESSAGES/window-banner.mo"; done
	rm -f "$(DESTDIR)$(DATADIR)/man/man1/window-banner-config.1"

# A Debian package of what install installs, under /usr (units in /usr/lib/systemd/user), plus
# the NetworkManager dispatcher script: dist/window-banner_VERSION_ARCH.deb, its Depends
# computed from the binaries by dpkg-shlibdeps (packaging/debian/build-deb.sh, docs/packaging.md).
# SCRATCH=.build-deb builds it beside another build.
DEB_ROOT = $(abspath $(SCRATCH)/deb/debian/window-banner)

deb: deps
	rm -rf "$(abspath $(SCRATCH)/deb)"
	$(MAKE) install DESTDIR="$(DEB_ROOT)" PREFIX=/usr BINDIR=/usr/bin DATADIR=/usr/share \
		SYSTEMD_USER_UNITDIR=/usr/lib/systemd/user ZSH_COMPLETIONDIR=/usr/share/zsh/vendor-completions AUTOSTARTDIR=/etc/xdg/autostart SCRATCH=$(SCRATCH)
	packaging/debian/build-deb.sh "$(abspath $(SCRATCH)/deb)" dist

# The directory window-banner-full's static C++ library is found in (see STATIC_CXX).
static-cxx:
	$(if $(STATIC_CXX),mkdir -p '$(WINDOW_BANNER_STATIC_CXX)' && ln -sf '$(STATIC_CXX)' '$(WINDOW_BANNER_STATIC_CXX)/libstdc++.so',@true)

clean:
	rm -rf .build .build-static-cxx Resources/locale dist
