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
import WindowBannerClient

final class OwnerAccessibility {
    private let loop: EventLoop
    private let activate: (Int, BannerDismissReason) -> Bool
    private var banners: AccessibleBanners?
    /// Whether the session was asked for an accessibility bus yet: once per owner.
    private var asked = false
    private var busWatch: EventLoop.Token?
    private let busTimer: LoopTimer
    /// The close button's name per caller's locale variables: asked every turn of the loop, looked
    /// up in the catalogue once.
    private var closeNames: [[String: String]: String] = [:]
    private lazy var ownLocale = UserLocale.variables(in: processEnvironment())

    /// Serves on `loop`; a screen reader's press of a button calls `activate` with the
    /// banner's id and the click it stands for.
    init(loop: EventLoop, activate: @escaping (Int, BannerDismissReason) -> Bool) {
        self.loop = loop
        busTimer = LoopTimer(on: loop)
        self.activate = activate
    }

    /// The banners on screen now (each once, whatever the monitors): joins the accessibility
    /// bus at the first, tells it what changed, and watches the bus for what sd-bus wants next.
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
        banners.show(now)
        arm(banners)
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

    private func arm(_ banners: AccessibleBanners) {
        if let busWatch { loop.cancel(busWatch) }
        busWatch = loop.watch(fd: banners.fileDescriptor, events: banners.pollEvents) { [unowned self] in busReady() }
        busTimer.set(at: banners.deadline) { [unowned self] in busReady() }
    }

    /// Answers the screen reader's calls; an accessibility bus that went away is let go.
    private func busReady() {
        guard let banners, !banners.process() else { return }
        if let busWatch { loop.cancel(busWatch) }
        busTimer.cancel()
        busWatch = nil
        self.banners = nil
    }
}
