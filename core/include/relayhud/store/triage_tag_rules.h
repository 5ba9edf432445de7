#pragma once
// What a triage tag may hold, wherever it comes from (issue 35): the one
// rule that `triage import` and a team pull both apply, so that a cache
// holds only tags it can export and import again. A tag from outside that
// breaks it is refused (import) or skipped and counted (pull), never stored.
#include "relayhud/model/triage_tags.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace relayhud {

// Field sizes in bytes. Names come from workflow files and pytest (a
// parametrised test id reaches a few hundred bytes); a note is a few
// sentences and a link, a bug link a URL.
inline constexpr std::size_t kMaxTagNameBytes = 1024; // repo, workflow, job, author
inline constexpr std::size_t kMaxTagTestBytes = 8192;
inline constexpr std::size_t kMaxTagShaBytes = 100; // a SHA, or a nightly's delivery id
inline constexpr std::size_t kMaxTagNoteBytes = 65536;
inline constexpr std::size_t kMaxTagLinkBytes = 4096;
inline constexpr int kMaxTagAttempt = 1'000'000;
// Clocks of two machines differ; a day more is no clock, it is a forgery:
// newest wins a merge, and a tag from the future would win every one.
inline constexpr std::int64_t kTagClockSkewMs = 86'400'000;

// What is wrong with a tag, by kind (a pull counts them by kind).
enum class TagFault { None, Oversized, BadTarget, BadSha, BadLink, BadTime };

struct TagCheck {
    TagFault fault = TagFault::None;
    std::string why; // "\"sha\": not a commit SHA or delivery id (...)"; "" when fine

    bool ok() const { return fault == TagFault::None; }
};

// "" when `sha` is a commit SHA or delivery id: letters, digits, . _ -, at
// most kMaxTagShaBytes; never a path, a space or a control.
std::string tagShaProblem(std::string_view sha);
// "" when `link` is empty or an http(s) link of at most kMaxTagLinkBytes: a
// bug link opens in a browser, never javascript: or file:.
std::string tagLinkProblem(std::string_view link);
// "" when `timeMs` is from 1970 on and no later than `nowMs` plus a day.
std::string tagTimeProblem(std::int64_t timeMs, std::int64_t nowMs);

// Every rule above, and the sizes, required names and attempt range of the
// tag's fields, checked at `nowMs`.
TagCheck checkTriageTag(const TriageTag& tag, std::int64_t nowMs);

} // namespace relayhud
