// Job logs (logs/line_decoder.h, log_search.h, log_file.h, triage/classifier.h).
// The input's first line chooses a search: its first byte the options, the
// rest the pattern; the remaining bytes are the log. Checked:
//  - decoding and stripping escapes never break, on any line;
//  - the whole-file search (blocks, vector prefilters, RE2 in multi-line
//    mode) finds exactly the lines a line-by-line match finds;
//  - the failure-line classifier says the same of the log in memory and on
//    disk (classifyFile reads in blocks);
//  - so does the checkout scan (logs/checkout_scan.h), and each checkout's
//    line holds its SHA.
#include "fuzz_check.h"
#include "relayhud/logs/checkout_scan.h"
#include "relayhud/logs/line_decoder.h"
#include "relayhud/logs/log_file.h"
#include "relayhud/logs/log_search.h"
#include "relayhud/triage/classifier.h"
#include "relayhud/triage/rule_set.h"
#include "relayhud/util/ascii.h"

#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <string_view>
#include <vector>

namespace {

using namespace relayhud;

// One folder per process; the log file is rewritten for every input. The
// path is never freed: the atexit handler that removes the folder runs after
// function-local statics are destroyed.
const std::string& folder()
{
    static const std::string* const path = [] {
        auto* made = new std::string(
            (std::filesystem::temp_directory_path() / "relayhud-fuzz-log-XXXXXX").string());
        FUZZ_CHECK(::mkdtemp(made->data()) != nullptr, "a temporary folder");
        std::atexit([] {
            std::error_code ignored;
            std::filesystem::remove_all(folder(), ignored);
        });
        return made;
    }();
    return *path;
}

const triage::Classifier& defaultClassifier()
{
    static const triage::Classifier classifier = [] {
        auto made = triage::Classifier::create(triage::defaultRuleSet());
        FUZZ_CHECK(made.ok(), "the default rules build");
        return std::move(*made);
    }();
    return classifier;
}

const std::string& logPath()
{
    static const std::string path = folder() + "/job.log";
    return path;
}

// Lines as log_file.h splits them: at "\n", "\r\n" or a lone "\r".
std::vector<std::string_view> splitLines(std::string_view text)
{
    std::vector<std::string_view> lines;
    std::size_t start = 0;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '\n' && text[i] != '\r')
            continue;
        lines.push_back(text.substr(start, i - start));
        if (text[i] == '\r' && i + 1 < text.size() && text[i + 1] == '\n')
            ++i;
        start = i + 1;
    }
    if (start < text.size())
        lines.push_back(text.substr(start));
    return lines;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view input(reinterpret_cast<const char*>(data), size);
    const std::size_t eol = input.find('\n');
    const std::string_view head = input.substr(0, eol == std::string_view::npos ? 0 : eol);
    const std::string_view log = eol == std::string_view::npos ? input : input.substr(eol + 1);

    std::string stripped;
    const std::vector<std::string_view> lines = splitLines(log);
    for (const std::string_view line : lines) {
        const DecodedLine decoded = decodeLine(line);
        (void)decoded;
        FUZZ_CHECK(timestampPrefixLength(line) <= line.size(), "a timestamp is in its line");
        stripEscapes(line, stripped);
        FUZZ_CHECK(stripped.size() <= line.size(), "stripping only removes");
    }

    {
        std::ofstream out(logPath(), std::ios::binary | std::ios::trunc);
        out.write(log.data(), static_cast<std::streamsize>(log.size()));
    }
    const auto inMemory = defaultClassifier().classifyText(log);
    const auto onDisk = defaultClassifier().classifyFile(logPath());
    FUZZ_CHECK(onDisk.ok(), "the classifier reads the file");
    FUZZ_CHECK(inMemory.has_value() == onDisk->has_value(), "memory and disk agree on a match");
    if (inMemory) {
        FUZZ_CHECK(inMemory->line == (*onDisk)->line, "memory and disk agree on the line");
        FUZZ_CHECK(inMemory->ruleIndex == (*onDisk)->ruleIndex, "and on the rule");
    }

    const std::vector<LogCheckout> checkouts = logs::scanCheckoutsIn(log);
    const auto checkoutsOnDisk = logs::scanCheckouts(logPath());
    FUZZ_CHECK(checkoutsOnDisk.ok(), "the checkout scan reads the file");
    FUZZ_CHECK(*checkoutsOnDisk == checkouts, "memory and disk agree on the checkouts");
    FUZZ_CHECK(checkouts.size() <= logs::kMaxLogCheckouts, "the checkouts are capped");
    for (const LogCheckout& checkout : checkouts) {
        FUZZ_CHECK(checkout.sha.size() == 40 || checkout.sha.size() == 64, "a SHA's length");
        FUZZ_CHECK(checkout.line >= 1 && checkout.line <= lines.size(), "a checkout's line exists");
        FUZZ_CHECK(lowerAscii(lines[checkout.line - 1]).find(checkout.sha) != std::string::npos,
                   "a checkout's line holds its SHA");
    }

    if (head.empty())
        return 0;
    SearchQuery query;
    query.syntax = (head[0] & 1) ? SearchSyntax::Regex : SearchSyntax::Literal;
    query.caseSensitive = (head[0] & 2) == 0;
    query.text = (head[0] & 4) ? SearchText::Raw : SearchText::Display;
    query.pattern = std::string(head.substr(1));
    if (query.pattern.empty())
        return 0;
    auto matcher = TextMatcher::compile(query);
    if (!matcher)
        return 0;

    LogOpenOptions options;
    options.indexThreads = 1;
    options.cacheDir = folder();
    auto file = LogFile::open(logPath(), options);
    FUZZ_CHECK(file.ok(), "the log opens");
    (*file)->waitForIndex();
    LogSearch search(*file, 1);
    FUZZ_CHECK(search.start(query).ok(), "a compiled query starts");
    search.wait();
    const std::vector<LineNumber> found = search.matches();

    std::vector<LineNumber> expected;
    FUZZ_CHECK(lines.size() == (*file)->lineCount(), "the index counts the lines");
    for (std::size_t i = 0; i < lines.size(); ++i) {
        std::string text(lines[i]);
        if (query.text == SearchText::Display)
            stripEscapes(lines[i], text);
        if (matcher->contains(text))
            expected.push_back(LineNumber{i});
    }
    FUZZ_CHECK(found == expected, "the file search finds what a line-by-line match finds");
    return 0;
}
