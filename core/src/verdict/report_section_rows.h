#pragma once
// A row of a failure table of the Markdown report, by section: the job and
// test, then what the section asks about (the change for this PR's, the first
// seen and culprit for already broken, the passing rerun for flaky, the outage
// for infra, the class for the rest), then why.
#include "relayhud/verdict/report.h"

#include <map>
#include <string>
#include <utility>

namespace relayhud::verdict {

class SectionRows {
public:
    explicit SectionRows(const ReportInput& in);

    // "| job | test | ... | why |\n"
    std::string row(ReportSection s, const ClassifiedFailure& f) const;

private:
    std::string jobCell(const ClassifiedFailure& f) const;
    static std::string testCell(const ClassifiedFailure& f);
    static std::string lineCell(const ClassifiedFailure& f);
    static std::string classCell(const ClassifiedFailure& f);
    static std::pair<std::string, std::string> compareEnds(const std::string& url);
    std::string rangeLabel(const ClassifiedFailure& f) const;
    std::string rangeCell(const ClassifiedFailure& f) const;
    std::string changeCell(const ClassifiedFailure& f) const;
    static std::string firstSeenCell(const ClassifiedFailure& f);
    static std::string rerunCell(const ClassifiedFailure& f);

    const ReportInput& m_in;
    std::map<CheckRunRow, const RunVerdict*> m_jobs;
};

} // namespace relayhud::verdict
