// swift-tools-version: 6.0
// WindowBanner: a status banner at the top of an X11 or Wayland desktop that reserves its own space.
import PackageDescription

// Where <pipewire/pipewire.h> and the SPA headers are (`pkg-config --cflags libpipewire-0.3`):
// CPipeWire loads libpipewire itself, and only its C file includes them.
let pipewireHeaders = ["-I/usr/include/pipewire-0.3", "-I/usr/include/spa-0.2", "-D_REENTRANT"]

let package = Package(
    name: "WindowBanner",
    products: [
        .library(name: "BannerCore", targets: ["BannerCore"]),
        .library(name: "BannerRuntime", targets: ["BannerRuntime", "Reactor"]),
        .library(name: "BannerX11", targets: ["BannerX11"]),
        .library(name: "BannerWayland", targets: ["BannerWayland"]),
        .library(name: "BannerGnomeShell", targets: ["BannerGnomeShell"]),
        .library(name: "NetworkPath", targets: ["NetworkPath"]),
        .executable(name: "window-banner", targets: ["window-banner"]),
        .executable(name: "window-banner-full", targets: ["window-banner-full"]),
        .executable(name: "window-banner-config", targets: ["window-banner-config"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // Xlib, Xft, XRender, Xrandr and Xext, bridged through shim.h; XCB on Xlib's connection for
        // the batched reads of other clients' struts (PanelWatch).
        .systemLibrary(
            name: "CX11",
            pkgConfig: "x11 x11-xcb xcb xft xrender xrandr xext xscrnsaver",
            providers: [.apt(["libx11-dev", "libx11-xcb-dev", "libxcb1-dev", "libxft-dev", "libxrender-dev", "libxrandr-dev", "libxext-dev", "libxss-dev"])]
        ),
        // The text stack both backends share: fontconfig, FreeType, HarfBuzz (shaping) and FriBidi
        // (the Unicode bidi algorithm).
        .systemLibrary(
            name: "CText",
            pkgConfig: "fontconfig freetype2 harfbuzz fribidi",
            providers: [.apt(["libfontconfig1-dev", "libfreetype-dev", "libharfbuzz-dev", "libfribidi-dev"])]
        ),
        // Icons: libpng's progressive reader, each row box-filtered into the drawn size as it
        // arrives (C: libpng's errors longjmp).
        .target(name: "CPNG", linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("m")]),
        // The one time type of every deadline (MonotonicTime, a point on CLOCK_MONOTONIC) and
        // the clock's reading: a leaf, so the core, the loop and every reader share it.
        .target(name: "MonotonicClock"),
        // The event loop (one poll, its timers, the sources it serves) and the one blocking wait the
        // clients share: a leaf over the clock, so every reader below the runtime is served by it.
        .target(name: "Reactor", dependencies: ["MonotonicClock"]),
        // Pure Swift: decides every look and every frame; no display server, no I/O, no C module.
        .target(name: "BannerCore", dependencies: ["MonotonicClock"]),
        // Where a process's time goes on its way to the first banner (WINDOW_BANNER_TRACE_STARTUP).
        .target(name: "StartupTrace"),
        // Runs what BannerCore decides, for every backend: fonts and shaped text (CText), icons
        // read from disk (CPNG), the backend interface, on Reactor's loop.
        .target(name: "BannerRuntime", dependencies: ["MonotonicClock", "Reactor", "CText", "CPNG", "BannerCore", "StartupTrace"]),
        // Draws on a real X server: the override-redirect banner, its DOCK reservation, Xft text.
        .target(name: "BannerX11", dependencies: ["Reactor", "MonotonicClock", "CX11", "CText", "BannerRuntime", "BannerCore", "StartupTrace"]),
        // Wayland: libwayland-client and FreeType (glyph bitmaps); CWaylandProtocols holds the
        // layer-shell, xdg-shell, viewporter and fractional-scale glue that
        // scripts/wayland-glue.sh generates with wayland-scanner.
        .systemLibrary(
            name: "CWayland",
            pkgConfig: "wayland-client freetype2",
            providers: [.apt(["libwayland-dev", "libfreetype-dev"])]
        ),
        .target(name: "CWaylandProtocols", dependencies: ["CWayland"]),
        // pixman (drawing into shared-memory buffers), loaded with dlopen on the first call, so
        // an X11 owner never maps it. Its header is read as <pixman-1/pixman.h> (CPixman.h), so
        // no include path is needed: a system library target's pkgConfig would link pixman too.
        .target(name: "CPixman"),
        // The drawing Wayland and GNOME share: the pixman canvas, FreeType glyphs cached as pixman
        // images, a banner drawn into a back buffer, fonts and icons at a monitor's scale.
        .target(
            name: "BannerPixman",
            dependencies: ["CPixman", "CText", "BannerRuntime", "BannerCore"]
        ),
        // Draws what BannerCore decides on a layer-shell compositor (sway, labwc, KWin…): the
        // connection and its outputs, a layer surface with an exclusive zone, BannerPixman's drawing.
        .target(
            name: "BannerWayland",
            dependencies: ["Reactor", "MonotonicClock", "CWayland", "CWaylandProtocols", "CPixman", "BannerPixman", "BannerRuntime", "BannerCore", "SDBus", "DesktopPortal"]
        ),
        // GNOME Shell, which has no layer-shell: the banner drawn here (BannerPixman) and shown by
        // the shell extension in Resources/gnome-shell, over the session bus (SDBus); the
        // compositor's connection (given, a WatchedConnection) is held to learn when the session ends.
        .target(
            name: "BannerGnomeShell",
            dependencies: ["Reactor", "MonotonicClock", "BannerPixman", "BannerRuntime", "BannerCore", "SDBus", "CSDBus", "DesktopPortal"]
        ),
        // The owner process's socket protocol: versioned, length-prefixed JSON frames; pure Swift.
        .target(name: "OwnerProtocol", dependencies: ["BannerCore"]),
        // The IPC to the owner, and nothing that parses a command line: its socket and paths, the
        // client's exchanges (starting an owner, replacing an older one), `status --follow`, the
        // owner's state files, a session's display, the exit codes and the one-line errors.
        // What the owner and the watchers share with the commands.
        .target(
            name: "OwnerIPC",
            dependencies: ["Reactor", "BannerCore", "BannerConfig", "OwnerProtocol", "Spawning", "StartupTrace"]
        ),
        // `show`'s arguments as swift-argument-parser reads them (ShowCommand, its appearance and
        // connection options) and ShowParser, which the owner is handed to read a forwarded `show`.
        .target(
            name: "ShowArguments",
            dependencies: [
                "OwnerIPC", "BannerCore", "BannerConfig", "OwnerProtocol",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // The commands `window-banner` runs itself (show, dismiss, status, stats, action) and how
        // one binary hands a command line to the other. Shared by both binaries below.
        .target(
            name: "WindowBannerClient",
            dependencies: [
                "OwnerIPC", "ShowArguments", "BannerCore", "BannerConfig", "OwnerProtocol", "Spawning",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // `window-banner`, what scripts call: show/dismiss/status/stats talk to the owner from a
        // small binary (no X11, and of Foundation only FoundationEssentials' JSON, no ICU: it
        // starts in about 2 ms); every other command is
        // handed to window-banner-full next to it by exec.
        // Release builds link it fully static (no dynamic loader at all: half its start-up),
        // unless the Makefile finds the toolchain cannot (WINDOW_BANNER_STATIC_CLIENT=0: Debian
        // 13's swiftlang, scripts/static-client.sh); then it links glibc dynamically.
        .executableTarget(
            name: "window-banner",
            dependencies: ["WindowBannerClient", "OwnerIPC", "StartupTrace"],
            linkerSettings: Context.environment["WINDOW_BANNER_STATIC_CLIENT"] == "0"
                ? [] : [.unsafeFlags(["-static-executable"], .when(configuration: .release))]
        ),
        // What every long-running banner process shares: its data directories and own icons,
        // the built-in banners' translations (gettext), signals as a descriptor, child processes.
        .target(name: "BannerProcess", dependencies: ["OwnerIPC", "Spawning", "BannerRuntime", "BannerCore", "CGettext"]),
        // The owner of one display, generic over the backend that draws: the socket server, the
        // requests routed to one schedule per monitor, subscriptions, click commands, the state
        // kept across restarts. No display server of its own, no backend linked (tests run it on
        // a fake display). Release builds compile it with cross-module optimization, so that
        // window-banner-full, which runs it on each shipped backend, can specialize it for each
        // (a generic of another module is otherwise not specialized; make bench's cold show).
        // Not in any library product: the flag never reaches a package that depends on this one.
        .target(
            name: "BannerOwner",
            dependencies: ["Reactor", 
                "MonotonicClock", "OwnerIPC", "BannerProcess", "BannerRuntime", "BannerCore", "BannerConfig", "OwnerProtocol", "Accessibility",
                "Spawning", "CMalloc", "StartupTrace",
            ],
            swiftSettings: [.unsafeFlags(["-enable-cmo-everything"], .when(configuration: .release))]
        ),
        // The watchers (`monitor`): the network monitor's sources, one per file, and the call
        // watcher; each shows its banners through the owner's socket and holds no display.
        .target(
            name: "BannerMonitor",
            dependencies: ["Reactor", 
                "MonotonicClock", "OwnerIPC", "BannerProcess", "BannerRuntime", "BannerCore", "BannerConfig", "OwnerProtocol", "NetworkPath",
                "NetworkManagerBus", "SDBus", "PipeWireCalls", "LoginSessions",
            ]
        ),
        // Every command, the owner (daemon), run, monitor and demo among them: their options,
        // and the display server they open (X11, Wayland or GNOME Shell) for the owner.
        // Config files are read by window-banner-config.
        // Release builds by the Makefile link libstdc++ statically where it can
        // (WINDOW_BANNER_STATIC_CXX: a directory whose libstdc++.so is g++'s libstdc++.a).
        .executableTarget(
            name: "window-banner-full",
            dependencies: ["Reactor", 
                "WindowBannerClient", "ShowArguments", "OwnerIPC", "BannerOwner", "BannerMonitor", "BannerProcess", "BannerX11", "BannerWayland", "BannerGnomeShell", "BannerRuntime", "BannerCore", "BannerConfig", "OwnerProtocol", "NetworkPath", "LoginSessions", "PipeWireCalls", "CSpawn", "Spawning", "CMalloc", "StartupTrace",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            linkerSettings: (Context.environment["WINDOW_BANNER_STATIC_CXX"]).map { $0.isEmpty ? [] : [.unsafeFlags(["-Xclang-linker", "-L" + $0], .when(configuration: .release))] } ?? []
        ),
        // `window-banner-config PATH`: one config file read with toml++, printed as JSON.
        .executableTarget(name: "window-banner-config", dependencies: ["BannerConfig", "BannerCore", "ConfigTOML"]),
        .testTarget(name: "BannerCoreTests", dependencies: ["MonotonicClock", "BannerCore", "ProcessTestSupport"]),
        // The runtime's controller driven on a test clock through a fake surface (real fonts).
        .testTarget(name: "BannerRuntimeTests", dependencies: ["Reactor", "MonotonicClock", "BannerRuntime", "BannerCore", "EmbeddedTestSupport"]),
        // An embedded loop on a test clock and a display of fake monitors under the runtime's
        // real BannerController: what the owner's and the monitor's unit tests run on.
        .target(
            name: "EmbeddedTestSupport", dependencies: ["Reactor", "MonotonicClock", "BannerRuntime", "BannerCore"], path: "Tests/EmbeddedTestSupport"
        ),
        // The owner on an embedded loop and a fake display, spoken to over its real socket.
        .testTarget(
            name: "BannerOwnerTests",
            dependencies: ["MonotonicClock", "BannerOwner", "EmbeddedTestSupport", "OwnerIPC", "ShowArguments", "Spawning", "OwnerProtocol", "BannerRuntime", "BannerCore", "BannerConfig"]
        ),
        // The network monitor and the call watcher's glue on an embedded loop, with fake routes
        // and fake banners.
        .testTarget(
            name: "BannerMonitorTests",
            dependencies: ["MonotonicClock", "BannerMonitor", "EmbeddedTestSupport", "NetworkPath", "PipeWireCalls", "OwnerIPC", "OwnerProtocol", "BannerRuntime", "BannerCore", "BannerConfig", "ProcessTestSupport"]
        ),
        .testTarget(name: "OwnerProtocolTests", dependencies: ["OwnerProtocol", "OwnerIPC", "BannerCore", "ProcessTestSupport"]),
        // The config file (~/.config/window-banner/config.toml): defaults, named styles, daemon
        // settings, checked with BannerCore's rules; loaded through window-banner-config.
        .target(name: "BannerConfig", dependencies: ["BannerCore", "Spawning"]),
        // toml++ (libtomlplusplus, Debian's build of it) behind a C face: a document's values with
        // the positions of their keys, in one pass.
        .target(
            name: "CTomlPlusPlus",
            cxxSettings: [.define("TOML_HEADER_ONLY", to: "0"), .define("TOML_SHARED_LIB", to: "1")],
            linkerSettings: [.linkedLibrary("tomlplusplus")]
        ),
        // The file's TOML parsed with toml++: linked by window-banner-config and the tests only.
        .target(name: "ConfigTOML", dependencies: ["BannerConfig", "BannerCore", "CTomlPlusPlus"]),
        .testTarget(name: "BannerConfigTests", dependencies: ["BannerConfig", "ConfigTOML", "BannerCore", "ProcessTestSupport"]),
        // Starts real programs on pipes and waits for them with deadlines; no X11, shared by
        // the X11 suites and the network namespace tests.
        .target(name: "ProcessTestSupport", dependencies: ["CSpawn"], path: "Tests/ProcessTestSupport"),
        // A private Xvfb + real window manager per suite, and an independent X client that
        // observes what a user would see (work area, geometry, pixels).
        // X-Resource, so tests can count the windows, pixmaps and pictures a client holds.
        .systemLibrary(name: "CXRes", path: "Tests/CXRes", pkgConfig: "xres", providers: [.apt(["libxres-dev"])]),
        .target(name: "X11TestSupport", dependencies: ["CX11", "CXRes", "ProcessTestSupport"], path: "Tests/X11TestSupport"),
        // A headless sway per suite, run as an unprivileged user, and its clients (foot, waybar,
        // grim, swaylock); what a user sees read back with swaymsg and grim;
        // and a virtual pointer device (wlr-virtual-pointer glue in CWaylandTestProtocols).
        .target(name: "CWaylandTestProtocols", dependencies: ["CWayland"], path: "Tests/CWaylandTestProtocols"),
        .target(name: "WaylandTestSupport", dependencies: ["ProcessTestSupport", "CWayland", "CWaylandTestProtocols"], path: "Tests/WaylandTestSupport"),
        .testTarget(
            name: "BannerWaylandTests",
            dependencies: ["BannerWayland", "BannerPixman", "BannerRuntime", "BannerCore", "CWayland", "CPixman", "WaylandTestSupport", "EmbeddedTestSupport", "ProcessTestSupport", "DesktopPortal", "SDBus"]
        ),
        .testTarget(name: "BannerX11Tests", dependencies: ["MonotonicClock", "BannerX11", "BannerRuntime", "BannerCore", "CX11", "CText", "CMalloc", "X11TestSupport", "EmbeddedTestSupport", "ProcessTestSupport"]),
        .testTarget(
            name: "WindowBannerCLITests",
            dependencies: ["window-banner", "window-banner-full", "window-banner-config", "gnome-frame-order", "BannerCore", "BannerMonitor", "OwnerIPC", "Reactor", "X11TestSupport", "WaylandTestSupport", "ProcessTestSupport", "CX11"]
        ),
        // posix_spawn_file_actions_addchdir_np, which Swift's Glibc module does not declare: the
        // commands a click on a banner runs start in the caller's working directory.
        .target(name: "CSpawn"),
        // posix_spawn attributes with a clean signal state, and argv/envp arrays: what every
        // process the package starts gets (the benchmark's tools too, without the argument parser).
        .target(name: "Spawning", dependencies: ["CSpawn"]),
        // malloc_trim(3): the idle owner gives its heap's free pages back.
        .target(name: "CMalloc"),
        // glibc's gettext (libintl.h): the built-in banners' text in the caller's language.
        .target(name: "CGettext"),
        // rtnetlink's structs and constants, and its NLMSG_*/RTA_* macros as inline functions.
        .target(name: "CNetlink"),
        // libcurl for the monitor's HTTP check, loaded with dlopen on the first check (so the
        // owner, the same binary, never maps it); its headers come from libcurl4-openssl-dev.
        .target(name: "CCurl"),
        // Reachability over rtnetlink, the NWPathMonitor of this port, and the HTTP check
        // (CCurl): no X11, no banner.
        .target(name: "NetworkPath", dependencies: ["Reactor", "MonotonicClock", "CNetlink", "CCurl"]),
        // sd-bus (libsystemd), the D-Bus client for NetworkManager, logind and the accessibility
        // bus: loaded with dlopen on the first call (so an X11 owner with no accessibility bus
        // never maps it, nor the six libraries it needs); its header comes from libsystemd-dev.
        .target(name: "CSDBus"),
        // One sd-bus connection and what every bus client needs of it: opening a bus, bounded
        // waits, calls and properties, one error type, messages, a poll loop's view.
        .target(name: "SDBus", dependencies: ["Reactor", "MonotonicClock", "CSDBus"]),
        // NetworkManager's Connectivity property and its changes over the system bus, for
        // `monitor --connectivity networkmanager`.
        .target(name: "NetworkManagerBus", dependencies: ["Reactor", "MonotonicClock", "CSDBus", "SDBus"]),
        // The desktop's preferences (text size, motion, contrast, icons, font) from
        // xdg-desktop-portal's Settings on the session bus, live: what XSETTINGS is on X11; where
        // no portal runs, GSettings itself (CGSettings).
        .target(name: "DesktopPortal", dependencies: ["Reactor", "MonotonicClock", "CSDBus", "SDBus", "CGSettings", "BannerCore"]),
        // GSettings (GIO) for the desktop's preferences where no portal relays them: loaded with
        // dlopen on first use, its types behind its own header (no GLib include path).
        .target(name: "CGSettings"),
        // logind's sessions and the user manager's environment, for commands that name no
        // display (cron, timers, ssh, root services); window-banner-full only, like CSDBus.
        .target(name: "LoginSessions", dependencies: ["CSDBus", "SDBus"]),
        // The owner as an AT-SPI application on the accessibility bus (sd-bus): each banner on
        // screen a notification a screen reader announces, its buttons push buttons it can press.
        .target(name: "Accessibility", dependencies: ["Reactor", "MonotonicClock", "CSDBus", "SDBus", "BannerCore"]),
        // libpipewire for the call watcher, loaded with dlopen on the first connection (the owner
        // and a monitor without --calls never map it): a C shim over PipeWire's macro-only
        // listener and loop calls. Headers from libpipewire-0.3-dev (pipewireHeaders): their
        // include paths are unsafe flags, allowed here because no library product holds it
        // (LibraryDependencyTests builds the products as a dependency).
        .target(name: "CPipeWire", cSettings: [.unsafeFlags(pipewireHeaders)]),
        // Calls from PipeWire: who captures a microphone or a camera (CallRule, pure), the call
        // banner's timing (CallBannerPolicy, pure), and the connection that feeds them.
        .target(name: "PipeWireCalls", dependencies: ["MonotonicClock", "Reactor", "CPipeWire", "BannerCore"]),
        // Prints each path status as a line; the namespace tests run it inside `ip netns exec`.
        .executableTarget(name: "netpath-probe", dependencies: ["NetworkPath", "MonotonicClock"]),
        // GNOME's host held to the one frame order in-process, in a real session as its user
        // (GnomeShellExtensionTests runs it there: the extension serves no other user).
        .executableTarget(
            name: "gnome-frame-order", dependencies: ["BannerGnomeShell", "BannerWayland", "BannerRuntime", "BannerCore", "MonotonicClock", "EmbeddedTestSupport"], path: "Tests/GnomeFrameOrder"
        ),
        // `make bench`: WindowBanner next to dunst, osd_cat and a C floor on one private X server,
        // timed on the server's clock (X RECORD, bench/xrecord-probe.c); BannerCore for the
        // frames it expects. Kept in bench/ beside its C probes and results, out of Sources/.
        .executableTarget(name: "window-banner-bench", dependencies: ["BannerCore", "MonotonicClock", "Spawning"], path: "bench/window-banner-bench"),
        // Calls: the rule and the timing on their own, the watcher against a real PipeWire.
        .testTarget(name: "PipeWireCallsTests", dependencies: ["MonotonicClock", "PipeWireCalls", "BannerCore", "ProcessTestSupport"]),
        .testTarget(name: "NetworkPathTests", dependencies: ["NetworkPath", "MonotonicClock", "BannerCore", "BannerConfig", "BannerMonitor", "netpath-probe", "ProcessTestSupport"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
