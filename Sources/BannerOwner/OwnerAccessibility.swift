// The owner's accessibility: its banners on the AT-SPI bus (the Accessibility module), served
// from the owner's loop. Joined lazily, when the first banner comes on screen, and only when the
// session already runs an accessibility bus; otherwise this costs nothing but that one question.
// Start reading at `update(_:)`, which the owner calls before every sleep.

import Accessibility
import BannerConfig
import BannerCore
import BannerProcess
import BannerRuntime
import MonotonicClock
import OwnerIPC
import Reactor

final class OwnerAccessibility {
    private let loop: EventLoop
    private let activate: (Int, BannerDismissReason) -> Bool
    private var banners: AccessibleBanners?
    /// Whether the session was asked for an accessibility bus yet: once per owner.
    private var asked = false
    /// The loop serving the bus connection (a LoopSource), once joined.
    private var served: EventLoop.Token?
    /// The close button's name per caller's locale variables: asked every turn of the loop, looked
    /// up in the catalogue once.
    private var closeNames: [[String: String]: String] = [:]
    private lazy var ownLocale = UserLocale.variables(in: processEnvironment())

    /// Serves on `loop`; a screen reader's press of a button calls `activate` with the
    /// banner's id and the click it stands for.
    init(loop: EventLoop, activate: @escaping (Int, BannerDismissReason) -> Bool) {
        self.loop = loop
        self.activate = activate
    }

    /// The banners on screen now (each once, whatever the monitors): joins the accessibility
    /// bus at the first (which the loop then serves), and tells it what changed.
    /// Once the session said it has no accessibility bus, `onScreen` is not even asked.
    func update(_ onScreen: () -> [AccessibleBanner]) {
        guard banners != nil || !asked else { return }
        let now = onScreen()
        if !asked, !now.isEmpty {
            asked = true
            let locale = UserLocale(environment: processEnvironment()).messagesLocale
            banners = AccessibleBanners.join(applicationName: "window-banner", version: ProgramData.version, locale: locale)
            banners?.onAction = activate
        }
        guard let banners else { return }
        if served == nil {
            // An accessibility bus that went away is let go.
            served = loop.serve(banners) { [unowned self] _ in
                served = nil
                self.banners = nil
            }
        }
        banners.show(now)
    }

    /// "Close" in the language of a caller whose locale variables are `locale` (nil: the
    /// owner's own, as for a banner's other built-in text).
    func closeButtonName(locale: [String: String]?) -> String {
        let locale = locale ?? ownLocale
        if let name = closeNames[locale] { return name }
        let name = Translations.text(BannerConfig.closeButtonName, locale: locale)
        // Callers bring any locale variables they like: a handful are kept.
        if closeNames.count >= 16 { closeNames.removeAll() }
        closeNames[locale] = name
        return name
    }
}
