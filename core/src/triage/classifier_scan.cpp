#include "classifier_scan.h"

#include <algorithm>
#include <cstring>

namespace relayhud::triage {

namespace {

// The DFA of 100+ unanchored rules needs room; when even this is not enough
// a block falls back to the rules one by one (see flushBlock()).
constexpr std::int64_t kSetMemory = std::int64_t{512} << 20;
constexpr std::size_t kScanBlockBytes = 64 * 1024;

RE2::Options withSetMemory(RE2::Options options)
{
    options.set_max_mem(kSetMemory);
    return options;
}

} // namespace

Classifier::Compiled::Compiled(const RE2::Options& options)
    : set(withSetMemory(options), RE2::UNANCHORED)
{
}

std::size_t Classifier::Scan::feedLines(std::string_view data)
{
    std::size_t pos = 0;
    while (pos < data.size()) {
        const void* found = std::memchr(data.data() + pos, '\n', data.size() - pos);
        if (found == nullptr)
            break;
        const auto end = static_cast<std::size_t>(static_cast<const char*>(found) - data.data());
        feedLine(data.substr(pos, end - pos));
        pos = end + 1;
    }
    return pos;
}

void Classifier::Scan::feedLast(std::string_view tail)
{
    if (!tail.empty())
        feedLine(tail);
    flushBlock();
}

void Classifier::Scan::feedLine(std::string_view raw)
{
    ++m_lineNumber;
    if (!raw.empty() && raw.back() == '\r')
        raw.remove_suffix(1);
    const auto cleaned = m_filter.accept(raw);
    if (!cleaned)
        return;
    m_starts.push_back(m_block.size());
    m_numbers.push_back(m_lineNumber);
    m_block.append(*cleaned).push_back('\n');
    if (m_block.size() >= kScanBlockBytes)
        flushBlock();
}

std::string_view Classifier::Scan::blockLine(std::size_t i) const
{
    const std::size_t end = i + 1 < m_starts.size() ? m_starts[i + 1] : m_block.size();
    return std::string_view(m_block).substr(m_starts[i], end - m_starts[i] - 1);
}

// A better rule starts the list of its lines anew.
void Classifier::Scan::setBest(std::size_t rule, std::size_t blockIndex)
{
    if (rule != m_bestRule)
        m_bestRuleLines.clear();
    m_bestRule = rule;
    m_bestLine = m_numbers[blockIndex];
    m_bestText.assign(blockLine(blockIndex));
}

void Classifier::Scan::flushBlock()
{
    RE2::Set::ErrorInfo info{};
    if (m_compiled.set.Match(m_block, &m_hits, &info)) {
        std::sort(m_hits.begin(), m_hits.end());
        for (const int hit : m_hits) {
            const auto rule = static_cast<std::size_t>(hit);
            if (rule > m_bestRule || takeMatches(rule))
                break;
        }
    } else if (info.kind != RE2::Set::kNoError) {
        matchOneByOne(); // the set's DFA ran out of memory: same answer, slower
    }
    m_block.clear();
    m_starts.clear();
    m_numbers.clear();
}

void Classifier::Scan::keepLine(std::size_t blockIndex)
{
    if (m_bestRuleLines.size() < FailureLine::kMaxNamed)
        m_bestRuleLines.emplace_back(blockLine(blockIndex));
}

// The block's last line that `rule` matches becomes the best, if any does;
// its lines are kept while the list has room, and only then looked for.
bool Classifier::Scan::takeMatches(std::size_t rule)
{
    const RE2& pattern = *m_compiled.patterns[rule];
    std::size_t last = kNone;
    for (std::size_t i = m_starts.size(); i-- > 0;) {
        if (RE2::PartialMatch(blockLine(i), pattern)) {
            last = i;
            break;
        }
    }
    if (last == kNone)
        return false;
    setBest(rule, last);
    for (std::size_t i = 0; i < last && m_bestRuleLines.size() < FailureLine::kMaxNamed; ++i)
        if (RE2::PartialMatch(blockLine(i), pattern))
            keepLine(i);
    keepLine(last);
    return true;
}

void Classifier::Scan::matchOneByOne()
{
    for (std::size_t i = 0; i < m_starts.size(); ++i) {
        const std::size_t rule = firstRuleOf(blockLine(i));
        if (rule == kNone)
            continue;
        setBest(rule, i);
        keepLine(i);
    }
}

// The first rule at or above the current best that matches `line`.
std::size_t Classifier::Scan::firstRuleOf(std::string_view line) const
{
    const auto& patterns = m_compiled.patterns;
    const std::size_t last = std::min(patterns.size() - 1, m_bestRule);
    for (std::size_t i = 0; i <= last; ++i) {
        if (RE2::PartialMatch(line, *patterns[i]))
            return i;
    }
    return kNone;
}

} // namespace relayhud::triage
