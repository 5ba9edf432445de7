#include "relayhud/logs/checkout_scan.h"

#include "logs/line_scan.h"
#include "relayhud/logs/line_decoder.h"
#include "relayhud/util/file_ops.h"
#include "relayhud/util/read_file.h"

#include <sys/stat.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>

namespace relayhud::logs {
namespace {

constexpr std::string_view kSyncing = "Syncing repository: ";
constexpr std::string_view kLogCommand = "git log -1 --format=";
constexpr std::string_view kCommandMarker = "[command]";
// torch-spyre's checkout-pytorch action (.github/actions/checkout-pytorch/
// action.yml @4ef5062f; real-backends.md 3.5) echoes these at the start of
// a line, the fetched ref first, then the remote, and ends with the root.
constexpr std::string_view kFetchRef = "FETCH_REF ";
constexpr std::string_view kRepoUrl = "PYTORCH_REPO_URL ";
constexpr std::string_view kTorchRoot = "TORCH_ROOT ";
constexpr std::string_view kGitHubUrl = "https://github.com/";
// Between FETCH_REF and TORCH_ROOT come the fetch, the checkout and every
// submodule's output; a log that never reaches TORCH_ROOT (the step failed,
// the log was cut) is read this far for the commit, then given up.
constexpr std::uint64_t kMaxFetchLines = 100000;
constexpr std::size_t kBlockBytes = std::size_t{4} << 20;

bool isHex(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

bool isNameChar(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-'
           || c == '_' || c == '.';
}

std::string_view withoutBlanks(std::string_view text)
{
    const auto space = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
    while (!text.empty() && space(text.front()))
        text.remove_prefix(1);
    while (!text.empty() && space(text.back()))
        text.remove_suffix(1);
    return text;
}

// "OWNER/NAME" as GitHub spells repository names; "" for anything else.
std::string repositoryIn(std::string_view text)
{
    text = withoutBlanks(text);
    const std::size_t slash = text.find('/');
    if (slash == 0 || slash == std::string_view::npos || slash + 1 == text.size()
        || text.find('/', slash + 1) != std::string_view::npos)
        return {};
    for (const char c : text)
        if (c != '/' && !isNameChar(c))
            return {};
    return std::string(text);
}

// The commit git printed: 40 or 64 hex digits, in single quotes when the
// format was '%H' (the quotes reach git: @actions/exec passes them on).
std::string shaIn(std::string_view text)
{
    text = withoutBlanks(text);
    if (text.size() >= 2 && text.front() == '\'' && text.back() == '\'')
        text = text.substr(1, text.size() - 2);
    if ((text.size() != 40 && text.size() != 64) || !std::all_of(text.begin(), text.end(), isHex))
        return {};
    std::string sha(text);
    std::transform(sha.begin(), sha.end(), sha.begin(),
                   [](char c) { return c >= 'A' && c <= 'F' ? static_cast<char>(c + 32) : c; });
    return sha;
}

// The runner's echo of actions/checkout's commit query; a shell's own
// `git log -1 --format=%H` (no [command]) is some other repository's.
bool isCommitQuery(std::string_view text)
{
    const std::size_t command = text.find(kCommandMarker);
    const std::size_t at = text.find(kLogCommand);
    if (command == std::string_view::npos || at == std::string_view::npos || at < command)
        return false;
    std::string_view format = withoutBlanks(text.substr(at + kLogCommand.size()));
    return format == "%H" || format == "'%H'" || format == "\"%H\"";
}

// "https://github.com/OWNER/NAME(.git)" as OWNER/NAME; "" for another URL.
std::string repositoryOfUrl(std::string_view url)
{
    url = withoutBlanks(url);
    if (url.substr(0, kGitHubUrl.size()) != kGitHubUrl)
        return {};
    url.remove_prefix(kGitHubUrl.size());
    if (url.size() > 4 && url.substr(url.size() - 4) == ".git")
        url.remove_suffix(4);
    return repositoryIn(url);
}

// `git log -1 --oneline`'s answer: an abbreviated SHA (7 to 40 hex digits),
// a space and the subject. The abbreviation, lowercase; "" for other lines.
std::string onelineSha(std::string_view text)
{
    const std::size_t space = text.find(' ');
    if (space < 7 || space > 40 || space == std::string_view::npos || space + 1 == text.size())
        return {};
    const std::string_view hex = text.substr(0, space);
    if (!std::all_of(hex.begin(), hex.end(), isHex))
        return {};
    std::string sha(hex);
    std::transform(sha.begin(), sha.end(), sha.begin(),
                   [](char c) { return c >= 'A' && c <= 'F' ? static_cast<char>(c + 32) : c; });
    return sha;
}

// The ref of a `FETCH_REF <ref>` line: one word, as a shell expanded it (the
// action's own script, echoed in the step's header, has `$FETCH_REF`).
std::string fetchRefIn(std::string_view text)
{
    if (text.substr(0, kFetchRef.size()) != kFetchRef)
        return {};
    text = withoutBlanks(text.substr(kFetchRef.size()));
    if (text.empty() || text.find_first_of(" \t$\"'`") != std::string_view::npos)
        return {};
    return std::string(text);
}

// One checkout-pytorch step from FETCH_REF on: what it fetched, from where,
// and the commit git printed.
struct FetchRefCheckout {
    std::string ref;
    std::uint64_t refLine = 0;
    std::string repository;
    std::string oneline; // the abbreviation `git log -1 --oneline` printed
    std::uint64_t onelineLine = 0;
    std::uint64_t linesRead = 0;

    // What is known once the step is over: a SHA ref is the commit unless
    // git printed another; a branch resolves only through git's answer.
    LogCheckout finish() const
    {
        std::string full = shaIn(ref);
        const bool agrees = oneline.empty() || (!full.empty() && full.starts_with(oneline));
        if (!full.empty() && agrees)
            return {repository, std::move(full), onelineLine ? onelineLine : refLine, ref};
        // A branch (or a SHA git contradicts): what git printed, maybe nothing.
        return {repository, oneline, onelineLine ? onelineLine : refLine, ref};
    }
};

class Scanner {
public:
    // Reads the lines that end in `data` (all of it when `final`: the log
    // ends there) and returns how many bytes it used; the rest is the start
    // of a line the next call gets again.
    std::size_t feed(std::string_view data, bool final)
    {
        const char* const begin = data.data();
        const char* const end = begin + data.size();
        const char* p = begin;
        if (m_skipping) {
            const char* k = findLineBreak(p, end);
            if (k == end)
                return data.size();
            if (*k == '\r' && k + 1 == end && !final)
                return static_cast<std::size_t>(k - begin); // "\r" or "\r\n": the next block says
            if (*k == '\r' && k + 1 < end && k[1] == '\n')
                ++k;
            p = k + 1;
            ++m_line;
            m_skipping = false;
        }
        const char* const stop = final ? end : decidedEnd(p, end);
        const int after = stop < end ? static_cast<unsigned char>(*stop) : kNoByte;
        while (p < stop && !full()) {
            const char* lineStart = p;
            if (!m_pending && !m_fetching) {
                const char* marker = nextMarker(p, stop);
                if (marker == stop) {
                    m_line += countTerminators(p, stop, after);
                    p = stop;
                    break;
                }
                lineStart = lineStartBefore(p, marker);
                m_line += countTerminators(p, lineStart, static_cast<unsigned char>(*lineStart));
            }
            const char* terminator = terminatorFrom(lineStart, stop, after);
            const char* textEnd = terminator;
            if (terminator < stop && *terminator == '\n' && textEnd > lineStart
                && textEnd[-1] == '\r')
                --textEnd;
            read(std::string_view(lineStart, static_cast<std::size_t>(textEnd - lineStart)));
            if (terminator == stop) {
                p = stop;
                break;
            }
            p = terminator + 1;
            ++m_line;
        }
        if (full())
            return data.size();
        return static_cast<std::size_t>(p - begin);
    }

    // A line longer than a block: neither a repository nor a commit; the
    // bytes up to its end are skipped.
    void skipLine()
    {
        m_skipping = true;
        m_pending = false;
    }

    bool full() const { return m_found.size() >= kMaxLogCheckouts; }
    std::vector<LogCheckout> take()
    {
        finishFetch();
        return std::move(m_found);
    }

private:
    // Just past the last terminator in [p, end) whose meaning is known: a
    // '\r' as the very last byte may be half of a "\r\n".
    static const char* decidedEnd(const char* p, const char* end)
    {
        const char* stop = p;
        if (const void* nl = memrchr(p, '\n', static_cast<std::size_t>(end - p)))
            stop = static_cast<const char*>(nl) + 1;
        if (end - stop > 1)
            if (const void* cr = memrchr(stop, '\r', static_cast<std::size_t>(end - 1 - stop)))
                stop = std::max(stop, static_cast<const char*>(cr) + 1);
        return stop;
    }

    static const char* find(const char* p, const char* stop, std::string_view needle)
    {
        const void* at =
            memmem(p, static_cast<std::size_t>(stop - p), needle.data(), needle.size());
        return at ? static_cast<const char*>(at) : stop;
    }

    static const char* nextMarker(const char* p, const char* stop)
    {
        return std::min(
            {find(p, stop, kSyncing), find(p, stop, kLogCommand), find(p, stop, kFetchRef)});
    }

    void finishFetch()
    {
        if (m_fetching && !full())
            m_found.push_back(m_fetch.finish());
        m_fetching = false;
        m_fetch = {};
    }

    // A line inside a checkout-pytorch step; false when it ends the step
    // and is to be read as any other line.
    bool readFetch(std::string_view text)
    {
        if (text.substr(0, kFetchRef.size()) == kFetchRef || ++m_fetch.linesRead > kMaxFetchLines) {
            finishFetch();
            return false;
        }
        if (text.substr(0, kTorchRoot.size()) == kTorchRoot) {
            finishFetch();
            return true;
        }
        if (text.substr(0, kRepoUrl.size()) == kRepoUrl)
            m_fetch.repository = repositoryOfUrl(text.substr(kRepoUrl.size()));
        else if (std::string sha = onelineSha(text); !sha.empty()) {
            m_fetch.oneline = std::move(sha);
            m_fetch.onelineLine = m_line;
        }
        return true;
    }

    void read(std::string_view raw)
    {
        std::string_view text = raw.substr(timestampPrefixLength(raw));
        if (m_fetching && readFetch(text))
            return;
        if (std::string ref = fetchRefIn(text); !ref.empty()) {
            m_fetch = FetchRefCheckout{};
            m_fetch.ref = std::move(ref);
            m_fetch.refLine = m_line;
            m_fetching = true;
            return;
        }
        if (m_pending) {
            m_pending = false;
            if (std::string sha = shaIn(text); !sha.empty()) {
                m_found.push_back({std::move(m_repository), std::move(sha), m_line, {}});
                m_repository.clear();
                return;
            }
        }
        if (const std::size_t at = text.find(kSyncing); at != std::string_view::npos)
            m_repository = repositoryIn(text.substr(at + kSyncing.size()));
        else if (isCommitQuery(text))
            m_pending = true;
    }

    std::string m_repository;
    bool m_pending = false;   // the last line was the commit query: this one is its answer
    bool m_skipping = false;  // in the rest of a line longer than a block
    FetchRefCheckout m_fetch; // the checkout-pytorch step being read ...
    bool m_fetching = false;  // ... while this is set
    std::uint64_t m_line = 1;
    std::vector<LogCheckout> m_found;
};

struct FileCloser {
    void operator()(std::FILE* file) const { std::fclose(file); }
};

} // namespace

std::vector<LogCheckout> scanCheckoutsIn(std::string_view log)
{
    Scanner scanner;
    scanner.feed(log, true);
    return scanner.take();
}

Result<std::vector<LogCheckout>> scanCheckouts(const std::string& path)
{
    auto opened = openRegularFile(path, "a job log");
    if (!opened)
        return opened.error();
    const std::unique_ptr<std::FILE, FileCloser> file(::fdopen(opened->fd.get(), "rb"));
    if (!file)
        return makeError("cannot read " + path + ": " + artifacts::errnoText(errno));
    opened->fd.release(); // the FILE closes it now
    Scanner scanner;
    std::string buffer(kBlockBytes, '\0');
    std::size_t carried = 0;
    for (;;) {
        const std::size_t got =
            std::fread(buffer.data() + carried, 1, buffer.size() - carried, file.get());
        const bool final = got == 0;
        const std::string_view data(buffer.data(), carried + got);
        const std::size_t used = scanner.feed(data, final);
        if (final || scanner.full())
            break;
        carried = data.size() - used;
        if (carried == buffer.size()) { // no line ends in a whole block
            scanner.skipLine();
            carried = 0;
            continue;
        }
        std::memmove(buffer.data(), buffer.data() + used, carried);
    }
    if (std::ferror(file.get()))
        return makeError("reading " + path + " failed");
    return scanner.take();
}

} // namespace relayhud::logs
