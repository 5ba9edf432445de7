// The framework-history table (real-backends.md section 6). Each row names
// the commit or file that shows the change: TSF is AdnanHoque/torch-spyre,
// TS torch-spyre/torch-spyre.
#include "relayhud/config/framework_age.h"

#include <array>
#include <cctype>

namespace relayhud::config {
namespace {

// The fork's newest tree, pr-lx-relayout-scatter @5f29f49b (2026-07-01), has
// none of the rows marked onlyLater: its TestEntry has no no_grad, and
// _parse_input_arg there refuses every arg but tensor, tensor_list, value and py
// (tests/oot_framework/oot_test_config_models.py L731-740, L354-367).
constexpr std::array<FrameworkChange, kFrameworkFeatureCount> kChanges = {{
    {FrameworkFeature::CpuMove, "`edits.functions.cpu_move`", "2026-06-07", false, "#2489",
     "TSF 8028f916"},
    {FrameworkFeature::Labels, "`labels`", "2026-07-01", false, "#2923",
     "TSF 8dc6ee97 (#2923/#2924)"},
    {FrameworkFeature::OpsExcludeRule, "edits.ops.exclude enforced", "2026-07-01", false, "#2981",
     "TSF 539fd3b0, oot_test_base_common.py _should_run()"},
    {FrameworkFeature::NoGrad, "`no_grad`", "2026-07-08", true, "#3101",
     "TS tests/oot_framework/oot_test_config_models.py@1591b63f"},
    {FrameworkFeature::FileLabels, "`labels` on a files entry", "2026-07-01", true, "",
     "TS tests/oot_framework/oot_test_config_models.py@1591b63f (FileEntry.labels)"},
    {FrameworkFeature::ModuleInputDtypes, "module dtypes from tensor specs", "2026-07-01", true, "",
     "TS tests/oot_framework/oot_test_config_models.py@1591b63f (resolved_input_dtypes)"},
    {FrameworkFeature::InputArgKinds, "input args `cache`, `module_path`, `config_path`/`model_id`",
     "2026-07-01", true, "",
     "TS tests/oot_framework/oot_test_config_models.py@1591b63f "
     "(_parse_input_arg)"},
    {FrameworkFeature::RetriedProperty, "JUnit property `result.retried`", "2026-07-01", true, "",
     "TS tests/oot_framework/utils/mark_retried.py@36c65c7a"},
}};

bool digits(std::string_view text)
{
    for (const char c : text)
        if (!std::isdigit(static_cast<unsigned char>(c)))
            return false;
    return !text.empty();
}

} // namespace

const FrameworkChange& frameworkChange(FrameworkFeature feature)
{
    return kChanges[static_cast<std::size_t>(feature)];
}

std::string frameworkVersionText(FrameworkFeature feature)
{
    const FrameworkChange& c = frameworkChange(feature);
    std::string text = std::string("torch-spyre framework ")
                       + (c.onlyLater ? "later than " : "from ") + std::string(c.since);
    if (!c.pr.empty())
        text += ", " + std::string(c.pr);
    return text;
}

std::optional<FrameworkDate> parseFrameworkDate(std::string_view text, std::string* error)
{
    const bool shaped = text.size() == 10 && text[4] == '-' && text[7] == '-'
                        && digits(text.substr(0, 4)) && digits(text.substr(5, 2))
                        && digits(text.substr(8, 2));
    const int month = shaped ? std::stoi(std::string(text.substr(5, 2))) : 0;
    const int day = shaped ? std::stoi(std::string(text.substr(8, 2))) : 0;
    if (!shaped || month < 1 || month > 12 || day < 1 || day > 31) {
        if (error)
            *error = "'" + std::string(text) + "' is not a date YYYY-MM-DD";
        return std::nullopt;
    }
    return FrameworkDate{std::string(text)};
}

bool frameworkHas(const std::optional<FrameworkDate>& asOf, FrameworkFeature feature)
{
    if (!asOf)
        return true;
    const FrameworkChange& c = frameworkChange(feature);
    // ISO dates compare as text.
    return c.onlyLater ? asOf->iso > c.since : asOf->iso >= c.since;
}

} // namespace relayhud::config
