// A `show` request made ready for a schedule: the config file and style resolved in the caller's
// locale, the desktop's reduced motion applied, every value turned into a look and checked on
// this display, the contrast judged, the icon found and read (a large one off the frame path),
// the monitors named, the mode decided — or the one line saying why not. Nothing here touches a
// schedule, a host or a connection; the owner does that with the result (Owner.show).

import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import OwnerIPC
import OwnerProtocol

/// A request ready to be scheduled.
struct PreparedShow<Host> {
    var appearance: TopBannerAppearance
    var compactPolicy: CompactPolicy
    var placement: EdgePlacement
    var fullscreen: FullscreenPolicy
    var mode: BannerMode
    /// The monitors it goes to.
    var hosts: [Host]
    /// Spoken by a screen reader at once.
    var assertive: Bool
    /// Held back while the screen is shared: `--private` or its style's `private`, never for a
    /// watcher's own banner (BannerConfig.watcherBannerIDs).
    var isPrivate: Bool
    /// What the client is told besides (a contrast below WCAG's, an icon shown without).
    var warnings: [String]
}

enum ShowPreparation<Backend: BannerBackend> {
    enum Outcome {
        case ready(PreparedShow<Backend.Host>)
        case refused(OwnerError)
        /// Its icon is being decoded: `iconLoaded` is called with it, to prepare it again.
        case loadingIcon
    }

    /// Prepares `request` for `banners`' display, with the config files `config` keeps.
    /// `loadedIcon`: its icon, when decoded in the background already.
    static func prepare(
        _ request: ShowRequest, config: inout ConfigCache, banners: Backend, loadedIcon: Result<BannerIcon, IconProblem>?,
        desktopStopsSharing: Bool, log: (String) -> Void, iconLoaded: @escaping (Result<BannerIcon, IconProblem>) -> Void
    ) -> Outcome {
        var warnings: [String] = []
        do {
            let locale = request.locale ?? UserLocale.variables(in: processEnvironment())
            let style = try config.style(request.style, configPath: request.configPath, locale: locale, desktopTheme: banners.desktopThemeName)
            var settings = style.appearance.overlaid(by: request.settings)
            // The sharing banner's "Stop sharing", where the desktop can stop a share.
            if request.stopsSharing == true, settings.action == nil, desktopStopsSharing {
                settings.action = Translations.text(BannerConfig.stopSharingLabel, locale: locale)
            }
            if settings.reduceMotion == nil, banners.desktopPrefersReducedMotion || DesktopSettings.prefersReducedMotion(environment: processEnvironment()) {
                settings.reduceMotion = "true"
            }
            var appearance: TopBannerAppearance
            let policy: CompactPolicy
            let placement: EdgePlacement
            let fullscreen: FullscreenPolicy
            let politeness: Politeness
            do {
                appearance = try settings.appearance()
                appearance.layoutDirection = LayoutDirection(locale: UserLocale(environment: locale))
                policy = try settings.compactPolicy()
                placement = try settings.edgePlacement()
                fullscreen = try settings.fullscreenPolicy()
                politeness = try BannerConfig.politeness(of: settings, style: request.style)
                try banners.check(appearance)
            } catch {
                throw OwnerError(.usage, "\(error)")
            }
            if let problem = try contrastProblem(of: appearance, settings: settings, request: request, banners: banners) {
                guard request.strictContrast != true else { throw OwnerError(.usage, problem) }
                warnings.append(problem)
            }
            if let icon = appearance.icon {
                // Read before the banner is shown, from where the client is, so that `show` can
                // warn about it. A large file is decoded off the frame path: the request is taken
                // up again once it is ready, and every banner keeps moving meanwhile.
                var outcome = loadedIcon
                if outcome == nil {
                    let searchPath = request.dataDirectories.map { ProgramIcons.searchPath(dataDirectories: $0, home: processEnvironment()["HOME"]) }
                    var waiting = false
                    banners.loadIcon(icon, for: appearance, searchPath: searchPath, relativeTo: request.directory) { loaded in
                        guard waiting else { return outcome = loaded }
                        iconLoaded(loaded)
                    }
                    guard outcome != nil else {
                        waiting = true
                        return .loadingIcon
                    }
                }
                switch outcome {
                case .success(let file)?: appearance.icon = file
                case .failure(let problem)?:
                    log("\(problem); showing the banner without it")
                    warnings.append("\(problem); showing the banner without it")
                    appearance.icon = nil
                case nil: break
                }
            }
            let mode = try mode(of: request, styleTimeout: style.timeout)
            let hosts: [Backend.Host]
            do {
                hosts = try banners.hosts(named: request.monitor)
            } catch {
                throw OwnerError(.usage, "\(error)")
            }
            return .ready(PreparedShow(
                appearance: appearance, compactPolicy: policy, placement: placement, fullscreen: fullscreen, mode: mode, hosts: hosts,
                assertive: politeness == .assertive,
                isPrivate: (request.private == true || style.private == true) && !BannerConfig.watcherBannerIDs.contains(request.id ?? ""),
                warnings: warnings))
        } catch let error as OwnerError {
            return .refused(error)
        } catch {
            return .refused(OwnerError(.usage, "\(error)"))
        }
    }

    /// A line about a title below WCAG's contrast, or nil. The built-in look of the request's
    /// style (the original's colours, which fall short) is only checked with `--strict-contrast`.
    private static func contrastProblem(
        of appearance: TopBannerAppearance, settings: AppearanceSettings, request: ShowRequest, banners: Backend
    ) throws(OwnerError) -> String? {
        let builtIn = (try? BannerConfig.builtIn.resolve(style: request.style).appearance.appearance()) ?? .default
        do {
            return try banners.contrast(of: appearance)
                .warning(for: appearance, reference: builtIn, written: settings, strict: request.strictContrast == true)
        } catch {
            throw OwnerError(.usage, "\(error)")
        }
    }

    /// Sticky unless asked otherwise: `--sticky` wins, then `--timeout`, then `--transient`
    /// (the style's timeout or 2.5 s), then the style's own timeout.
    static func mode(of request: ShowRequest, styleTimeout: Double?) throws(OwnerError) -> BannerMode {
        if request.sticky { return .sticky }
        if let timeout = request.timeout {
            guard timeout.isFinite, timeout > 0, timeout <= SecondsRange.maximumDuration else { throw OwnerError(.usage, "\(BannerValueError.duration(BannerFont.format(timeout)))") }
            return .transient(timeout)
        }
        if request.transient { return .transient(styleTimeout ?? BannerMode.defaultTransientTimeout) }
        return styleTimeout.map { .transient($0) } ?? .sticky
    }
}
