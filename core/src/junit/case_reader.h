#pragma once
// Turns one <testcase> element into a TestCaseResult and folds it into the
// report's counts. Internal to the JUnit reader.
#include "relayhud/junit/junit_reader.h"

#include <pugixml.hpp>

#include <string>
#include <string_view>
#include <unordered_map>

namespace relayhud::junit {

class CaseReader {
public:
    CaseReader(const JunitReadOptions& options, JunitReport& report);

    void read(pugi::xml_node testcase);
    std::size_t unnamedCases() const { return m_unnamed; }

private:
    struct Verdict {
        pugi::xml_node decisive; // the failure/error/skipped element that set the outcome
        bool failure = false;
        bool error = false;
        bool skipped = false;
    };

    TestCaseResult& nextResult();
    void readAttributes(pugi::xml_node testcase, TestCaseResult& result);
    void readProperties(pugi::xml_node properties, TestCaseResult& result);
    Verdict readChildren(pugi::xml_node testcase, TestCaseResult& result);
    void applyVerdict(const Verdict& verdict, TestCaseResult& result);
    void capText(std::string_view raw, CaseText which, CappedText& out);
    std::string_view elementText(pugi::xml_node element);
    const TestLocation& locate(std::string_view classname, std::string_view file);
    void count(const Verdict& verdict, TestOutcome outcome);

    const JunitReadOptions& m_options;
    JunitReport& m_report;
    std::size_t m_caseIndex = 0;
    std::size_t m_unnamed = 0;
    TestCaseResult m_streamed; // refilled per case when streaming through onCase
    std::string m_textScratch;
    // A report's cases come from a few hundred classes at most, consecutive
    // cases often from different ones (pytest-xdist, merged shards): each
    // (classname, file) pair is split once. Bounded for hostile reports, in
    // entries and in the length of what an entry remembers.
    static constexpr std::size_t kMaxLocations = 4096;
    static constexpr std::size_t kMaxLocationKeyBytes = 4096;
    TestLocation m_unremembered; // the split of a pair too long to remember
    std::unordered_map<std::string, TestLocation> m_locations;
    std::string m_locationKey; // classname '\0' file, refilled per case
};

} // namespace relayhud::junit
