#include "sim_junit.h"

#include "sim_failures.h"
#include "sim_text.h"

#include <cstdio>
#include <ctime>

namespace relayhud::sim {
namespace {

// pytest's "2026-05-04T10:12:33.123456+00:00".
std::string suiteTimestamp(EpochSeconds t)
{
    const auto seconds = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[64];
    std::snprintf(buf, sizeof buf, "%04d-%02d-%02dT%02d:%02d:%02d.%06d+00:00", tm.tm_year + 1900,
                  tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec,
                  static_cast<int>(t % 997) * 1000);
    return buf;
}

void appendModule(std::string& out, std::string_view file)
{
    if (file.size() > 3 && file.substr(file.size() - 3) == ".py")
        file.remove_suffix(3);
    for (char c : file)
        out.push_back(c == '/' ? '.' : c);
}

void appendTag(std::string& out, std::string_view kind, std::string_view value)
{
    out += "<property name=\"tag\" value=\"";
    out += kind;
    out += "__";
    appendXmlEscaped(out, value, true);
    out += "\"/>";
}

class JunitWriter {
public:
    JunitWriter(const JobRun& run, const ReportContext& context, std::string& out)
        : m_u(*run.universe), m_context(context), m_out(out)
    {
    }

    void header(const JobTotals& t)
    {
        m_out += "<?xml version=\"1.0\" encoding=\"utf-8\"?>";
        m_out += "<testsuites><testsuite name=\"pytest\" errors=\"";
        appendInt(m_out, t.errors);
        m_out += "\" failures=\"";
        appendInt(m_out, t.junitFailures());
        m_out += "\" skipped=\"";
        appendInt(m_out, t.junitSkipped());
        m_out += "\" tests=\"";
        appendInt(m_out, t.tests);
        m_out += "\" time=\"";
        appendSeconds(m_out, t.micros, 3);
        m_out += "\" timestamp=\"" + suiteTimestamp(m_context.startedAt) + "\" hostname=\"";
        appendXmlEscaped(m_out, m_context.hostname, true);
        m_out += "\">\n";
    }

    void testCase(const JobCase& c)
    {
        const TestFamily& f = *c.ref.family;
        m_out += "<testcase classname=\"";
        const std::string file = m_u.reportedFile(f);
        appendModule(m_out, file);
        if (!f.testClass.empty()) {
            m_out.push_back('.');
            m_u.appendClass(m_out, c.ref);
        }
        m_out += "\" name=\"";
        const std::size_t nameAt = m_out.size();
        m_u.appendName(m_out, c.ref);
        escapeTail(nameAt);
        m_out += "\" file=\"";
        m_out += file;
        m_out += "\" line=\"";
        appendInt(m_out, methodLine(c.ref));
        m_out += "\" time=\"";
        appendSeconds(m_out, c.micros, 3);
        m_out += '"';
        const bool props = properties(c, true);
        const bool verdict = c.result != CaseResult::Passed && c.result != CaseResult::XPassed;
        if (!props && !verdict) {
            m_out += "/>\n";
            return;
        }
        m_out += '>';
        properties(c, false);
        if (verdict)
            outcome(c);
        m_out += "</testcase>\n";
    }

private:
    // Parametrize ids may hold XML specials; names are escaped in place.
    void escapeTail(std::size_t from)
    {
        if (m_out.find_first_of("&<>\"", from) == std::string::npos)
            return;
        const std::string raw = m_out.substr(from);
        m_out.resize(from);
        appendXmlEscaped(m_out, raw, true);
    }

    // With dryRun, only says whether the case has properties.
    bool properties(const JobCase& c, bool dryRun)
    {
        const std::uint64_t h = m_u.hash(c.ref.index, 4);
        const char* retried = c.result == CaseResult::Passed && h % 400 < 2
                                  ? (h % 400 == 0 ? "pod" : "stall")
                                  : nullptr;
        if (!m_u.flavor().tags && !retried)
            return false;
        if (dryRun)
            return true;
        m_out += "<properties>";
        if (m_u.flavor().tags)
            tags(c.ref);
        if (retried) {
            m_out += "<property name=\"retried\" value=\"";
            m_out += retried;
            m_out += "\"/>";
        }
        m_out += "</properties>";
        return true;
    }

    void tags(const CaseRef& ref)
    {
        const TestFamily& f = *ref.family;
        const bool opShape = f.shape == NameShape::OpDtype || f.shape == NameShape::Op;
        const bool dtypeShape = f.shape == NameShape::OpDtype || f.shape == NameShape::Dtype;
        if (opShape && f.first)
            appendTag(m_out, "op", underscored((*f.first)[ref.first]));
        if (dtypeShape && f.second)
            appendTag(m_out, "dtype", (*f.second)[ref.second]);
        if (!f.modules.empty())
            appendTag(m_out, "module", f.modules[ref.method]);
        appendTag(m_out, "platform", "x86_64");
        appendTag(m_out, "testtype", m_context.testType);
    }

    void element(std::string_view name, std::string_view type, const std::string& message,
                 const std::string& text)
    {
        m_out += '<';
        m_out += name;
        if (!type.empty()) {
            m_out += " type=\"";
            m_out += type;
            m_out += '"';
        }
        m_out += " message=\"";
        appendXmlEscaped(m_out, message, true);
        if (text.empty()) {
            m_out += "\"/>";
            return;
        }
        m_out += "\">";
        appendXmlEscaped(m_out, text, false);
        m_out += "</";
        m_out += name;
        m_out += '>';
    }

    void outcome(const JobCase& c)
    {
        if (c.result == CaseResult::Skipped) {
            const std::string reason = skipReason(m_u, c.ref);
            const std::string where = runnerPath(m_u.flavor(), c.ref.family->file) + ":"
                                      + std::to_string(methodLine(c.ref)) + ": " + reason;
            element("skipped", "pytest.skip", reason, where);
        } else if (c.result == CaseResult::XFailed) {
            element("skipped", "pytest.xfail", xfailReason(m_u, c.ref), {});
        } else {
            const FailureText text = failureText(m_u, c.ref, c.kind);
            element(c.result == CaseResult::Error ? "error" : "failure", {}, text.message,
                    text.traceback);
        }
    }

    const TestUniverse& m_u;
    const ReportContext& m_context;
    std::string& m_out;
};

} // namespace

SimReport writeJunitReport(const JobRun& run, std::size_t begin, std::size_t end,
                           const ReportContext& context)
{
    end = std::min(end, run.cases.size());
    const JobTotals totals = totalsOf(run.cases, begin, end);
    SimReport report;
    report.name = context.name;
    report.tests = totals.tests;
    report.failures = totals.junitFailures();
    report.errors = totals.errors;
    report.skipped = totals.junitSkipped();
    // Measured: ~390 bytes a case with torch-spyre's tags; a regrowth would
    // copy megabytes.
    report.xml.reserve(4096 + (end - begin) * 440);
    JunitWriter writer(run, context, report.xml);
    writer.header(totals);
    for (std::size_t i = begin; i < end; ++i)
        writer.testCase(run.cases[i]);
    report.xml += "</testsuite></testsuites>\n";
    return report;
}

} // namespace relayhud::sim
