// The C face of toml++ (see include/ctomlplusplus.h). toml++ keeps a table's entries sorted
// by key; they are handed on in the order they are written instead, so the reader's first
// error is the first one in the file.

#include "ctomlplusplus.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <string_view>
#include <utility>
#include <vector>

#include <toml++/toml.h>

namespace {

void visit_node(const toml::node &node, int depth, const std::string_view *key, const toml::source_region &where,
                wbtoml_visitor visit, void *context);

bool before(const toml::source_region &a, const toml::source_region &b) {
    return std::make_pair(a.begin.line, a.begin.column) < std::make_pair(b.begin.line, b.begin.column);
}

void visit_children(const toml::node &node, int depth, wbtoml_visitor visit, void *context) {
    if (const toml::table *table = node.as_table()) {
        std::vector<std::pair<const toml::key *, const toml::node *>> entries;
        for (auto &&[key, value] : *table) entries.emplace_back(&key, &value);
        // Two keys are never written at one place; the key decides should a position be missing.
        std::sort(entries.begin(), entries.end(), [](const auto &a, const auto &b) {
            if (before(a.first->source(), b.first->source())) return true;
            if (before(b.first->source(), a.first->source())) return false;
            return a.first->str() < b.first->str();
        });
        for (auto &&[key, value] : entries) {
            std::string_view name = key->str();
            visit_node(*value, depth + 1, &name, key->source(), visit, context);
        }
    } else if (const toml::array *array = node.as_array()) {
        for (const toml::node &element : *array) visit_node(element, depth + 1, nullptr, element.source(), visit, context);
    }
}

void visit_node(const toml::node &node, int depth, const std::string_view *key, const toml::source_region &where,
                wbtoml_visitor visit, void *context) {
    wbtoml_node out{};
    out.depth = depth;
    out.key = key ? key->data() : nullptr;
    out.key_length = key ? key->size() : 0;
    out.line = where.begin.line;
    out.column = where.begin.column;
    switch (node.type()) {
    case toml::node_type::table: out.kind = WBTOML_TABLE; break;
    case toml::node_type::array: out.kind = WBTOML_ARRAY; break;
    case toml::node_type::string: {
        out.kind = WBTOML_STRING;
        const std::string &text = node.as_string()->get();
        out.string = text.data();
        out.string_length = text.size();
        break;
    }
    case toml::node_type::integer: out.kind = WBTOML_INTEGER; out.integer = node.as_integer()->get(); break;
    case toml::node_type::floating_point: out.kind = WBTOML_FLOAT; out.floating = node.as_floating_point()->get(); break;
    case toml::node_type::boolean: out.kind = WBTOML_BOOLEAN; out.boolean = node.as_boolean()->get() ? 1 : 0; break;
    case toml::node_type::date: out.kind = WBTOML_DATE; break;
    case toml::node_type::time: out.kind = WBTOML_TIME; break;
    default: out.kind = WBTOML_DATE_TIME; break;
    }
    visit(&out, context);
    visit_children(node, depth, visit, context);
}

}  // namespace

extern "C" int wbtoml_parse(const char *text, size_t length, wbtoml_visitor visit, void *context, char *message,
                            size_t message_size, uint32_t *line, uint32_t *column) {
    try {
        toml::table root = toml::parse(std::string_view(text, length));
        visit_children(root, 0, visit, context);
        return 1;
    } catch (const toml::parse_error &error) {
        std::string_view description = error.description();
        if (message_size > 0) {
            size_t count = std::min(description.size(), message_size - 1);
            std::memcpy(message, description.data(), count);
            message[count] = '\0';
        }
        *line = error.source().begin.line;
        *column = error.source().begin.column;
        return 0;
    } catch (...) {
        if (message_size > 0) std::snprintf(message, message_size, "the TOML parser failed");
        *line = 0;
        *column = 0;
        return 0;
    }
}
