#pragma once
// Every parse of JSON from outside (the HUD, GitHub, a teammate's exchange
// file, what the cache keeps of them) goes through here: the text's size and
// its nesting are checked by one linear scan before any document is built, so
// a 100,000-deep `[[[...` is one clear refusal, not a deep recursion in the
// code that walks, copies or prints the document (issue 35).
#include "relayhud/util/result.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace relayhud {

// Deeper than any answer we read: HUD rows are 2 levels, GitHub listings 4, a
// triage exchange 4. A few hundred leaves room for what we do not read yet.
inline constexpr std::size_t kMaxJsonDepth = 256;

struct JsonLimits {
    std::size_t maxDepth = kMaxJsonDepth;
    std::size_t maxBytes = 0; // 0: the caller bounded the text already
};

// The deepest nesting of arrays and objects in `text`, strings and their
// escapes skipped; it stops counting once past `stopAbove`. Not a validator:
// the parser that follows refuses malformed text.
std::size_t jsonNestingDepth(std::string_view text, std::size_t stopAbove = kMaxJsonDepth);

// Refuses text over the limits, saying which and by how much ("JSON nested
// deeper than 256 levels", "JSON of 30.0 MB is over the limit of 24.0 MB").
Result<void> checkJsonBounds(std::string_view text, const JsonLimits& limits = {});

// The document, or a discarded value when the text is invalid or out of
// bounds: for readers that treat either as "not what we expected".
nlohmann::json parseJsonOrDiscarded(std::string_view text, const JsonLimits& limits = {});

// The document, or the bounds' refusal, or "invalid JSON: <parser's reason>".
Result<nlohmann::json> parseBoundedJson(std::string_view text, const JsonLimits& limits = {});

} // namespace relayhud
