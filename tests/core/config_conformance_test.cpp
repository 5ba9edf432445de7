// Conformance with torch-spyre's framework over the real configs in
// ../shared/corpus/configs/: every row of tests/data/config_conformance/cases.tsv
// (each outcome worked out by hand from the spec and the framework's source,
// torch-spyre/torch-spyre tests/oot_framework/ @539fd3b0, and cross-checked
// with the framework's own functions by tests/conformance/spyre_oracle.py;
// see that folder's README) must resolve to its mode and deciding line.
#include "config_test_util.h"

#include "relayhud/config/config_explain.h"
#include "relayhud/config/spyre_names.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

namespace relayhud::config {
namespace {

using namespace relayhud::config::test;

struct Case {
    std::string config, test, op, testType, mode, line, why;
    std::size_t row = 0;
};

std::vector<Case> loadCases()
{
    std::istringstream in(
        readText(std::filesystem::path(RELAYHUD_TEST_DATA_DIR) / "config_conformance/cases.tsv"));
    std::vector<Case> cases;
    std::string line;
    for (std::size_t row = 1; std::getline(in, line); ++row) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream fields(line);
        Case c;
        for (std::string* field :
             {&c.config, &c.test, &c.op, &c.testType, &c.mode, &c.line, &c.why})
            std::getline(fields, *field, '\t');
        c.row = row;
        cases.push_back(std::move(c));
    }
    return cases;
}

const OutcomeConfig& corpusConfig(const std::string& name)
{
    static std::map<std::string, ParsedConfig> parsed;
    auto it = parsed.find(name);
    if (it == parsed.end()) {
        Result<ParsedConfig> p = parseOutcomeConfig(readText(corpusConfigs() / name));
        EXPECT_TRUE(p) << name << ": " << p.message();
        it = parsed.emplace(name, p ? std::move(*p) : ParsedConfig{}).first;
    }
    return it->second.config;
}

std::string resolveCase(const Case& c, const std::string& op)
{
    const OutcomeConfig& config = corpusConfig(c.config);
    TestQuery query = parseTestQuery(c.test);
    if (!op.empty())
        query.ops = {op};
    ResolveContext context;
    if (c.testType != "-")
        context.testType = c.testType;
    Result<Resolution> r = explainTest(config, query, context);
    if (!r)
        return "error: " + r.message();
    const std::size_t line = decidingLine(config, *r);
    return std::string(outcomeName(r->outcome)) + " "
           + (line == 0 ? std::string("unlisted") : std::to_string(line));
}

TEST(ConfigConformance, EveryHandDerivedCaseResolvesAsTheFrameworkDoes)
{
    const std::vector<Case> cases = loadCases();
    ASSERT_GE(cases.size(), 300u);
    std::size_t agree = 0;
    for (const Case& c : cases) {
        const std::string op = c.op == "-" ? std::string() : c.op;
        const std::string expected = c.mode + " " + c.line;
        const std::string got = resolveCase(c, op);
        EXPECT_EQ(got, expected) << "cases.tsv:" << c.row << " " << c.test << " (" << c.why << ")";
        // A report carries torch-spyre's sanitised op mark, not the raw name.
        if (!op.empty() && sanitizedOp(op) != op) {
            EXPECT_EQ(resolveCase(c, sanitizedOp(op)), expected)
                << "cases.tsv:" << c.row << " with the op as a mark (" << sanitizedOp(op) << ")";
        }
        agree += got == expected;
    }
    std::cout << agree << " of " << cases.size() << " conformance cases agree\n";
}

TEST(ConfigConformance, EveryCorpusConfigParsesWithoutErrors)
{
    for (const auto& path : corpusConfigFiles()) {
        Result<ParsedConfig> parsed = parseOutcomeConfig(readText(path));
        ASSERT_TRUE(parsed) << path << ": " << parsed.message();
        for (const Finding& f : parsed->findings)
            EXPECT_NE(f.severity, Severity::Error) << path.filename() << ":" << formatFinding(f);
    }
}

} // namespace
} // namespace relayhud::config
