// toml++ (Debian's libtomlplusplus, a C++ library) seen from Swift through plain C: one call
// parses a document and hands every table entry and array element to a visitor, depth first,
// each with the line and column it is written at — so the config reader learns values and
// positions in one pass. Strings go with their length: a value may hold any character.

#ifndef CTOMLPLUSPLUS_H
#define CTOMLPLUSPLUS_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum {
    WBTOML_TABLE,
    WBTOML_ARRAY,
    WBTOML_STRING,
    WBTOML_INTEGER,
    WBTOML_FLOAT,
    WBTOML_BOOLEAN,
    WBTOML_DATE,
    WBTOML_TIME,
    WBTOML_DATE_TIME,
} wbtoml_kind;

/// One node of the document: a table's entry (`key` set) or an array's element (`key` NULL).
typedef struct {
    /// 1 for the root table's entries, 2 for theirs, and so on.
    int depth;
    /// The entry's key (not NUL-terminated); NULL for an array element.
    const char *key;
    size_t key_length;
    /// Where the key is written (an array element: where its value is), 1-based.
    uint32_t line;
    uint32_t column;
    wbtoml_kind kind;
    /// WBTOML_STRING: the string (not NUL-terminated).
    const char *string;
    size_t string_length;
    int64_t integer;
    double floating;
    int boolean;
} wbtoml_node;

typedef void (*wbtoml_visitor)(const wbtoml_node *node, void *context);

/// Parses `length` bytes of TOML. On success calls `visit` for every node — a table's entries
/// in the order of their keys in the text, each table or array followed by its own — and
/// returns 1. On a syntax error returns 0 with toml++'s description in `message` (cut to
/// `message_size`, NUL-terminated) and its 1-based `line` and `column`.
int wbtoml_parse(
    const char *text, size_t length, wbtoml_visitor visit, void *context, char *message, size_t message_size,
    uint32_t *line, uint32_t *column);

#ifdef __cplusplus
}
#endif

#endif
