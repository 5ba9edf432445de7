// torch-spyre outcome configs (config/outcome_config.h, resolver.h,
// config_edit.h): any YAML gives a model with findings or an Error; every
// listed method resolves; and an edit the planner accepts is a config that
// reads back with the method in the mode asked for (the round trip the
// editor promises, checked the way tests/core/config_corpus_test.cpp does).
// The text after a flow sequence 100,000 deep (once quadratic in libyaml's
// scanner: 40,000 deep took 4.3 s; issue 35) is refused at once.
#include "fuzz_check.h"
#include "relayhud/config/config_edit.h"
#include "relayhud/config/config_explain.h"
#include "relayhud/config/outcome_config.h"
#include "relayhud/config/resolver.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace {

using namespace relayhud::config;

constexpr std::size_t kMaxEdits = 6; // per input, so one input stays fast

// Any of the three edits, to any mode: which one is the input's choice.
EditRequest requestFor(const std::string& name, std::uint8_t choice)
{
    EditRequest request;
    request.test = name;
    request.reason = "fuzz";
    request.evidence = "passed 3/3 runs";
    request.kind = static_cast<EditKind>(choice % 3);
    request.target = static_cast<Mode>((choice / 3) % 4);
    request.demoteTo = (choice & 0x80) != 0 ? Mode::XfailStrict : Mode::Xfail;
    return request;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    FUZZ_CHECK(!parseOutcomeConfig("model_ops: " + std::string(100'000, '[') + std::string(text)),
               "a config nested 100,000 deep is refused");
    const auto parsed = parseOutcomeConfig(text);
    if (!parsed)
        return 0;
    for (const Finding& finding : parsed->findings)
        (void)formatFinding(finding);
    const OutcomeConfig& config = parsed->config;
    const Resolver resolver(config);
    std::size_t edits = 0;
    for (const FileSection& section : config.files) {
        for (const TestEntry& entry : section.tests) {
            for (const NameItem& item : entry.names) {
                const VariantQuery query{
                    section.path, "", item.method + "_spyre_float16", {}, true};
                const auto resolved = resolver.resolve(query, {}, /*explain=*/true);
                (void)variantOf(parseTestQuery(item.name));
                if (config.files.size() != 1 || item.regex || parsed->hasErrors()
                    || edits >= kMaxEdits || !resolved)
                    continue;
                ++edits;
                const auto choice = static_cast<std::uint8_t>(data[edits * 7919 % size]);
                const auto edit = planModeEdit(text, requestFor(item.name, choice));
                if (!edit)
                    continue;
                const auto reread = parseOutcomeConfig(edit->text);
                FUZZ_CHECK(reread.ok(), "an edited config reads back");
                const Resolver now(reread->config);
                const auto moved = now.resolve({"", "", edit->baseName + "_spyre", {}, true});
                FUZZ_CHECK(moved.ok(), "the edited method resolves");
                FUZZ_CHECK(moved->outcome == Outcome::CannotJudge || moved->configMode == edit->to,
                           "the edited method has the mode asked for");
            }
        }
    }
    return 0;
}
