// The text window-banner itself supplies — the built-in styles' titles — in its reader's
// language, through glibc's gettext: text domain `window-banner`, catalogs compiled from
// Resources/po by msgfmt (`make po`, installed by `make install` under $(DATADIR)/locale).
//
// The owner serves callers with different locales, so the language is not the process's:
// each lookup takes the caller's locale variables. Their LC_MESSAGES locale (LC_ALL, else
// LC_MESSAGES, else LANG) is made current on this thread only (newlocale + uselocale); gettext
// reads LANGUAGE from the process's environment, so it is set to the caller's for the lookup
// and put back after, with gettext told each time (its manual's `_nl_msg_cat_cntr`). As with
// every gettext program, nothing is translated unless that locale is installed (generated):
// a missing or unknown locale, or C, gives the English text.

import BannerCore
import CGettext
import Glibc
import OwnerIPC
import Synchronization

package enum Translations {
    /// The gettext text domain: `LANG/LC_MESSAGES/window-banner.mo`.
    package static let domain = "window-banner"

    /// `text` (English, one of Resources/po/window-banner.pot's msgids) in the language that the
    /// locale variables `locale` ask for (UserLocale.variableNames), or `text` itself.
    package static func text(_ text: String, locale: [String: String]) -> String {
        let messages = UserLocale(environment: locale).messagesLocale
        guard messages != "C", messages != "POSIX" else { return text }
        return lookup.withLock { _ in
            _ = binding
            // newlocale(3): nil when the locale is not installed (or the name is nonsense).
            guard let caller = newlocale(LC_MESSAGES_MASK, messages, nil) else { return text }
            defer { freelocale(caller) }
            let previous = uselocale(caller)
            defer { uselocale(previous) }
            setLanguage(locale["LANGUAGE"] ?? "")
            defer { setLanguage(processLanguage) }
            // dgettext(3) answers with `text`'s own bytes when the catalog has no translation.
            return text.withCString { String(cString: dgettext(domain, $0)) }
        }
    }

    /// One lookup at a time: LANGUAGE is the whole process's.
    private static let lookup = Mutex(())

    /// This process's own LANGUAGE, put back after each lookup ("" when unset, which gettext
    /// reads the same way: the variable stays in the environment, so setting it never grows
    /// the environment's array under another thread's getenv).
    private static let processLanguage = getenv("LANGUAGE").map { String(cString: $0) } ?? ""

    /// bindtextdomain(3) to this binary's catalogs (without any, gettext's default directory,
    /// where a distribution's package puts them), and bind_textdomain_codeset(3) to UTF-8: the
    /// caller's locale is current for messages only, and the C character type would turn
    /// every non-ASCII letter into '?'.
    private static let binding: Void = {
        if let directory = ProgramData.directories(installed: "locale", source: "locale").first {
            _ = bindtextdomain(domain, directory)
        }
        _ = bind_textdomain_codeset(domain, "UTF-8")
    }()

    /// setenv(3) LANGUAGE, and tell gettext when it changed.
    private static func setLanguage(_ value: String) {
        if let current = getenv("LANGUAGE"), String(cString: current) == value { return }
        setenv("LANGUAGE", value, 1)
        cgettext_language_changed()
    }
}
