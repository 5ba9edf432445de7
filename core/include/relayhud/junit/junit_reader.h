#pragma once
// Reads a pytest JUnit XML report (DOMAIN.md, "pytest JUnit XML") into a
// JunitReport. Hostile input is expected: artifacts are whatever a downstream
// CI uploaded. DTDs are skipped and entities never expanded (`&x;` stays as
// text), a truncated or malformed file keeps the complete test cases before
// the break and says where it broke, invalid UTF-8 becomes U+FFFD, and long
// messages are capped inline.
#include "relayhud/junit/test_identity.h"
#include "relayhud/model/test_result.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace relayhud {

enum class CaseText : unsigned char { Message, Traceback };

struct JunitReadOptions {
    // Messages and tracebacks longer than this keep only a prefix inline.
    std::size_t maxInlineTextBytes = 64 * 1024;
    BaseNameOptions baseNames;
    // When set, each case is handed over as soon as it is read instead of being
    // kept in JunitReport::cases (the counts are still made). The same object is
    // refilled for the next case, so a caller that stores as it goes holds one
    // case, not 100,000, whose memory is a large part of a parse's cost.
    std::function<void(const TestCaseResult&)> onCase;
    // Called with the whole text (as the report has it, not sanitised) of every
    // message or traceback that was cut, while the parse still holds it, so a
    // store can keep it on disk. `caseIndex` is the case's position in the
    // report: its index in JunitReport::cases, or, with onCase, its ordinal
    // (the call comes before that case's onCase call).
    std::function<void(std::size_t caseIndex, CaseText which, std::string_view fullText)> onCutText;
};

// An error only when nothing can be read: the file is missing or empty, is not
// XML, or its root is not <testsuites>/<testsuite>. A report that breaks off
// part-way is not an error: see JunitReport::parseBreak.
Result<JunitReport> readJunitFile(const std::string& path, const JunitReadOptions& options = {});
Result<JunitReport> readJunitBuffer(std::string_view xml, const JunitReadOptions& options = {});

} // namespace relayhud
