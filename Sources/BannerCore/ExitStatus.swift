// The exit codes every part of WindowBanner shares (sysexits.h where one fits); the CLI adds
// its own in WindowBannerClient.

/// Exit statuses shared by the library's fatal paths and the commands.
public enum ExitStatus {
    /// Bad usage or a bad value (EX_USAGE).
    public static let usage: Int32 = 64
    /// No display, or the display went away (EX_UNAVAILABLE).
    public static let displayUnavailable: Int32 = 69
    /// The X server refused something it should not have (EX_SOFTWARE).
    public static let internalError: Int32 = 70
}
