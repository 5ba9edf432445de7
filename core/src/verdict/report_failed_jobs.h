#pragma once
// The jobs that failed, one line each, worst first: what a reader of a PR
// comment looks at before anything else (issue 36). A line names the job,
// the classes of its failures and its first failing tests; the tables by
// class are folded further down (report_markdown.cpp). Expected xfails are
// counted, never listed one by one.
#include "relayhud/verdict/report.h"

#include <string>
#include <vector>

namespace relayhud::verdict {

bool isExpectedXfail(const ClassifiedFailure& failure);

// One Markdown list item ("- ...\n") per job that is red or has a failure
// that is not an expected xfail; jobs with a failure of an earlier section
// first (caused by this PR before already broken, ...), then red jobs
// with only expected ones, each group in the order of `in.jobs`.
std::vector<std::string> failedJobLines(const ReportInput& in);

// One list item per job with expected xfails, the most first:
// "- **backend** workflow / job: 40 expected (xfail)\n".
std::vector<std::string> expectedByJobLines(const ReportInput& in);

} // namespace relayhud::verdict
