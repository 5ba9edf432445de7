// The pytest part of a test job's log: session header, one progress line per
// case, the ERRORS and FAILURES sections, the short summary and the totals.
#include "sim_failures.h"
#include "sim_logs.h"
#include "sim_text.h"

#include <algorithm>
#include <cstdio>

namespace relayhud::sim {
namespace {

constexpr std::string_view kGreen = "\x1b[32m";
constexpr std::string_view kRed = "\x1b[31m";
constexpr std::string_view kYellow = "\x1b[33m";

// pytest's section rule: the title centred in 80 columns of `fill`.
std::string rule(char fill, std::string_view title)
{
    const std::size_t width = 80;
    // pytest's sep(): max((fullwidth - len(title) - 2) // 2, 1) fill characters a side.
    const std::size_t side =
        title.size() + 2 < width ? std::max<std::size_t>((width - title.size() - 2) / 2, 1) : 1;
    std::string out(side, fill);
    out += ' ';
    out += title;
    out += ' ';
    out.append(side, fill);
    if (out.size() < width)
        out.push_back(fill);
    return out;
}

struct Verdict {
    std::string_view word;
    std::string_view colour;
};

Verdict verdictOf(CaseResult result)
{
    switch (result) {
    case CaseResult::Passed: return {"PASSED", kGreen};
    case CaseResult::XPassed: return {"XPASS", kYellow};
    case CaseResult::Skipped: return {"SKIPPED", kYellow};
    case CaseResult::XFailed: return {"XFAIL", kYellow};
    case CaseResult::Error: return {"ERROR", kRed};
    case CaseResult::Failed:
    case CaseResult::XPassStrict: break;
    }
    return {"FAILED", kRed};
}

std::string nodeIdOf(const TestUniverse& u, const JobCase& c) { return u.nodeId(c.ref); }

std::string dotted(const TestUniverse& u, const JobCase& c)
{
    std::string out;
    u.appendClass(out, c.ref);
    if (!out.empty())
        out += '.';
    u.appendName(out, c.ref);
    return out;
}

void header(LogWriter& log, const LogContext& ctx)
{
    const std::string root = runnerPath({ctx.backend->backend.repo, "", "", false}, "");
    log.line(rule('=', "test session starts"));
    log.line("platform linux -- Python 3.11.13, pytest-8.3.5, pluggy-1.6.0 -- "
             "/opt/conda/envs/py_3.11/bin/python");
    log.line("cachedir: .pytest_cache");
    log.line("rootdir: " + root.substr(0, root.size() - 1));
    log.line("configfile: pytest.ini");
    log.line("plugins: xdist-3.6.1, rerunfailures-15.0, hypothesis-6.131.9, flakefinder-1.1.0");
    log.line("collecting ... collected " + std::to_string(ctx.run->cases.size()) + " items");
    log.line("");
}

void progress(LogWriter& log, const TestUniverse& u, const JobCase& c, std::size_t done,
              std::size_t total)
{
    std::string text = nodeIdOf(u, c);
    const Verdict v = verdictOf(c.result);
    text += ' ';
    text += v.colour;
    text += v.word;
    text += kAnsiReset;
    text += " [";
    appendSeconds(text, c.micros, 4);
    text += "s]";
    if (c.result == CaseResult::Skipped)
        text += " (" + skipReason(u, c.ref) + ")";
    else if (c.result == CaseResult::XFailed)
        text += " (" + xfailReason(u, c.ref) + ")";
    const std::size_t percent = total ? done * 100 / total : 100;
    char buf[16];
    std::snprintf(buf, sizeof buf, " [%3zu%%]", percent);
    text += buf;
    log.line(text);
}

// pytest: "==== 2 failed, 30 passed, 4 skipped, 3 xfailed, 1 xpassed, 1 error in 12.34s ====".
std::string totalsLine(const JobTotals& t)
{
    std::string parts;
    const auto add = [&parts](std::int64_t n, const std::string& what) {
        if (n == 0)
            return;
        parts += parts.empty() ? "" : ", ";
        parts += std::to_string(n) + " " + what;
    };
    add(t.failed + t.xpassStrict, "failed");
    add(t.passed, "passed");
    add(t.skipped, "skipped");
    add(t.xfailed, "xfailed");
    add(t.xpassed, "xpassed");
    add(t.errors, t.errors == 1 ? "error" : "errors");
    std::string seconds;
    appendSeconds(seconds, t.micros, 2);
    const std::uint64_t whole = t.micros / 1'000'000;
    char clock[32];
    std::snprintf(clock, sizeof clock, " (%llu:%02llu:%02llu)",
                  static_cast<unsigned long long>(whole / 3600),
                  static_cast<unsigned long long>(whole / 60 % 60),
                  static_cast<unsigned long long>(whole % 60));
    return rule('=', parts + " in " + seconds + "s" + (whole >= 60 ? clock : ""));
}

void failureSections(LogWriter& log, const LogContext& ctx)
{
    const TestUniverse& u = *ctx.run->universe;
    bool errorsTitle = false;
    for (const JobCase& c : ctx.run->cases) {
        if (c.result != CaseResult::Error)
            continue;
        if (!errorsTitle)
            log.line(rule('=', "ERRORS"));
        errorsTitle = true;
        log.line(rule('_', "ERROR at setup of " + dotted(u, c)));
        log.lines(failureText(u, c.ref, c.kind).traceback);
    }
    bool failuresTitle = false;
    for (const JobCase& c : ctx.run->cases) {
        if (c.result != CaseResult::Failed && c.result != CaseResult::XPassStrict)
            continue;
        if (!failuresTitle)
            log.line(rule('=', "FAILURES"));
        failuresTitle = true;
        log.line(rule('_', dotted(u, c)));
        log.lines(failureText(u, c.ref, c.kind).traceback);
    }
}

void shortSummary(LogWriter& log, const LogContext& ctx)
{
    const TestUniverse& u = *ctx.run->universe;
    log.line(rule('=', "short test summary info"));
    for (const JobCase& c : ctx.run->cases) {
        if (!isFailing(c.result))
            continue;
        const char* word = c.result == CaseResult::Error ? "ERROR " : "FAILED ";
        log.line(word + nodeIdOf(u, c) + " - " + failureText(u, c.ref, c.kind).summary);
    }
}

} // namespace

int writePytestSession(LogWriter& log, const LogContext& ctx, std::uint64_t end)
{
    const JobRun& run = *ctx.run;
    const TestUniverse& u = *run.universe;
    header(log, ctx);
    const std::uint64_t start = log.now();
    const std::uint64_t window = end > start ? (end - start) * 9 / 10 : 0;
    const std::uint64_t total = std::max<std::uint64_t>(1, run.totals.micros);
    std::uint64_t elapsed = 0;
    log.out().reserve(log.out().size() + run.cases.size() * 160);
    for (std::size_t i = 0; i < run.cases.size(); ++i) {
        elapsed += run.cases[i].micros;
        const double share = static_cast<double>(elapsed) / static_cast<double>(total);
        log.at(start + static_cast<std::uint64_t>(static_cast<double>(window) * share));
        progress(log, u, run.cases[i], i + 1, run.cases.size());
    }
    const bool failed = run.totals.failed + run.totals.errors + run.totals.xpassStrict > 0;
    log.line("");
    failureSections(log, ctx);
    log.line("- generated xml file: " + runnerPath(u.flavor(), "test-reports/") + ctx.job->config
             + ".xml -");
    if (failed)
        shortSummary(log, ctx);
    const bool quiet = run.totals.xfailed + run.totals.skipped == 0;
    const std::string_view colour = failed ? kRed : quiet ? kGreen : kYellow;
    log.line(std::string(colour) + totalsLine(run.totals) + std::string(kAnsiReset));
    return failed ? 1 : 0;
}

} // namespace relayhud::sim
