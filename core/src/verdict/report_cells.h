#pragma once
// The Markdown report's small pieces, shared by its parts: CI text escaped
// and clipped to a cell, links only to plain http(s) URLs, a verdict's mark
// and a job's name.
#include "relayhud/verdict/report.h"

#include <string>
#include <string_view>

namespace relayhud::verdict::cells {

// A cell's worth of CI text: a hostile megabyte name must not make a row
// that alone overflows the comment.
inline constexpr std::size_t kCellBytes = 512;

std::string esc(std::string_view text);
std::string code(std::string_view text); // for a table cell: pipes escaped
// A code span outside a table (a list item), where "\|" would show its
// backslash: only the fence adapts to the backticks inside.
std::string inlineCode(std::string_view text, std::size_t maxBytes = kCellBytes);
const char* verdictMark(Verdict v);
// Only plain http(s) URLs become links; anything else from CI is dropped
// rather than allowed to break out of the link syntax.
bool linkable(std::string_view url);
std::string link(std::string_view label, std::string_view url);
// "workflow / job", with "(attempt N)" when it is a rerun or not the
// attempt the job table shows (a flaky failure of an earlier attempt).
std::string jobName(const CheckRun& run, int attempt);
std::string countOf(std::size_t n, const std::string& one, const std::string& many);

} // namespace relayhud::verdict::cells
