#pragma once
// Which outcome an outcome config gives a test a user (or a report) names,
// and why: the resolver (resolver.h) asked with its sentences.
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/resolver.h"

#include <string>
#include <string_view>
#include <vector>

namespace relayhud::config {

// A test as a report names it: "test/test_x.py::TestXPRIVATEUSE1::test_y_spyre_int8",
// "TestXPRIVATEUSE1::test_y_spyre_int8", or a base "TestX::test_y" (with
// `ops`/`dtype` to name one of its variants).
struct TestQuery {
    std::string file; // "" when the config has one file section
    std::string className;
    std::string method;
    std::vector<std::string> ops; // op marks, or the op a user named (raw or sanitised)
    std::string dtype;            // a dtype a user named; the variant's name wins when it has one
};

// Splits a node id: the part ending in ".py" is the file, the last part the
// method, anything between the class (nested classes joined by "::").
TestQuery parseTestQuery(std::string_view text);

// The variant a query names. A method without "_<device>" is a base method:
// with an op or a dtype it becomes the variant `<base>[_<op>]_<device>[_<dtype>]`
// instantiate_device_type_tests would make, else it stays the bare method.
VariantQuery variantOf(const TestQuery& query, const ResolveContext& context = {});

// The generic class a report's instantiated class comes from
// ("TestFooPRIVATEUSE1" -> "TestFoo"); unchanged when it has no device suffix.
std::string genericClassName(std::string_view className, const ResolveContext& context = {});

// Resolves with the sentences of every step.
Result<Resolution> explainTest(const OutcomeConfig& config, const TestQuery& query,
                               const ResolveContext& context = {});

// "the name 'TestA::test_x' at line 12 (entry at line 11)", "unlisted_test_mode
// of the files entry at line 4", ...: what decided, for one line of output.
std::string decidedBy(const OutcomeConfig& config, const Resolution& resolution);

// The line a user looks at: the deciding entry's first line, 0 when unlisted.
std::size_t decidingLine(const OutcomeConfig& config, const Resolution& resolution);

} // namespace relayhud::config
