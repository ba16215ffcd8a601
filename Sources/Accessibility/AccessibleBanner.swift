// What a screen reader is told about one banner on screen: the owner describes each banner it
// shows in these words, whichever display server draws it, and AccessibleBanners turns them into
// AT-SPI objects. Pure values: no bus here.

import BannerCore

/// A banner on screen as a screen reader sees it: an object of role notification.
public struct AccessibleBanner: Sendable, Equatable {
    /// Which request it shows (the owner's token): the same banner on three monitors keeps it.
    public var id: Int
    /// What makes it the same banner to a listener: a banner that replaces another with the same
    /// identity (a `show` with the same `--id`) is that banner updated in place, one object,
    /// heard again only when its words change.
    public var identity: String
    /// The accessible name: the banner's title, as drawn (translated).
    public var title: String
    /// The accessible description: the subtitle ("" when none).
    public var subtitle: String
    /// Whether the banner interrupts (`live: assertive`) or waits for a pause (`polite`).
    public var assertive: Bool
    /// What a click on the banner away from its buttons does; nil when it does nothing but
    /// dismiss (then it offers no action of its own).
    public var clickAction: BannerDismissReason?
    /// Its buttons, left to right as they are read: actions, then close.
    public var buttons: [AccessibleButton]

    /// A banner called `title`, described by `subtitle`, with `buttons`, for request `id`.
    public init(id: Int, identity: String, title: String, subtitle: String, assertive: Bool, clickAction: BannerDismissReason?, buttons: [AccessibleButton]) {
        self.id = id
        self.identity = identity
        self.title = title
        self.subtitle = subtitle
        self.assertive = assertive
        self.clickAction = clickAction
        self.buttons = buttons
    }

    /// Whether a screen reader should hear this banner again after `previous`: its words changed.
    func readsDifferently(from previous: AccessibleBanner) -> Bool {
        title != previous.title || subtitle != previous.subtitle
    }
}

/// A button of a banner: a push button whose one action does what clicking it does.
public struct AccessibleButton: Sendable, Equatable {
    /// The label a screen reader speaks: the action's label, or the translated "Close".
    public var name: String
    /// The click it stands for (`action`, `secondaryAction`, `closed`).
    public var reason: BannerDismissReason

    /// A button called `name` that clicks as `reason`.
    public init(name: String, reason: BannerDismissReason) {
        self.name = name
        self.reason = reason
    }
}
