#include "relayhud/config/config_lint.h"

#include "relayhud/config/spyre_names.h"

#include <algorithm>
#include <map>
#include <set>

namespace relayhud::config {
namespace {

// A listing of a variant: the framework looks up base methods only
// (oot_test_base_common.py:472-499), so it never matches (spec 4.4).
void variantListings(const FileSection& file, const ResolveContext& context,
                     std::vector<Finding>& out)
{
    const std::string device = "_" + context.device;
    for (const TestEntry& entry : file.tests)
        for (const NameItem& item : entry.names) {
            if (item.regex) {
                if (item.method.find(device) != std::string::npos)
                    out.push_back({Severity::Warning, item.pos,
                                   "regex '" + item.method + "' contains '" + device
                                       + "', which only variant names have; the framework "
                                         "matches base methods, so it matches nothing it "
                                         "seems to: drop the device and dtype part"});
                continue;
            }
            const VariantName variant = parseVariantName(item.method, {}, context.device);
            if (variant.deviceFound)
                out.push_back({Severity::Warning, item.pos,
                               "'" + item.method
                                   + "' names a variant; the framework matches "
                                     "base methods only, so this listing never matches: list '"
                                   + variant.base + "' instead"});
        }
}

// An exact listing whose entry decides no variant of its method: an earlier
// candidate wins every dtype pass (spec 5.2).
void shadowedListings(const Resolver& resolver, std::size_t f, const ResolveContext& context,
                      std::vector<Finding>& out)
{
    const OutcomeConfig& config = resolver.config();
    const FileSection& file = config.files[f];
    std::set<std::string> dtypes{"complex128"};
    for (const NamedOption& o : config.global.supportedDtypes)
        dtypes.insert(std::string(canonicalDtype(o.name)));
    for (const TestEntry& entry : file.tests)
        for (const std::string& d : entry.dtypes.include)
            dtypes.insert(std::string(canonicalDtype(d)));
    std::map<std::string, std::set<std::size_t>> deciders; // method -> entries that decide
    for (const TestEntry& entry : file.tests)
        for (const NameItem& item : entry.names) {
            if (item.regex || deciders.count(item.method))
                continue;
            std::set<std::size_t>& set = deciders[item.method];
            const std::string stem = item.method + "_" + context.device;
            std::vector<std::string> names{stem};
            for (const std::string& d : dtypes)
                names.push_back(stem + "_" + d);
            for (const std::string& name : names) {
                Result<Resolution> r = resolver.resolve({{}, {}, name, {}, false}, context);
                if (r && r->fileIndex == f && r->entryIndex)
                    set.insert(*r->entryIndex);
            }
        }
    for (std::size_t e = 0; e < file.tests.size(); ++e)
        for (const NameItem& item : file.tests[e].names) {
            if (item.regex)
                continue;
            const std::set<std::size_t>& set = deciders[item.method];
            if (set.count(e) || set.empty())
                continue;
            const TestEntry& winner = file.tests[*set.begin()];
            out.push_back({Severity::Warning, item.pos,
                           "'" + item.name + "' never decides: the entry at " + lineText(winner.pos)
                               + " decides every variant of " + item.method
                               + " (the framework ignores the class part; the first exact "
                                 "listing wins); remove this listing or move the mode there"});
        }
}

struct KnownInSection {
    std::set<std::string> bases; // base methods
};

void againstKnownTests(const Resolver& resolver, std::size_t f, const KnownInSection& known,
                       std::vector<Finding>& out)
{
    const FileSection& file = resolver.config().files[f];
    for (std::size_t e = 0; e < file.tests.size(); ++e) {
        const TestEntry& entry = file.tests[e];
        for (std::size_t n = 0; n < entry.names.size(); ++n) {
            const NameItem& item = entry.names[n];
            if (item.regex) {
                if (entry.effectiveMode() == Mode::Skip || item.regexStatus != RegexStatus::Ok)
                    continue;
                const bool any = std::any_of(
                    known.bases.begin(), known.bases.end(),
                    [&](const std::string& base) { return resolver.nameMatches(f, e, n, base); });
                if (!any)
                    out.push_back({Severity::Warning, item.pos,
                                   "regex '" + item.method + "' fullmatches none of the "
                                       + std::to_string(known.bases.size())
                                       + " base methods the cache knows in " + file.path
                                       + " (it must match a whole method name): check it"});
            }
        }
    }
}

// What the config means to a framework without the field: most keys are
// ignored (pydantic's default), an input arg of a newer kind fails the file
// (_parse_input_arg of AdnanHoque/torch-spyre 5f29f49b accepts only tensor,
// tensor_list, value and py), and ops.exclude is read but not enforced.
const char* olderFrameworkDoes(FrameworkFeature feature)
{
    switch (feature) {
    case FrameworkFeature::InputArgKinds: return "refuses the whole file";
    case FrameworkFeature::OpsExcludeRule: return "runs the excluded ops";
    case FrameworkFeature::ModuleInputDtypes:
        return "generates float32 and float16 variants of registered modules whatever their "
               "tensor specs say";
    default: return "ignores the key";
    }
}

// Lint names the framework a config needs, one finding per field at its
// first use (real-backends.md section 6).
void frameworkNeeds(const OutcomeConfig& config, const ResolveContext& context,
                    std::vector<Finding>& out)
{
    for (const FeatureUse& use : config.featureUses) {
        const FrameworkChange& change = frameworkChange(use.feature);
        std::string what = use.feature == FrameworkFeature::InputArgKinds
                               ? "input arg `" + use.detail + "`"
                               : std::string(change.what);
        std::string message =
            (use.feature == FrameworkFeature::OpsExcludeRule ? "relies on " + what : "uses " + what)
            + " (" + frameworkVersionText(use.feature) + ")";
        if (context.frameworkAsOf && !frameworkHas(context.frameworkAsOf, use.feature))
            message += ": the framework as of " + context.frameworkAsOf->iso + " lacks it and "
                       + olderFrameworkDoes(use.feature);
        else
            message += std::string("; an older framework ") + olderFrameworkDoes(use.feature);
        out.push_back({Severity::Warning, use.pos, std::move(message)});
    }
}

} // namespace

std::vector<Finding> lintConfig(const OutcomeConfig& config, const std::vector<KnownTest>& known,
                                const ResolveContext& context)
{
    const Resolver resolver(config);
    std::vector<KnownInSection> bySection(config.files.size());
    for (const KnownTest& test : known) {
        Result<std::size_t> f = resolver.sectionFor(test.file);
        if (!f)
            continue;
        const std::size_t sep = test.baseName.rfind("::");
        const std::string method =
            sep == std::string::npos ? test.baseName : test.baseName.substr(sep + 2);
        bySection[*f].bases.insert(parseVariantName(method, {}, context.device).base);
    }
    std::vector<Finding> out;
    frameworkNeeds(config, context, out);
    for (std::size_t f = 0; f < config.files.size(); ++f) {
        variantListings(config.files[f], context, out);
        shadowedListings(resolver, f, context, out);
        if (!bySection[f].bases.empty())
            againstKnownTests(resolver, f, bySection[f], out);
    }
    std::stable_sort(out.begin(), out.end(), [](const Finding& a, const Finding& b) {
        return a.pos.line != b.pos.line ? a.pos.line < b.pos.line : a.pos.column < b.pos.column;
    });
    return out;
}

} // namespace relayhud::config
