#include "config_verify.h"

#include <algorithm>
#include <iterator>

namespace relayhud::config {

std::string listingFact(std::size_t file, std::string_view name, Mode mode,
                        std::string_view signature)
{
    return "file " + std::to_string(file) + " lists '" + std::string(name) + "' as "
           + modeName(mode) + " with " + std::string(signature);
}

Facts factsOf(const OutcomeConfig& config) { return factsWithout(config, config.files.size(), {}); }

Facts factsWithout(const OutcomeConfig& config, std::size_t skipFile, std::string_view skipMethod)
{
    Facts facts;
    std::string labels = "labels";
    for (const std::string& label : config.labels)
        labels += " " + label;
    facts.insert(labels);
    facts.insert("global " + config.global.signature);
    for (std::size_t f = 0; f < config.files.size(); ++f) {
        const FileSection& file = config.files[f];
        facts.insert("file " + std::to_string(f) + " " + file.signature);
        for (const TestEntry& entry : file.tests)
            for (const NameItem& item : entry.names)
                if (f != skipFile || item.regex || item.method != skipMethod)
                    facts.insert(listingFact(f, item.name, entry.effectiveMode(), entry.signature));
    }
    return facts;
}

std::string describeDifference(const Facts& expected, const Facts& actual)
{
    std::vector<std::string> missing;
    std::set_difference(expected.begin(), expected.end(), actual.begin(), actual.end(),
                        std::back_inserter(missing));
    if (!missing.empty())
        return "the edited text no longer says: " + missing.front();
    std::vector<std::string> extra;
    std::set_difference(actual.begin(), actual.end(), expected.begin(), expected.end(),
                        std::back_inserter(extra));
    if (!extra.empty())
        return "the edited text also says: " + extra.front();
    return {};
}

} // namespace relayhud::config
