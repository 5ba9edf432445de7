// The precedence walk of explainTest(): entry, pattern, default mode,
// unlisted_test_mode, force_xfail, then dropped variants.
#include "relayhud/config/config_explain.h"

#include <algorithm>

namespace relayhud::config {
namespace {

std::string at(const SourcePos& pos) { return "line " + std::to_string(pos.line); }

bool contains(const std::vector<std::string>& list, std::string_view value)
{
    return std::find(list.begin(), list.end(), value) != list.end();
}

// A path as written, without its ${TORCH_ROOT}/ or ${TORCH_DEVICE_ROOT}/ token.
std::string_view withoutToken(std::string_view path)
{
    if (path.rfind("${", 0) == 0) {
        const std::size_t close = path.find("}/");
        if (close != std::string_view::npos)
            return path.substr(close + 2);
    }
    return path;
}

bool pathMatches(std::string_view configPath, std::string_view file)
{
    const std::string_view path = withoutToken(configPath);
    if (path == file)
        return true;
    auto endsWithPart = [](std::string_view longer, std::string_view shorter) {
        return longer.size() > shorter.size()
               && longer.substr(longer.size() - shorter.size()) == shorter
               && longer[longer.size() - shorter.size() - 1] == '/';
    };
    return endsWithPart(path, file) || endsWithPart(file, path);
}

bool bracketMatch(std::string_view pattern, std::size_t& p, char c)
{
    std::size_t i = p + 1;
    const bool negate = i < pattern.size() && pattern[i] == '!';
    if (negate)
        ++i;
    bool hit = false;
    const std::size_t first = i;
    for (; i < pattern.size() && (pattern[i] != ']' || i == first); ++i) {
        if (i + 2 < pattern.size() && pattern[i + 1] == '-' && pattern[i + 2] != ']') {
            hit = hit || (c >= pattern[i] && c <= pattern[i + 2]);
            i += 2;
        } else {
            hit = hit || c == pattern[i];
        }
    }
    p = i; // at the closing ']' (or the end for an unclosed bracket)
    return hit != negate;
}

struct Located {
    Decision decision = Decision::Unlisted;
    std::size_t entry = 0;
    std::size_t name = 0;
};

// The first exact listing, else the first pattern that matches.
Located locate(const FileSection& file, std::string_view baseName)
{
    for (std::size_t e = 0; e < file.tests.size(); ++e)
        for (std::size_t n = 0; n < file.tests[e].names.size(); ++n)
            if (!file.tests[e].names[n].pattern && file.tests[e].names[n].name == baseName)
                return {Decision::ExplicitEntry, e, n};
    for (std::size_t e = 0; e < file.tests.size(); ++e)
        for (std::size_t n = 0; n < file.tests[e].names.size(); ++n)
            if (file.tests[e].names[n].pattern && globMatch(file.tests[e].names[n].name, baseName))
                return {Decision::Pattern, e, n};
    return {};
}

const NamedOption* findOption(const std::vector<NamedOption>& list, std::string_view name)
{
    for (const NamedOption& option : list)
        if (option.name == name)
            return &option;
    return nullptr;
}

// Whether a variant survives the global supported list plus the entry's
// include (which adds to it) and exclude (which removes from it).
bool variantKept(bool hasGlobal, const std::vector<NamedOption>& global,
                 const IncludeExclude& edits, std::string_view value)
{
    if (contains(edits.exclude, value))
        return false;
    if (contains(edits.include, value))
        return true;
    return !hasGlobal || findOption(global, value) != nullptr;
}

void applyMarks(const OutcomeConfig& config, const TestEntry* entry, const TestMarks& marks,
                Explanation& out)
{
    static const TestEntry kNoEntry;
    const TestEntry& edits = entry ? *entry : kNoEntry;
    const GlobalSection& global = config.global;
    for (const std::string_view op : marks.values(MarkKind::Op)) {
        const NamedOption* option = findOption(global.supportedOps, op);
        if (!variantKept(global.hasOps, global.supportedOps, edits.ops, op)) {
            out.dropped = true;
            out.steps.push_back("op '" + std::string(op)
                                + "' is excluded by edits or not in global supported_ops: "
                                  "the variant is dropped");
        } else if (option && option->forceXfail && out.finalMode == Mode::MandatorySuccess) {
            out.finalMode = Mode::Xfail;
            out.steps.push_back("force_xfail on op '" + option->name + "' (" + at(option->pos)
                                + ") turns mandatory_success into xfail");
        }
        for (const std::string_view dtype : marks.values(MarkKind::Dtype))
            if (option && !option->dtypes.empty() && !contains(option->dtypes, dtype)
                && !contains(edits.dtypes.include, dtype)) {
                out.dropped = true;
                out.steps.push_back("dtype '" + std::string(dtype) + "' is not listed for op '"
                                    + option->name + "' (" + at(option->pos)
                                    + "): the variant is dropped");
            }
    }
    for (const std::string_view dtype : marks.values(MarkKind::Dtype)) {
        const NamedOption* option = findOption(global.supportedDtypes, dtype);
        if (!variantKept(global.hasDtypes, global.supportedDtypes, edits.dtypes, dtype)) {
            out.dropped = true;
            out.steps.push_back("dtype '" + std::string(dtype)
                                + "' is excluded by edits or not in global supported_dtypes: "
                                  "the variant is dropped");
        } else if (option && option->forceXfail && out.finalMode == Mode::MandatorySuccess) {
            out.finalMode = Mode::Xfail;
            out.steps.push_back("force_xfail on dtype '" + option->name + "' (" + at(option->pos)
                                + ") turns mandatory_success into xfail");
        }
    }
}

void decide(const FileSection& file, const Located& found, Explanation& out)
{
    if (found.decision == Decision::Unlisted) {
        out.configMode = file.effectiveUnlistedMode();
        out.steps.push_back(file.unlistedMode
                                ? "not listed: unlisted_test_mode of " + file.path + " ("
                                      + at(file.pos) + ") is " + modeName(out.configMode)
                                : "not listed, and " + file.path
                                      + " sets no unlisted_test_mode: the default xfail");
        return;
    }
    out.entryIndex = found.entry;
    out.nameIndex = found.name;
    const TestEntry& entry = file.tests[found.entry];
    const NameItem& item = entry.names[found.name];
    out.configMode = entry.effectiveMode();
    out.steps.push_back(found.decision == Decision::Pattern
                            ? "matched by pattern '" + item.name + "' (" + at(item.pos) + ")"
                            : "listed as '" + item.name + "' (" + at(item.pos) + ")");
    out.steps.push_back(
        entry.mode ? "the entry's mode (" + at(entry.modePos) + ") is " + modeName(*entry.mode)
                   : "the entry (" + at(entry.pos) + ") has no mode: mandatory_success");
}

} // namespace

// A skipped test is deleted before collection, so a dropped variant of it is
// still reported as the skip that decides first.
std::string Explanation::outcome() const
{
    return dropped && finalMode != Mode::Skip ? "dropped" : modeName(finalMode);
}

TestQuery parseTestQuery(std::string_view text)
{
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t sep = text.find("::", start);
        parts.push_back(text.substr(start, sep - start));
        if (sep == std::string_view::npos)
            break;
        start = sep + 2;
    }
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

Result<std::size_t> findFileSection(const OutcomeConfig& config, std::string_view file)
{
    if (config.files.empty())
        return makeError("the config lists no files");
    if (file.empty()) {
        if (config.files.size() == 1)
            return std::size_t{0};
        return makeError("the config has " + std::to_string(config.files.size())
                         + " files; name the test as FILE.py::Class::method");
    }
    for (std::size_t i = 0; i < config.files.size(); ++i)
        if (pathMatches(config.files[i].path, file))
            return i;
    std::string known;
    for (const FileSection& section : config.files)
        known += (known.empty() ? "" : ", ") + section.path;
    return makeError("no files entry for " + std::string(file) + " (the config has " + known + ")");
}

bool globMatch(std::string_view pattern, std::string_view text)
{
    std::size_t p = 0, t = 0;
    std::size_t starP = std::string_view::npos, starT = 0;
    while (t < text.size()) {
        if (p < pattern.size() && pattern[p] == '*') {
            starP = p++;
            starT = t;
            continue;
        }
        if (p < pattern.size()) {
            std::size_t next = p;
            const bool hit = pattern[p] == '?'
                             || (pattern[p] == '[' ? bracketMatch(pattern, next, text[t])
                                                   : pattern[p] == text[t]);
            if (hit) {
                p = next + 1;
                ++t;
                continue;
            }
        }
        if (starP == std::string_view::npos)
            return false;
        p = starP + 1;
        t = ++starT;
    }
    while (p < pattern.size() && pattern[p] == '*')
        ++p;
    return p == pattern.size();
}

Result<Explanation> explainTest(const OutcomeConfig& config, const TestQuery& query,
                                const BaseNameOptions& options)
{
    Result<std::size_t> fileIndex = findFileSection(config, query.file);
    if (!fileIndex)
        return fileIndex.error();
    const FileSection& file = config.files[*fileIndex];
    Explanation out;
    out.fileIndex = *fileIndex;
    out.baseName = baseTestName(query.className, query.method, query.marks, options);
    out.steps.push_back("base name " + out.baseName + " in " + file.path + " (" + at(file.pos)
                        + ")");
    const Located found = locate(file, out.baseName);
    out.decision = found.decision;
    decide(file, found, out);
    out.finalMode = out.configMode;
    const TestEntry* entry = out.entryIndex ? &file.tests[*out.entryIndex] : nullptr;
    applyMarks(config, entry, query.marks, out);
    return out;
}

} // namespace relayhud::config
