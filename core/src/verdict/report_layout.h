#pragma once
// The Markdown report's layout: text and tables, laid out to fit a byte
// budget (a GitHub comment). Rows are whole units: a table loses rows from
// its end, never part of one, and says how many it left out and where the
// full list is.
#include "relayhud/verdict/report.h"

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace relayhud::verdict::layout {

struct Table {
    std::string intro;             // heading and text before the table; always written
    std::string summary;           // the <details> summary when the list is long; "" never folds
    bool alwaysFolded = false;     // in <details> (given a summary) however short the list
    std::string head;              // header row and separator row
    std::vector<std::string> rows; // one "| ... |\n" each
    // Rows in the list: those past rows.size() (beyond maxRows, so never
    // shown) are counted, not built. Raised to rows.size() when smaller.
    std::size_t total = 0;
    std::string fullList; // where the rows left out are, as Markdown ("": not said)
    bool capped = true;   // ReportOptions::maxRows applies
    // Kept whole while the other lists can give rows (the jobs that failed:
    // what the report is for); trimmed like them only when that is not enough.
    bool whole = false;
};

class Document {
public:
    // `fullReport` (Markdown) is named when even the tables' intros do not fit.
    explicit Document(std::string fullReport) : m_fullReport(std::move(fullReport)) {}

    void text(std::string markdown);
    void table(Table table);

    // Every table shows at most maxRows (when capped) and at most a common
    // length L, the largest that fits options.maxBytes, so the longest lists
    // lose rows first (a `whole` one none, if the others can make room);
    // rows that still fit after that are given back in document order. When
    // nothing fits, the text is cut at a line end.
    std::string render(const ReportOptions& options) const;

private:
    std::pair<std::string, std::string> frame(std::size_t index, std::size_t shown,
                                              const ReportOptions& options) const;
    std::string part(std::size_t index, std::size_t shown, const ReportOptions& options) const;
    std::size_t size(std::size_t index, std::size_t shown, const ReportOptions& options) const;
    std::string cutToFit(const ReportOptions& options) const;

    std::string m_fullReport;
    std::vector<Table> m_parts;
    std::vector<std::vector<std::size_t>> m_prefix; // bytes of each part's first k rows
};

// The lines a reader sees with every <details> closed: a fold's opening
// line (its summary) counts, what it folds up to its "</details>" does not.
std::size_t visibleLines(std::string_view markdown);

} // namespace relayhud::verdict::layout
