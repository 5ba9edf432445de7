#pragma once
// The tests table's rows laid out for speed: a compact struct per row and
// one case-folded text of all identities and messages, built once per load,
// so that a filter keystroke over 100,000 rows is one pass over plain
// memory with no QString or QVariant per row.
#include "relayhud/model/test_results.h"
#include "relayhud/ui/tests/tests_filter.h"

#include <QString>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::ui {

struct TestsChoice {
    QString value;
    int count = 0; // tests carrying it
};

class TestsIndex {
public:
    using Row = std::uint32_t;
    // How much of a message the text filter searches: messages can be long
    // (64 KB inline), and their start is what names the failure.
    static constexpr std::size_t kSearchedMessageBytes = 2048;

    void build(const std::vector<StoredTestResult>& results);
    std::size_t size() const { return m_rows.size(); }

    // The rows of `order` that pass `filter`, in that order.
    std::vector<Row> filter(const TestsFilter& filter, const std::vector<Row>& order) const;
    // The same into `out`, reusing its memory: a keystroke allocates nothing
    // (large fresh buffers cost page faults). Not for concurrent use.
    void filterInto(const TestsFilter& filter, const std::vector<Row>& order,
                    std::vector<Row>& out) const;

    std::uint32_t fileId(Row row) const { return m_rows[row].file; }
    std::uint32_t classId(Row row) const { return m_rows[row].klass; }
    std::size_t fileCount() const { return m_files.size(); }
    std::size_t classCount() const { return m_classes.size(); }
    const std::string& fileName(std::uint32_t fileId) const { return m_files[fileId]; }
    // "test_ops.py::TestCommonPRIVATEUSE1"; the file alone for module-level tests.
    const std::string& className(std::uint32_t classId) const { return m_classes[classId].label; }
    std::vector<std::string_view> ops(Row row) const;
    std::vector<std::string_view> dtypes(Row row) const;

    // Values present in the data with the number of tests carrying each,
    // in natural order.
    std::vector<TestsChoice> fileChoices() const;
    std::vector<TestsChoice> opChoices() const;
    std::vector<TestsChoice> dtypeChoices() const;

private:
    struct RowInfo {
        std::uint32_t file = 0;
        std::uint32_t klass = 0;
        std::uint32_t marksBegin = 0; // in m_rowMarks: ops, then dtypes
        std::uint8_t opCount = 0;
        std::uint8_t dtypeCount = 0;
        TestOutcome outcome = TestOutcome::Passed;
    };
    struct ClassInfo {
        std::uint32_t file = 0;
        std::string name;
        std::string label;
    };
    struct Criteria;
    struct Builder;

    void addRow(const StoredTestResult& result, Builder& builder);
    std::uint32_t internClass(std::uint32_t file, const StoredTestResult& result, Builder& builder);
    void addMarks(RowInfo& row, std::string_view marks, Builder& builder);
    void appendSearchText(std::string_view text, std::size_t maxBytes);
    bool resolve(const TestsFilter& filter, Criteria& criteria) const;
    bool passes(const RowInfo& row, const Criteria& criteria) const;
    void matchWords(const std::vector<std::string>& words) const;
    Row rowAtTextOffset(std::size_t offset, Row from) const;
    static std::vector<TestsChoice> choices(const std::vector<std::string>& names,
                                            const std::vector<int>& counts);

    std::vector<RowInfo> m_rows;
    std::string m_text; // per row: identity '\n' message prefix '\n', case-folded UTF-8
    std::vector<std::size_t> m_textBegins; // per row, in m_text; a row ends where the next begins
    mutable std::vector<std::uint8_t> m_matched; // per row: how many words it holds
    std::vector<std::uint32_t> m_rowMarks;
    std::vector<std::string> m_files, m_ops, m_dtypes;
    std::vector<ClassInfo> m_classes;
    std::vector<int> m_fileCounts, m_opCounts, m_dtypeCounts;
};

} // namespace relayhud::ui
