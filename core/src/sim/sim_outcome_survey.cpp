#include "sim_outcome_survey.h"

#include "relayhud/junit/test_identity.h"

#include <algorithm>
#include <map>

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
        std::string name = caseBaseName(u, c);
        const std::string file(c.family->file);
        auto [it, inserted] = m_byKey.try_emplace({file, name});
        Entry& e = it->second;
        if (inserted) {
            e.name.file = file;
            e.name.name = std::move(name);
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
        for (const Mark& m : marksOf(u, c).items)
            (m.kind == MarkKind::Op ? m_out.ops : m_out.dtypes).insert(m.value);
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

bool hasGlobChars(std::string_view name)
{
    return name.find_first_of("*?[]") != std::string_view::npos;
}

std::string exactPattern(std::string_view name)
{
    std::string out;
    for (char c : name) {
        if (c == '[' || c == ']' || c == '*' || c == '?') {
            out += '[';
            out += c;
            out += ']';
        } else {
            out += c;
        }
    }
    return out;
}

std::vector<MandatoryGroup> mandatoryGroups(const BackendSurvey& survey, std::size_t maxExceptions)
{
    struct Group {
        std::vector<bool> jobs;
        std::vector<const SurveyedName*> exceptions;
        bool tooMany = false;
    };
    std::map<std::pair<std::string, std::string>, Group> groups;
    for (const SurveyedName& n : survey.names) {
        const std::size_t sep = n.name.rfind("::");
        const std::string prefix = sep == std::string::npos ? "" : n.name.substr(0, sep + 2);
        Group& g = groups[{n.file, prefix}];
        g.jobs.resize(survey.testJobs, false);
        if (n.xfails) {
            g.exceptions.push_back(&n);
            g.tooMany = g.tooMany || g.exceptions.size() > maxExceptions;
        } else if (n.passes) {
            for (std::size_t j = 0; j < n.jobs.size(); ++j)
                g.jobs[j] = g.jobs[j] || n.jobs[j];
        }
    }
    std::vector<MandatoryGroup> out;
    for (auto& [key, g] : groups) {
        const bool everyJob = std::all_of(g.jobs.begin(), g.jobs.end(), [](bool b) { return b; });
        // A prefix with glob characters could not be matched literally.
        if (g.tooMany || !everyJob || survey.testJobs == 0 || hasGlobChars(key.second))
            continue;
        out.push_back({key.first, key.second + "*", std::move(g.exceptions)});
    }
    return out;
}

BackendSurvey surveyBackend(const BackendSpec& backend, TestCatalog& tests, std::size_t commits)
{
    return Surveyor(backend, tests, commits).run();
}

} // namespace relayhud::sim
