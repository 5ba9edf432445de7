// explain: the resolver asked for its sentences, and the words around them.
#include "relayhud/config/config_explain.h"

#include "relayhud/config/spyre_names.h"
#include "relayhud/junit/test_identity.h"
#include "relayhud/util/split.h"

#include <algorithm>

namespace relayhud::config {

TestQuery parseTestQuery(std::string_view text)
{
    const std::vector<std::string_view> parts = splitOn(text, "::");
    TestQuery query;
    std::size_t first = 0;
    if (parts.size() > 1 && parts.front().size() > 3
        && parts.front().substr(parts.front().size() - 3) == ".py")
        query.file = std::string(parts[first++]);
    query.method = std::string(parts.back());
    for (std::size_t i = first; i + 1 < parts.size(); ++i)
        query.className += (query.className.empty() ? "" : "::") + std::string(parts[i]);
    return query;
}

std::string genericClassName(std::string_view className, const ResolveContext& context)
{
    BaseNameOptions options;
    options.privateUse1Device = context.device;
    std::string_view generic = className;
    classDevice(className, options, &generic);
    return std::string(generic);
}

VariantQuery variantOf(const TestQuery& query, const ResolveContext& context)
{
    VariantQuery variant{query.file, query.className, query.method, query.ops, false};
    if (parseVariantName(query.method, {}, context.device).deviceFound)
        return variant;
    if (query.ops.empty() && query.dtype.empty())
        return variant;
    std::string name = query.method;
    if (!query.ops.empty()) {
        std::string formatted = query.ops.front();
        std::replace(formatted.begin(), formatted.end(), '.', '_');
        name += "_" + formatted;
    }
    name += "_" + context.device;
    if (!query.dtype.empty())
        name += "_" + std::string(canonicalDtype(query.dtype));
    variant.method = std::move(name);
    return variant;
}

Result<Resolution> explainTest(const OutcomeConfig& config, const TestQuery& query,
                               const ResolveContext& context)
{
    const Resolver resolver(config);
    return resolver.resolve(variantOf(query, context), context, true);
}

std::string decidedBy(const OutcomeConfig& config, const Resolution& resolution)
{
    const FileSection& file = config.files[resolution.fileIndex];
    if (resolution.decision == Decision::Unlisted)
        return file.unlistedMode
                   ? "unlisted_test_mode of the files entry at line "
                         + std::to_string(file.pos.line)
                   : std::string("the framework's default for unlisted tests (xfail)");
    const TestEntry& entry = file.tests[*resolution.entryIndex];
    const std::string where = "the entry at line " + std::to_string(entry.pos.line);
    if (resolution.decision == Decision::OpIndex || !resolution.nameIndex)
        return where + " (its edits.ops.include names this model op)";
    const NameItem& item = entry.names[*resolution.nameIndex];
    return std::string(resolution.decision == Decision::Regex ? "regex '" : "name '") + item.name
           + "' at line " + std::to_string(item.pos.line) + " in " + where;
}

std::size_t decidingLine(const OutcomeConfig& config, const Resolution& resolution)
{
    if (!resolution.entryIndex)
        return 0;
    return config.files[resolution.fileIndex].tests[*resolution.entryIndex].pos.line;
}

} // namespace relayhud::config
