// CGettext: glibc's gettext (<libintl.h>), which Swift's Glibc module leaves out, and the one
// variable gettext's manual names for "the language changed": Translations.swift (in
// window-banner-full) makes the calls. Only the programs that draw link it; the small
// `window-banner` client never translates.

#ifndef CGETTEXT_H
#define CGETTEXT_H

#include <libintl.h>

/// glibc's counter of catalog changes (GNU gettext manual, "Changing the language at
/// runtime"): gettext keeps the translations it found, and forgets them when this moves.
extern int _nl_msg_cat_cntr;

/// Tells gettext that LANGUAGE changed, so that the next lookup does not answer from the
/// translations found for the previous value.
static inline void cgettext_language_changed(void) { ++_nl_msg_cat_cntr; }

#endif
