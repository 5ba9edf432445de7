// relayhud-cli grep: the log engine's search with grep's conventions, so
// scripts and tests can compare the two byte for byte.
#include "cli_commands.h"
#include "cli_support.h"

#include "relayhud/logs/context_filter.h"
#include "relayhud/logs/log_file.h"
#include "relayhud/logs/log_search.h"
#include "relayhud/util/paths.h"

#include <algorithm>

namespace relayhud::cli {
namespace {

// The CLI prints whole lines, however long.
constexpr std::size_t kWholeLine = std::size_t{1} << 40;
constexpr std::size_t kLinesPerRead = 1024;

struct GrepOptions {
    SearchQuery query{{}, SearchSyntax::Regex, true, SearchText::Raw};
    std::uint64_t before = 0;
    std::uint64_t after = 0;
    bool context = false; // -A, -B or -C given, even 0: grep then prints "--"
    bool countOnly = false;
    bool numbers = false;
    bool patternGiven = false; // by -e
    std::string file;
};

bool takeNumber(const std::string& text, std::uint64_t& out)
{
    std::int64_t v = 0;
    if (!parseInt64(text, v) || v < 0)
        return false;
    out = static_cast<std::uint64_t>(v);
    return true;
}

// One "-xyz" word: flag letters, the last of which may take a value (attached,
// as in -C2, or the next word).
bool parseWord(const std::vector<std::string>& args, std::size_t& i, GrepOptions& o,
               std::string& error)
{
    const std::string& word = args[i];
    for (std::size_t k = 1; k < word.size(); ++k) {
        const char c = word[k];
        if (c == 'F' || c == 'i' || c == 'c' || c == 'n' || c == 'E') {
            o.query.syntax = c == 'F' ? SearchSyntax::Literal : o.query.syntax;
            o.query.caseSensitive = o.query.caseSensitive && c != 'i';
            o.countOnly = o.countOnly || c == 'c';
            o.numbers = o.numbers || c == 'n';
            continue;
        }
        if (c != 'A' && c != 'B' && c != 'C' && c != 'e') {
            error = std::string("unknown option -") + c;
            return false;
        }
        std::string value = word.substr(k + 1);
        if (value.empty() && ++i >= args.size()) {
            error = std::string("option -") + c + " needs a value";
            return false;
        }
        if (value.empty())
            value = args[i];
        if (c == 'e') {
            o.query.pattern = value;
            o.patternGiven = true;
            return true;
        }
        std::uint64_t n = 0;
        if (!takeNumber(value, n)) {
            error = std::string("-") + c + " needs a number of lines, not '" + value + "'";
            return false;
        }
        o.before = c != 'A' ? n : o.before;
        o.after = c != 'B' ? n : o.after;
        o.context = true;
        return true;
    }
    return true;
}

bool parseGrep(const std::vector<std::string>& args, GrepOptions& o, std::string& error)
{
    std::vector<std::string> words;
    bool optionsDone = false;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& a = args[i];
        if (!optionsDone && a == "--") {
            optionsDone = true;
            continue;
        }
        if (!optionsDone && a.size() > 1 && a[0] == '-') {
            if (!parseWord(args, i, o, error))
                return false;
            continue;
        }
        words.push_back(a);
    }
    if (!o.patternGiven && !words.empty()) {
        o.query.pattern = words.front();
        words.erase(words.begin());
        o.patternGiven = true;
    }
    if (!o.patternGiven || words.size() != 1) {
        error = "usage: grep [-F] [-i] [-c] [-n] [-A N] [-B N] [-C N] PATTERN FILE";
        return false;
    }
    o.file = words.front();
    return true;
}

void printLine(const LogLine& line, char separator, bool numbers, std::string& out)
{
    if (numbers) {
        out += std::to_string(line.number.shown());
        out += separator;
    }
    out += line.bytes;
    out += '\n';
}

// Prints ranges of lines; flushes `out` to the stream now and then.
Result<void> printRanges(const LogFile& log, const ContextFilter& filter, const GrepOptions& o,
                         std::ostream& stream)
{
    std::string out;
    bool first = true;
    for (const auto& r : filter.ranges()) {
        if (o.context && !first)
            out += "--\n";
        first = false;
        for (std::uint64_t l = r.first.value; l <= r.last.value; l += kLinesPerRead) {
            const std::size_t n = static_cast<std::size_t>(
                std::min<std::uint64_t>(kLinesPerRead, r.last.value - l + 1));
            auto lines = log.lines(LineNumber{l}, n, kWholeLine);
            if (!lines)
                return lines.error();
            for (const auto& line : *lines)
                printLine(line, filter.isMatch(line.number) ? ':' : '-', o.numbers, out);
            if (out.size() > (1 << 20)) {
                stream.write(out.data(), static_cast<std::streamsize>(out.size()));
                out.clear();
            }
        }
    }
    stream.write(out.data(), static_cast<std::streamsize>(out.size()));
    return {};
}

} // namespace

int runGrep(const GlobalOptions& global, const std::vector<std::string>& args, std::ostream& out,
            std::ostream& err)
{
    GrepOptions o;
    std::string error;
    if (!parseGrep(args, o, error))
        return fail(err, "grep: " + error, kTrouble);
    LogOpenOptions open;
    open.cacheDir = global.cachePath.empty() ? defaultCacheDir() + "/logs"
                                             : blobRootFor(global.cachePath) + "/logs";
    auto log = LogFile::open(o.file, open);
    if (!log)
        return fail(err, "grep: " + log.message(), kTrouble);
    (*log)->waitForIndex();
    if (const auto p = (*log)->progress(); !p.error.empty())
        return fail(err, "grep: " + o.file + ": " + p.error, kTrouble);
    LogSearch search(*log);
    std::string readError;
    auto started = search.start(o.query, [&](const SearchUpdate& u) {
        if (!u.error.empty())
            readError = u.error;
    });
    if (!started)
        return fail(err, "grep: " + started.message(), kTrouble);
    search.wait();
    if (!readError.empty())
        return fail(err, "grep: " + o.file + ": " + readError, kTrouble);
    const auto matches = search.matches();
    if (o.countOnly) {
        out << matches.size() << '\n';
    } else {
        ContextFilter filter(o.before, o.after, (*log)->lineCount());
        filter.append(matches);
        if (auto r = printRanges(**log, filter, o, out); !r)
            return fail(err, "grep: " + o.file + ": " + r.message(), kTrouble);
    }
    out.flush();
    return matches.empty() ? kNoMatch : kMatched;
}

} // namespace relayhud::cli
