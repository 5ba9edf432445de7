#include "sim_outcome_survey.h"

#include "relayhud/junit/test_identity.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>

namespace relayhud::sim {
namespace {

// The marks torch-spyre's post-processing writes and the reader strips from
// method names (sim_junit.cpp writes the same op__/dtype__ tags).
TestMarks marksOf(const TestUniverse& u, const CaseRef& c)
{
    TestMarks marks;
    if (!u.flavor().tags)
        return marks;
    const TestFamily& f = *c.family;
    if ((f.shape == NameShape::OpDtype || f.shape == NameShape::Op) && f.first)
        marks.items.push_back({MarkKind::Op, underscored((*f.first)[c.first])});
    if ((f.shape == NameShape::OpDtype || f.shape == NameShape::Dtype) && f.second)
        marks.items.push_back({MarkKind::Dtype, std::string((*f.second)[c.second])});
    return marks;
}

class Surveyor {
public:
    Surveyor(const BackendSpec& backend, TestCatalog& tests, std::size_t commits)
        : m_backend(backend), m_tests(tests), m_lastCommit(commits == 0 ? 0 : commits - 1)
    {
    }

    BackendSurvey run()
    {
        for (const WorkflowSpec& wf : m_backend.workflows)
            for (const JobSpec& spec : wf.jobs)
                m_jobCount += spec.kind == JobKind::Test && spec.testsTotal > 0 ? 1 : 0;
        std::size_t job = 0;
        for (const WorkflowSpec& wf : m_backend.workflows)
            for (const JobSpec& spec : wf.jobs)
                if (spec.kind == JobKind::Test && spec.testsTotal > 0)
                    addJob(spec, job++);
        m_out.testJobs = job;
        for (auto& [key, entry] : m_byKey)
            m_out.names.push_back(std::move(entry.name));
        for (const auto& [universe, end] : m_ends)
            m_out.universeEnds.emplace_back(universe, end);
        return std::move(m_out);
    }

private:
    struct Entry {
        SurveyedName name;
    };

    void addJob(const JobSpec& spec, std::size_t job)
    {
        const TestUniverse& u = m_tests.universe(m_backend, spec.config);
        const auto first = static_cast<std::uint64_t>(jobTotalOn(spec, u, 0));
        const auto last = static_cast<std::uint64_t>(jobTotalOn(spec, u, m_lastCommit));
        std::uint64_t& end = m_ends[&u];
        for (std::uint64_t p = 0; p < last; ++p) {
            const std::uint64_t index = u.indexAt(spec.shard, spec.numShards, p);
            end = std::max(end, index + 1);
            addCase(u, u.caseAt(index), job, p < first);
        }
    }

    void addCase(const TestUniverse& u, const CaseRef& c, std::size_t job, bool everyCommit)
    {
        std::string method = caseMethod(u, c);
        const std::string file(c.family->file);
        auto [it, inserted] = m_byKey.try_emplace({file, method});
        Entry& e = it->second;
        if (inserted) {
            e.name.file = file;
            e.name.name = caseBaseName(u, c);
            e.name.method = std::move(method);
            e.name.jobs.assign(m_jobCount, false);
            e.name.universe = &u;
            e.name.example = c;
            if (std::find(m_out.files.begin(), m_out.files.end(), file) == m_out.files.end())
                m_out.files.push_back(file);
        }
        const StableOutcome o = u.outcome(c.index);
        e.name.passes = e.name.passes || o == StableOutcome::Pass || o == StableOutcome::XPass;
        e.name.xfails = e.name.xfails || o == StableOutcome::XFail;
        e.name.skips = e.name.skips || o == StableOutcome::Skip;
        if (everyCommit && o != StableOutcome::Skip)
            e.name.jobs[job] = true;
        for (const Mark& m : marksOf(u, c).items) {
            (m.kind == MarkKind::Op ? m_out.ops : m_out.dtypes).insert(m.value);
            if (m.kind == MarkKind::Dtype)
                e.name.dtypes.insert(m.value);
        }
    }

    const BackendSpec& m_backend;
    TestCatalog& m_tests;
    std::size_t m_lastCommit;
    std::size_t m_jobCount = 0;
    std::map<std::pair<std::string, std::string>, Entry> m_byKey;
    std::map<const TestUniverse*, std::uint64_t> m_ends;
    BackendSurvey m_out;
};

} // namespace

std::int64_t jobTotalOn(const JobSpec& job, const TestUniverse& universe, std::size_t commit)
{
    // Upstream adds tests over time; the count creeps up commit by commit.
    const std::int64_t total =
        job.testsTotal + static_cast<std::int64_t>(commit) * job.testsTotal / 20000;
    return std::min(total, static_cast<std::int64_t>(universe.size()));
}

std::string caseBaseName(const TestUniverse& u, const CaseRef& c)
{
    std::string className;
    if (!c.family->testClass.empty())
        u.appendClass(className, c);
    std::string method;
    u.appendName(method, c);
    return baseTestName(className, method, marksOf(u, c));
}

std::string caseMethod(const TestUniverse& u, const CaseRef& c)
{
    const std::string base = caseBaseName(u, c);
    const std::size_t sep = base.rfind("::");
    return sep == std::string::npos ? base : base.substr(sep + 2);
}

bool hasRegexChars(std::string_view method)
{
    return method.find_first_of("\\.^$*+?{}[]|()") != std::string_view::npos;
}

std::string escapedRegex(std::string_view method)
{
    std::string out;
    for (const char c : method) {
        if (std::string_view("\\.^$*+?{}[]|()-").find(c) != std::string_view::npos)
            out += '\\';
        out += c;
    }
    return out;
}

namespace {

// "test_view_as_real" -> "view": what real configs alternate over.
std::string firstWord(std::string_view method)
{
    if (method.rfind("test_", 0) == 0)
        method.remove_prefix(5);
    std::size_t end = 0;
    while (end < method.size() && (std::isalnum(static_cast<unsigned char>(method[end])) != 0))
        ++end;
    return std::string(method.substr(0, end));
}

struct FileNames {
    std::vector<const SurveyedName*> passing; // pass wherever they run, never xfail
    std::vector<const SurveyedName*> exceptions;
    std::vector<const SurveyedName*> all;
};

// `test_(a|b|c).*`: every passing method starts with one of the words.
std::string alternation(const std::vector<const SurveyedName*>& passing)
{
    std::set<std::string> words;
    for (const SurveyedName* n : passing)
        words.insert(firstWord(n->method));
    std::string out = "test_(";
    bool first = true;
    for (const std::string& w : words) {
        out += (first ? "" : "|") + w;
        first = false;
    }
    return out + ").*";
}

std::string mostCommonClass(const std::vector<const SurveyedName*>& names)
{
    std::map<std::string, std::size_t> counts;
    for (const SurveyedName* n : names) {
        const std::size_t sep = n->name.rfind("::");
        if (sep != std::string::npos)
            ++counts[n->name.substr(0, sep)];
    }
    std::string best;
    std::size_t most = 0;
    for (const auto& [cls, count] : counts)
        if (count > most) {
            best = cls;
            most = count;
        }
    return best;
}

} // namespace

std::vector<MandatoryGroup> mandatoryGroups(const BackendSurvey& survey, std::size_t maxExceptions)
{
    std::map<std::string, FileNames> byFile;
    for (const SurveyedName& n : survey.names) {
        FileNames& f = byFile[n.file];
        f.all.push_back(&n);
        if (n.xfails)
            f.exceptions.push_back(&n);
        else if (n.passes && n.method.rfind("test_", 0) == 0 && !firstWord(n.method).empty())
            f.passing.push_back(&n);
    }
    std::vector<MandatoryGroup> out;
    std::size_t written = 0;
    for (const std::string& file : survey.files) {
        const FileNames& f = byFile[file];
        if (f.passing.empty() || f.exceptions.size() > maxExceptions || survey.testJobs == 0)
            continue;
        std::vector<bool> jobs(survey.testJobs, false);
        for (const SurveyedName* n : f.passing)
            for (std::size_t j = 0; j < n->jobs.size(); ++j)
                jobs[j] = jobs[j] || n->jobs[j];
        if (!std::all_of(jobs.begin(), jobs.end(), [](bool b) { return b; }))
            continue;
        // The class part is never checked; real configs write one anyway,
        // sometimes as a regex of its own.
        const std::string cls = mostCommonClass(f.passing);
        const std::string classPart =
            cls.empty() ? std::string() : cls + (written++ % 2 == 0 ? ".*::" : "::");
        out.push_back({file, classPart + alternation(f.passing), f.exceptions});
    }
    return out;
}

BackendSurvey surveyBackend(const BackendSpec& backend, TestCatalog& tests, std::size_t commits)
{
    return Surveyor(backend, tests, commits).run();
}

} // namespace relayhud::sim
