// Font stacks opened on demand and kept per pattern (FontLibrary) until the display closes,
// and the warm-up that has fontconfig read its configuration before the first banner
// (FontWarmup). Fonts.swift makes one stack from a pattern.

import BannerCore
import CText
import Glibc
import StartupTrace
import Synchronization

/// Opens font stacks on demand and keeps them until `closeAll`.
public final class FontLibrary {
    private let opener: any FontOpener
    private var open: [String: FontStack] = [:]
    /// Warnings about substituted families, reported once each.
    public private(set) var warnedFamilies: Set<String> = []
    public var warn: (String) -> Void = { _ in }
    /// The desktop's UI font family (XSETTINGS' `Gtk/FontName`), drawn where a banner asks for
    /// the system font — a font whose first family is `sans-serif` (every built-in style, and
    /// `--font` without a family) or `system-ui` — at the banner's own size and weight, with
    /// that family behind it for what it lacks; nil: fontconfig's sans.
    public var systemFamily: String?

    /// Stacks whose remembered font fontconfig answered differently: out of use, closed with
    /// the rest (a frame on screen may still hold their glyphs).
    private var retired: [FontStack] = []
    /// True while a stack's font waits to be compared with fontconfig's answer or remembered
    /// (`checkRemembered`).
    public private(set) var needsCheck = false

    public init(opener: any FontOpener) { self.opener = opener }

    /// Generic fontconfig names that never match a family of the same name.
    private static let genericFamilies: Set<String> = ["sans-serif", "sans", "serif", "monospace", "mono", "system-ui", "emoji"]

    /// The font stack for `font` at `scale` pixels per point.
    public func font(_ requested: BannerFont, scale: Double) throws(BannerValueError) -> FontStack {
        var font = requested
        if let systemFamily, let first = font.families.first, ["sans-serif", "system-ui"].contains(first.lowercased()) {
            font.families.insert(systemFamily, at: 0)
        }
        let pattern = font.fontconfigPattern(pixelsPerPoint: scale)
        if let cached = open[pattern] { return cached }
        // A process that started fontconfig on a thread (the owner) opens the font an earlier
        // one matched for the same request, while fontconfig is still starting.
        let remembering = FontWarmup.wasStarted ? memoryKey(pattern) : nil
        if let remembering, FontWarmup.isPending, let stack = rememberedStack(pattern, request: remembering, requested: requested) {
            StartupTrace.mark("font opened from memory: \(pattern)")
            open[pattern] = stack
            needsCheck = true
            return stack
        }
        guard let request = Self.substitutedRequest(pattern, opener: opener) else {
            throw .font(requested.description, reason: "fontconfig cannot parse it")
        }
        var result = FcResultNoMatch
        guard let match = FcFontMatch(nil, request, &result) else {
            FcPatternDestroy(request)
            throw .font(requested.description, reason: "no font matches it")
        }
        let matchedFamily = Self.family(of: match)
        // The opener owns `match` from here on, on success.
        guard let opened = opener.open(match) else {
            FcPatternDestroy(match)
            FcPatternDestroy(request)
            throw .font(requested.description, reason: "cannot open the matched font '\(matchedFamily)'")
        }
        StartupTrace.mark("font matched and opened")
        warnIfSubstituted(requested, by: matchedFamily)
        let primary = LoadedFont(opened: opened, matchedFamily: matchedFamily)
        let stack = FontStack(primary: primary, pattern: pattern, request: request, opener: opener)
        if let remembering {
            stack.provenance = .matched(request: remembering)
            needsCheck = true
        }
        open[pattern] = stack
        return stack
    }

    /// The request fontconfig matches for `pattern`: its own substitutions, then the backend's
    /// defaults. Waits for fontconfig's start-up.
    static func substitutedRequest(_ pattern: String, opener: any FontOpener) -> OpaquePointer? {
        FontWarmup.finish()
        guard let request = FcNameParse(pattern) else { return nil }
        FcConfigSubstitute(nil, request, FcMatchPattern)
        opener.substituteDefaults(request)
        return request
    }

    /// The request as the memory knows it: the pattern with the backend's defaults (DPI,
    /// antialiasing, hinting), which fontconfig's start-up is not needed for.
    private func memoryKey(_ pattern: String) -> String? {
        guard let request = FcNameParse(pattern) else { return nil }
        defer { FcPatternDestroy(request) }
        opener.substituteDefaults(request)
        return Self.unparsed(request)
    }

    /// The stack of the font remembered for `request`, opened; nil when there is none or it
    /// cannot be opened.
    private func rememberedStack(_ pattern: String, request: String, requested: BannerFont) -> FontStack? {
        guard let (matched, remembered) = RememberedMatches.recallPattern(request) else { return nil }
        let matchedFamily = Self.family(of: remembered)
        // The opener owns `remembered` from here on, on success.
        guard let opened = opener.open(remembered) else {
            FcPatternDestroy(remembered)
            return nil
        }
        warnIfSubstituted(requested, by: matchedFamily)
        let stack = FontStack(primary: LoadedFont(opened: opened, matchedFamily: matchedFamily), pattern: pattern, request: nil, opener: opener)
        stack.provenance = .remembered(request: request, matched: matched)
        return stack
    }

    /// Once the banners have stopped moving: remembers what fontconfig matched, and compares
    /// each remembered font with fontconfig's own answer (a start-up deferred until then runs
    /// now: a few milliseconds no frame waits for; no file is read or written mid-slide).
    /// `settled` false: nothing yet. True when a font differed: its stack is replaced, and the
    /// banners must be laid out again.
    public func checkRemembered(settled: Bool) -> Bool {
        guard needsCheck, settled else { return false }
        needsCheck = false
        var changed = false
        var warnings: [String] = []
        defer { warnings.forEach(warn) }
        for (pattern, stack) in open {
            switch stack.provenance {
            case .checked:
                continue
            case .matched(let request):
                stack.provenance = .checked
                if let matched = Self.rememberable(stack.primary.opened.pattern), RememberedMatches.recall(request) != matched {
                    RememberedMatches.remember(matched, for: request)
                }
            case .remembered(let request, let matched):
                stack.provenance = .checked
                var result = FcResultNoMatch
                guard let substituted = stack.request, let match = FcFontMatch(nil, substituted, &result) else { continue }
                defer { FcPatternDestroy(match) }
                let answer = Self.rememberable(match)
                guard answer != matched else { continue }
                if let answer { RememberedMatches.remember(answer, for: request) } else { RememberedMatches.forget(request) }
                let warning = "fonts changed since the last owner: \(Self.described(stack.primary.opened.pattern)) was drawn where fontconfig now picks \(Self.described(match)); drawn again"
                if !warnings.contains(warning) { warnings.append(warning) }
                open[pattern] = nil
                retired.append(stack)
                changed = true
            }
        }
        return changed
    }

    /// A matched pattern as the memory keeps it, or nil when it would not read back the same:
    /// written by fontconfig and read back by it, without what fontconfig writes rounded (the
    /// point size and DPI: the pixel size decides) or cannot write (Xft's `render` and
    /// `maxglyphmemory`, which Xft takes from the display's defaults when they are missing).
    static func rememberable(_ match: OpaquePointer) -> String? {
        guard let copy = FcPatternDuplicate(match) else { return nil }
        defer { FcPatternDestroy(copy) }
        for object in [String(cString: wb_FC_SIZE()), "dpi", "render", "maxglyphmemory"] {
            _ = FcPatternDel(copy, object)
        }
        guard let text = unparsed(copy), let back = FcNameParse(text) else { return nil }
        defer { FcPatternDestroy(back) }
        return FcPatternEqual(back, copy) != 0 ? text : nil
    }

    /// A matched font for a log line: its family and its file's name.
    static func described(_ pattern: OpaquePointer) -> String {
        var file: UnsafeMutablePointer<FcChar8>?
        let name = FcPatternGetString(pattern, wb_FC_FILE(), 0, &file) == FcResultMatch
            ? file.map { String(cString: $0).split(separator: "/").last.map(String.init) ?? "" } ?? "" : ""
        return "'\(family(of: pattern))' (\(name))"
    }

    /// A pattern as fontconfig writes it.
    static func unparsed(_ pattern: OpaquePointer) -> String? {
        guard let text = FcNameUnparse(pattern) else { return nil }
        defer { free(text) }
        return String(cString: text)
    }

    /// Warns once per family the user named that fontconfig had to replace.
    private func warnIfSubstituted(_ requested: BannerFont, by matchedFamily: String) {
        // The desktop's family is no family the user wrote: its absence is no warning.
        let family = requested.primaryFamily
        if !Self.genericFamilies.contains(family.lowercased()),
           family.lowercased() != matchedFamily.lowercased(),
           !warnedFamilies.contains(family) {
            warnedFamilies.insert(family)
            warn("font family '\(family.printable)' not found; using '\(matchedFamily)'")
        }
    }

    /// The family name in a matched pattern ("?" when it has none).
    static func family(of pattern: OpaquePointer) -> String {
        var familyPointer: UnsafeMutablePointer<FcChar8>?
        guard FcPatternGetString(pattern, wb_FC_FAMILY(), 0, &familyPointer) == FcResultMatch, let familyPointer else {
            return "?"
        }
        return String(cString: familyPointer)
    }

    /// Closes every font; call before the display connection closes.
    public func closeAll() {
        FontWarmup.finish()
        opener.willCloseAll()
        for stack in open.values { stack.close() }
        for stack in retired { stack.close() }
        open.removeAll()
        retired.removeAll()
        needsCheck = false
    }
}

/// fontconfig's start-up — reading every config file and font cache, several milliseconds —
/// done on a thread of its own, so a process that knows it will draw (the owner) can have it
/// happen while it connects to the X server and waits for its first request. Every font lookup
/// waits for it first; without `start()`, the first lookup initialises fontconfig itself.
/// A process that remembers fonts from an earlier one (RememberedMatches) does not need
/// fontconfig for its first banner: it starts it once that banner has slid in (`finish`, from
/// `FontLibrary.checkRemembered`), so the two never share the processor (and malloc's one
/// arena) while it is on its way.
public enum FontWarmup {
    private struct State {
        var thread: pthread_t?
        var started = false
        var deferred = false
    }
    private static let state = Mutex(State())

    /// Starts FcInit() on a new thread (once) — or, with `deferrable` and fonts remembered by
    /// an earlier process, later, on the caller's thread (`finish`). Such a process opens the fonts earlier
    /// ones matched (RememberedMatches) until fontconfig is ready, and remembers its own.
    public static func start(deferrable: Bool = false) {
        state.withLock { state in
            guard !state.started else { return }
            state.started = true
            if deferrable, RememberedMatches.hasMemory {
                state.deferred = true
            } else {
                spawn(&state)
            }
        }
    }

    private static func spawn(_ state: inout State) {
        var created = pthread_t()
        if pthread_create(&created, nil, { _ in
            StartupTrace.mark("fontconfig starts")
            _ = FcInit()
            StartupTrace.mark("fontconfig ready")
            return nil
        }, nil) == 0 {
            state.thread = created
        }
    }

    /// Whether `start()` was called in this process.
    static var wasStarted: Bool { state.withLock { $0.started } }

    /// Whether a started warm-up has not been waited for yet (or has not begun: deferred).
    static var isPending: Bool { state.withLock { $0.thread != nil || $0.deferred } }

    /// Waits until a started warm-up has finished; a deferred one runs here and now.
    static func finish() {
        state.withLock { state in
            if state.deferred {
                state.deferred = false
                _ = FcInit()
            }
            guard let started = state.thread else { return }
            pthread_join(started, nil)
            state.thread = nil
        }
    }
}
