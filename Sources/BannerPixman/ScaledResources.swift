// A display's fonts, icons and colours at the scale of one output (Wayland) or monitor (GNOME):
// what the look painter lays a banner out with, for the backends that draw with pixman; and
// the desktop's preferences (system font, icon theme, text scale) given to them.

import BannerCore
import BannerRuntime

/// A display's fonts, icons and colours at one output's (or monitor's) scale. Held by the host,
/// which the display holds: the display is not held back (it closes its fonts when released).
public final class ScaledResources<Display: LookResources>: LookResources {
    public unowned let display: Display
    public let pixelsPerPoint: Double
    /// Device pixels per logical pixel of the output (or monitor) drawn on.
    public let deviceScale: Double
    public var fonts: FontLibrary { display.fonts }
    public var icons: IconLibrary { display.icons }
    /// The banner's height in device pixels is a multiple of this, so that it is a whole number
    /// of logical pixels too and the compositor shows the buffer one to one
    /// (``BannerLayout/heightStep(deviceScale:)``).
    public var heightStep: Int { BannerLayout.heightStep(deviceScale: deviceScale) }

    /// The display's resources at `deviceScale` (its points to pixels times the output's scale).
    public init(display: Display, deviceScale: Double) {
        self.display = display
        self.deviceScale = deviceScale
        pixelsPerPoint = display.pixelsPerPoint * deviceScale
    }

    public func resolve(_ colour: BannerColor) throws(BannerValueError) -> RGBA { try display.resolve(colour) }
}

extension DesktopPreferences {
    /// Gives `fonts`, `icons` and `pixelsPerPoint` (at a scale of 1, 96 DPI) what these
    /// preferences ask: the system font, the icon theme (for the next icon looked up) and the
    /// text scale. Whether the banners on screen must be laid out again (a new font or scale:
    /// their height and reserved space then change together, in one step); motion and contrast
    /// apply to the next banner shown. What the Wayland and GNOME displays both do.
    public func follow(fonts: FontLibrary, icons: IconLibrary, pixelsPerPoint: inout Double) -> Bool {
        icons.desktopTheme = iconThemeName
        var relayout = false
        if fonts.systemFamily != fontFamily {
            fonts.systemFamily = fontFamily
            relayout = true
        }
        let scale = BannerLayout.pixelsPerPoint(xftDPI: nil) * (textScale ?? 1)
        if scale != pixelsPerPoint {
            pixelsPerPoint = scale
            relayout = true
        }
        return relayout
    }
}
