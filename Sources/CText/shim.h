// The text stack every backend shares: fontconfig (finding fonts), FreeType (opening and
// rasterising them), HarfBuzz (shaping) and FriBidi (the Unicode bidi algorithm). Macros that do
// not import into Swift are bridged by static inline functions named after them.
#ifndef WINDOWBANNER_CTEXT_SHIM_H
#define WINDOWBANNER_CTEXT_SHIM_H

#include <fontconfig/fontconfig.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include <hb.h>
#include <hb-ft.h>
#include <fribidi.h>

/// fontconfig's object names are macros.
static inline const char *wb_FC_FAMILY(void) { return FC_FAMILY; }
static inline const char *wb_FC_SIZE(void) { return FC_SIZE; }
static inline const char *wb_FC_PIXEL_SIZE(void) { return FC_PIXEL_SIZE; }
static inline const char *wb_FC_CHARSET(void) { return FC_CHARSET; }
static inline const char *wb_FC_COLOR(void) { return FC_COLOR; }
static inline const char *wb_FC_FILE(void) { return FC_FILE; }
static inline const char *wb_FC_INDEX(void) { return FC_INDEX; }
static inline const char *wb_FC_ANTIALIAS(void) { return FC_ANTIALIAS; }
static inline const char *wb_FC_HINTING(void) { return FC_HINTING; }

/// FreeType's load flags are macros built from other macros.
static inline FT_Int32 wb_FT_LOAD_COLOR(void) { return FT_LOAD_COLOR; }
static inline FT_Int32 wb_FT_LOAD_RENDER(void) { return FT_LOAD_RENDER; }
static inline FT_Int32 wb_FT_LOAD_NO_HINTING(void) { return FT_LOAD_NO_HINTING; }
static inline FT_Int32 wb_FT_LOAD_TARGET_LIGHT(void) { return FT_LOAD_TARGET_LIGHT; }
static inline int wb_FT_HAS_COLOR(FT_Face face) { return FT_HAS_COLOR(face) ? 1 : 0; }
static inline int wb_FT_IS_SCALABLE(FT_Face face) { return FT_IS_SCALABLE(face) ? 1 : 0; }

/// FriBidi's paragraph directions are macros built from flag macros.
static inline FriBidiParType wb_FRIBIDI_PAR_ON(void) { return FRIBIDI_PAR_ON; }
static inline FriBidiParType wb_FRIBIDI_PAR_LTR(void) { return FRIBIDI_PAR_LTR; }
static inline FriBidiParType wb_FRIBIDI_PAR_RTL(void) { return FRIBIDI_PAR_RTL; }
static inline int wb_FRIBIDI_IS_RTL(FriBidiParType type) { return FRIBIDI_IS_RTL(type); }

#endif
