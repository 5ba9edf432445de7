#pragma once
// Searching a log: literal or RE2 regex, case toggle, over the whole file on
// worker threads, streaming matching line numbers in file order, cancellable
// ("typing on" starts a new search, which cancels the old one).
//
// What a line's text is, for matching (SearchText):
//  - Display (the view's default): the line's bytes without its escape
//    sequences, so "Error (FOO)" is found in a line coloured as
//    "ESC[1mErrorESC[0m (FOO)". The timestamp and markers such as "##[error]"
//    are part of it (a search for "##[error]" lists the error lines).
//  - Raw: the bytes as in the file (grep's view; the CLI uses it, so its
//    output equals grep's).
// Both exclude the line terminator. Lines end at "\n", "\r\n" or a lone
// "\r" (see log_file.h); grep splits at "\n" only and keeps a '\r' in the
// line, so only a file with '\r' in it can make Raw results differ from
// grep's.
//
// Speed: a search never walks the file line by line. Each block of lines
// (about 1 MiB, cut at index checkpoints, two blocks at a time on two
// threads) is read once; in Display mode its escape sequences are removed in
// place first (none spans a line break, so lines stay where they were). A
// literal is then found with a vector filter on its first and last bytes and
// an exact compare of the candidates. A regex with literals that every match
// must hold (RE2's prefilter atoms; the best set of up to three) is found the
// same way, then only those lines go to RE2; other regexes run RE2 over the
// block in multi-line mode ((?m), never across "\n"), switching to a line
// at a time where matches are dense. Line numbers are counted (vectorised)
// only up to the lines that match. A line ending in "\r" is matched alone on
// its content, where '$' and '.' cannot see the '\r'.
// A line too long to read in one piece (over 1 MiB, in a stretch of over
// 2 MiB) is searched in 1 MiB windows of its raw bytes overlapping by 64 KiB:
// there a regex match longer than 64 KiB is missed and escape sequences are
// not removed.
//
// LogSearch's functions are meant for one thread (the view's); updates come
// from its search threads. A refresh() that reset the log's index makes the
// results stale: start the search again.
#include "relayhud/logs/line_number.h"
#include "relayhud/util/result.h"
#include "relayhud/util/ticket.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud {

class LogFile;
namespace logs {
class CompiledPattern;
class SearchRun;
} // namespace logs

enum class SearchSyntax : std::uint8_t { Literal, Regex };
enum class SearchText : std::uint8_t { Display, Raw };

struct SearchQuery {
    std::string pattern;
    SearchSyntax syntax = SearchSyntax::Literal;
    bool caseSensitive = true;
    SearchText text = SearchText::Display;
};

struct TextRange {
    std::size_t start = 0;
    std::size_t length = 0;
    bool operator==(const TextRange&) const = default;
};

// A compiled query, matching one piece of text. Cheap to copy; thread-safe.
class TextMatcher {
public:
    // A regex that RE2 rejects (or does not support, like backreferences)
    // gives RE2's message.
    static Result<TextMatcher> compile(const SearchQuery& query);

    const SearchQuery& query() const;
    bool contains(std::string_view text) const;
    // Non-overlapping matches, left to right; empty matches are skipped.
    void findAll(std::string_view text, std::vector<TextRange>& out) const;

    const logs::CompiledPattern& pattern() const { return *m_pattern; } // engine-internal

private:
    explicit TextMatcher(std::shared_ptr<const logs::CompiledPattern> pattern);
    std::shared_ptr<const logs::CompiledPattern> m_pattern;
};

// Reported from a search thread, in file order. Drop updates whose ticket
// is not the one start() returned last.
struct SearchUpdate {
    Ticket ticket;
    std::span<const LineNumber> newMatches; // valid during the call only
    std::uint64_t matchCount = 0;           // so far, newMatches included
    std::uint64_t searchedBytes = 0;
    std::uint64_t totalBytes = 0;
    bool finished = false;  // the whole indexed file was searched
    bool cancelled = false; // a newer search or cancel() stopped it
    std::string error;      // the file could not be read
};

class LogSearch {
public:
    explicit LogSearch(std::shared_ptr<const LogFile> log, unsigned threads = 2);
    ~LogSearch(); // cancels and waits
    LogSearch(const LogSearch&) = delete;
    LogSearch& operator=(const LogSearch&) = delete;

    // Cancels the running search and starts this one (waiting for the log's
    // index as it grows). Returns the new search's ticket, which its
    // updates carry.
    using UpdateFn = std::function<void(const SearchUpdate&)>;
    Result<Ticket> start(const SearchQuery& query, UpdateFn onUpdate = {});
    // Searches lines appended since the current search finished (tail mode);
    // false when there is nothing to continue.
    bool extend();
    void cancel();
    // Blocks until the current search ends (CLI, tests).
    void wait() const;

    Ticket ticket() const; // the current search's; none before the first
    bool running() const;
    std::uint64_t matchCount() const;
    std::vector<LineNumber> matches() const;
    // The first match after `from` / the last before it, if any (the view
    // wraps around itself when it wants to).
    std::optional<LineNumber> next(LineNumber from) const;
    std::optional<LineNumber> previous(LineNumber from) const;

private:
    std::shared_ptr<const LogFile> m_log;
    unsigned m_threads;
    Tickets m_tickets;
    std::shared_ptr<logs::SearchRun> m_run;
};

} // namespace relayhud
