// Resolver::resolve(): spec sections 3-6 in the framework's order. Each step
// cites where torch-spyre does it (tests/oot_framework/, @539fd3b0).
#include "relayhud/config/resolver.h"

#include "resolver_index.h"
#include "resolver_steps.h"

#include "relayhud/config/spyre_names.h"

#include <re2/re2.h>

#include <algorithm>

namespace relayhud::config {
namespace {

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

// The framework compares resolved absolute paths; a report names the file
// relative to its root, so the two meet at a '/' boundary.
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

} // namespace

const char* outcomeName(Outcome outcome)
{
    switch (outcome) {
    case Outcome::MandatorySuccess: return "mandatory_success";
    case Outcome::Xfail: return "xfail";
    case Outcome::XfailStrict: return "xfail_strict";
    case Outcome::Skip: return "skip";
    case Outcome::Dropped: return "dropped";
    case Outcome::CannotJudge: return "cannot_judge";
    }
    return "?";
}

Outcome outcomeOf(Mode mode)
{
    switch (mode) {
    case Mode::MandatorySuccess: return Outcome::MandatorySuccess;
    case Mode::Xfail: return Outcome::Xfail;
    case Mode::XfailStrict: return Outcome::XfailStrict;
    case Mode::Skip: return Outcome::Skip;
    }
    return Outcome::Xfail;
}

Resolver::Resolver(const OutcomeConfig& config)
    : m_config(config), m_globals(std::make_unique<Globals>(config.global))
{
    m_sections.reserve(config.files.size());
    for (const FileSection& file : config.files)
        m_sections.push_back(std::make_unique<Section>(file, *m_globals));
}

Resolver::~Resolver() = default;
Resolver::Resolver(Resolver&&) noexcept = default;

Result<std::size_t> Resolver::sectionFor(std::string_view file) const
{
    if (m_config.files.empty())
        return makeError("the config lists no files");
    if (file.empty()) {
        if (m_config.files.size() == 1)
            return std::size_t{0};
        return makeError("the config has " + std::to_string(m_config.files.size())
                         + " files; name the test as FILE.py::Class::method");
    }
    std::string unwrapped; // only a wrapper's name is rewritten (most are not)
    std::string_view original = file;
    if (isOotWrapperPath(file)) {
        unwrapped = unwrapOotPath(file);
        original = unwrapped;
    }
    for (std::size_t i = 0; i < m_config.files.size(); ++i)
        if (pathMatches(m_config.files[i].path, original))
            return i;
    std::string known;
    for (const FileSection& section : m_config.files)
        known += (known.empty() ? "" : ", ") + section.path;
    return makeError("no files entry for " + std::string(file) + " (the config has " + known
                     + "); the framework refuses to collect a file its config does not list");
}

std::vector<Candidate> Resolver::candidatesFor(std::size_t section,
                                               std::string_view baseMethod) const
{
    std::vector<Candidate> out;
    m_sections.at(section)->candidates(baseMethod, out);
    return out;
}

bool Resolver::nameMatches(std::size_t section, std::size_t entry, std::size_t name,
                           std::string_view baseMethod) const
{
    const NameItem& item = m_config.files.at(section).tests.at(entry).names.at(name);
    if (!item.regex)
        return item.method == baseMethod;
    const auto& single = m_sections.at(section)->single;
    const auto it = single.find({entry, name});
    return it != single.end() && RE2::FullMatch(baseMethod, *it->second);
}

Result<Resolution> Resolver::resolve(const VariantQuery& query, const ResolveContext& context,
                                     bool explain) const
{
    Result<std::size_t> fileIndex = sectionFor(query.file);
    if (!fileIndex)
        return fileIndex.error();
    const Section& section = *m_sections[*fileIndex];
    Result<Resolution> result(std::in_place); // decided in place, returned as it is
    Resolution& out = *result;
    ResolveSteps steps(m_config, *m_globals, *fileIndex, query, context, explain, out);
    std::vector<Candidate> candidates;
    section.candidates(steps.base(), candidates);
    // A sanitised op mark leaves it open whether '_' before the op is the
    // method's: the form the config lists wins, the method's first.
    if (const std::string& untrimmed = steps.untrimmedBase(); !untrimmed.empty()) {
        std::vector<Candidate> other;
        section.candidates(untrimmed, other);
        if (!other.empty()) {
            steps.useUntrimmedBase();
            candidates = std::move(other);
        }
    }
    steps.run(candidates, section);
    out.candidates = std::move(candidates);
    // A regex RE2 cannot run might be a candidate or not: judge only when
    // either way gives the same outcome. One at a time is enough: whatever a
    // set of them decides, one of them alone decides too.
    for (const Section::RegexRef& ref : section.unsupported) {
        section.candidates(out.baseMethod, candidates, &ref);
        Resolution other;
        ResolveSteps alternative(m_config, *m_globals, *fileIndex, query, context, false, other);
        if (out.baseMethod != alternative.base())
            alternative.useUntrimmedBase();
        alternative.run(candidates, section);
        if (other.outcome == out.outcome && other.finalMode == out.finalMode)
            continue;
        const NameItem& item =
            m_config.files[*fileIndex].tests[ref.candidate.entry].names[ref.candidate.name];
        out.cannotJudge = "'" + item.method + "' (line " + std::to_string(item.pos.line)
                          + ") is a regex RE2 cannot run: if it matches " + out.baseMethod
                          + " the outcome is " + outcomeName(other.outcome) + ", else "
                          + outcomeName(out.outcome);
        out.outcome = Outcome::CannotJudge;
        if (explain)
            out.steps.push_back("cannot judge: " + out.cannotJudge);
        break;
    }
    return result;
}

} // namespace relayhud::config
