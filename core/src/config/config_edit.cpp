// planModeEdit(): plans a placement of the method's listing, splices the
// text, and proves the result by resolving the method's variants before
// and after with the framework's rules. Placements are tried from the least
// to the most invasive; the first that proves right is the edit.
#include "relayhud/config/config_edit.h"

#include "config_edit_planner.h"
#include "config_edit_probes.h"
#include "config_verify.h"

#include "relayhud/config/config_explain.h"

#include <functional>

namespace relayhud::config {
namespace {

std::string oneLine(std::string text)
{
    for (char& c : text)
        if (c == '\n' || c == '\r')
            c = ' ';
    return text;
}

Result<Mode> targetOf(const EditRequest& request, Mode current)
{
    switch (request.kind) {
    case EditKind::Promote:
        if (current != Mode::XfailStrict && current != Mode::Xfail)
            return makeError(std::string("cannot promote a test that is ") + modeName(current)
                             + "; promote moves xfail or xfail_strict to mandatory_success");
        return Mode::MandatorySuccess;
    case EditKind::Demote:
        if (current != Mode::MandatorySuccess)
            return makeError(std::string("cannot demote a test that is ") + modeName(current)
                             + "; demote moves mandatory_success to " + modeName(request.demoteTo));
        if (request.demoteTo != Mode::Xfail && request.demoteTo != Mode::XfailStrict)
            return makeError("demote moves a test to xfail or xfail_strict");
        return request.demoteTo;
    case EditKind::SetMode:
        if (current == request.target)
            return makeError(std::string("the test is already ") + modeName(current));
        return request.target;
    }
    return makeError("unknown edit");
}

std::string rationaleOf(const EditRequest& request, Mode from, Mode to)
{
    std::string text = std::string(modeName(from)) + " -> " + modeName(to);
    if (!request.reason.empty())
        text += ": " + oneLine(request.reason);
    if (!request.evidence.empty())
        text += " (" + oneLine(request.evidence) + ")";
    return text;
}

// What the edit is about, resolved once on the text as it is.
struct Subject {
    std::size_t file = 0;
    std::string base;
    Resolution resolution;
    std::vector<Candidate> exactListings; // every exact listing of the method, YAML order
    std::string newName;                  // the name a new listing gets
};

std::string newListingName(const OutcomeConfig& config, const TestQuery& query,
                           const Subject& subject, const ResolveContext& context)
{
    std::string className = genericClassName(query.className, context);
    const Resolution& r = subject.resolution;
    if (className.empty() && r.entryIndex && r.nameIndex)
        className = config.files[r.fileIndex].tests[*r.entryIndex].names[*r.nameIndex].classPart;
    if (className.find_first_of("\\.^$*+?{}[]|()") != std::string::npos)
        className.clear(); // a regex's class part; it is never checked anyway
    return className.empty() ? subject.base : className + "::" + subject.base;
}

using Plan = std::function<Result<std::vector<Splice>>(const EditPlanner&)>;

struct Placement {
    std::string name;
    Plan plan;
    // Tried only after a placement that fitted the text proved wrong: a new
    // first listing leaves the earlier ones in place, shadowed.
    bool lastResort = false;
};

// The placements worth trying for this subject, least invasive first.
std::vector<Placement> placements(const OutcomeConfig& config, const Subject& s)
{
    const FileSection& file = config.files[s.file];
    std::vector<Placement> out;
    const Resolution& r = s.resolution;
    if (r.decision == Decision::Exact) {
        const TestEntry& entry = file.tests[*r.entryIndex];
        std::vector<std::size_t> own; // the entry's listings of this method
        for (std::size_t n = 0; n < entry.names.size(); ++n)
            if (!entry.names[n].regex && entry.names[n].method == s.base)
                own.push_back(n);
        const std::size_t entryIndex = *r.entryIndex;
        if (own.size() == entry.names.size()) {
            out.push_back({"set the entry's mode",
                           [=](const EditPlanner& p) { return p.setEntryMode(entryIndex); }});
        } else {
            out.push_back({"move the name to a sibling entry", [=](const EditPlanner& p) {
                               return p.moveNames(entryIndex, own, true);
                           }});
            out.push_back({"move the name to a new entry after its own", [=](const EditPlanner& p) {
                               return p.moveNames(entryIndex, own, false);
                           }});
        }
    }
    const std::optional<std::size_t> copyFrom = r.entryIndex;
    const std::string name = s.newName;
    if (r.decision == Decision::Regex)
        out.push_back({"add an exact listing after the regex's entry", [=](const EditPlanner& p) {
                           return p.addEntry(name, copyFrom, copyFrom, false);
                       }});
    if (r.decision == Decision::Unlisted)
        out.push_back({"add a listing after the last entry", [=](const EditPlanner& p) {
                           return p.addEntry(name, std::nullopt, std::nullopt, false);
                       }});
    // Exact listings win in YAML order: a new first entry with the decider's
    // keys decides every variant the decider did.
    out.push_back(
        {"add a listing first in the section",
         [=](const EditPlanner& p) { return p.addEntry(name, copyFrom, std::nullopt, true); },
         true});
    return out;
}

// Everything but the method's own listings must be what it was.
Result<void> nothingElseChanged(const OutcomeConfig& before, const OutcomeConfig& after,
                                const Subject& s)
{
    const Facts a = factsWithout(before, s.file, s.base);
    const Facts b = factsWithout(after, s.file, s.base);
    if (const std::string diff = describeDifference(a, b); !diff.empty())
        return makeError(diff);
    return {};
}

Result<std::string> proveSplices(std::string_view text, const OutcomeConfig& before,
                                 const Subject& s, std::vector<Splice> splices,
                                 const Probes& probes, Mode target)
{
    const ConfigText lines(text);
    std::string edited = applySplices(lines, std::move(splices));
    Result<ParsedConfig> after = parseOutcomeConfig(edited);
    if (!after)
        return makeError("the edited text does not parse (" + after.message() + ")");
    if (after->hasErrors())
        return makeError("the edited text has errors");
    if (Result<void> same = nothingElseChanged(before, after->config, s); !same)
        return same.error();
    if (Result<void> proved = probes.prove(after->config, target); !proved)
        return proved.error();
    return edited;
}

// A placement the text's layout does not allow, or one that proved wrong.
struct Attempt {
    std::string text;
    bool fitted = false; // the splices were planned; the proof refused them
    std::string refusal;
};

Attempt tryPlacement(std::string_view text, const OutcomeConfig& before, const Subject& s,
                     const Placement& placement, const EditPlanner& planner, const Probes& probes,
                     Mode target)
{
    Result<std::vector<Splice>> splices = placement.plan(planner);
    if (!splices)
        return {{}, false, splices.message()};
    Result<std::string> proved = proveSplices(text, before, s, std::move(*splices), probes, target);
    if (!proved)
        return {{}, true, proved.message()};
    return {std::move(*proved), true, {}};
}

void addWarnings(const OutcomeConfig& config, const Subject& s, const TestQuery& query,
                 const ResolveContext& context, const Probes& probes, ModeEdit& edit)
{
    const FileSection& file = config.files[s.file];
    const std::string generic = genericClassName(query.className, context);
    for (const Candidate& c : s.exactListings) {
        const NameItem& item = file.tests[c.entry].names[c.name];
        if (!item.classPart.empty() && !generic.empty() && item.classPart != generic)
            edit.warnings.push_back("the framework ignores the class part: " + s.base
                                    + " changes in every class of " + file.path + "; '" + item.name
                                    + "' (" + lineRef(item.pos.line) + ") names the same method");
    }
    if (s.resolution.decision == Decision::Regex) {
        const NameItem& pattern =
            file.tests[*s.resolution.entryIndex].names[*s.resolution.nameIndex];
        edit.warnings.push_back("adds an exact listing of " + s.base + "; it beats regex '"
                                + pattern.name + "' (" + lineRef(pattern.pos.line)
                                + "), which still governs its other methods");
    }
    for (const std::string& kept : probes.keptByOthers())
        edit.warnings.push_back(kept);
}

} // namespace

Result<ModeEdit> planModeEdit(std::string_view text, const EditRequest& request,
                              const ResolveContext& context)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    if (!parsed)
        return parsed.error();
    for (const Finding& finding : parsed->findings)
        if (finding.severity == Severity::Error)
            return makeError("fix the config first: " + formatFinding(finding));
    if (parsed->config.aliasCount > 0)
        return makeError("the config uses YAML aliases; edit it by hand");
    const OutcomeConfig& config = parsed->config;
    TestQuery query = parseTestQuery(request.test);
    for (const std::string_view op : request.marks.values(MarkKind::Op))
        query.ops.emplace_back(op);
    if (const auto dtypes = request.marks.values(MarkKind::Dtype); !dtypes.empty())
        query.dtype = std::string(dtypes.front());
    const Resolver resolver(config);
    Result<Resolution> resolved = resolver.resolve(variantOf(query, context), context);
    if (!resolved)
        return resolved.error();
    Subject s{resolved->fileIndex, resolved->baseMethod, *resolved, {}, {}};
    if (s.resolution.outcome == Outcome::CannotJudge)
        return makeError("cannot judge " + s.base + ": " + s.resolution.cannotJudge);
    if (s.resolution.decision == Decision::OpIndex)
        return makeError("model ops take the mode of the entry whose edits.ops.include lists "
                         "them; move the op to another entry by hand");
    for (const Candidate& c : resolver.candidatesFor(s.file, s.base))
        if (!c.regex)
            s.exactListings.push_back(c);
    s.newName = newListingName(config, query, s, context);
    Result<Mode> target = targetOf(request, s.resolution.configMode);
    if (!target)
        return target.error();
    ModeEdit edit;
    edit.baseName = s.base;
    edit.listedName = s.newName;
    edit.from = s.resolution.configMode;
    edit.to = *target;
    const Probes probes(resolver, s.file, s.base, variantOf(query, context), s.resolution, context);
    const ConfigText lines(text);
    const EditPlanner planner(lines, config.files[s.file], edit.to,
                              rationaleOf(request, edit.from, edit.to));
    std::string firstRefusal;
    bool anyFitted = false;
    for (const Placement& placement : placements(config, s)) {
        if (placement.lastResort && !anyFitted)
            break; // only the text's layout stood in the way: that is for a person
        Attempt done = tryPlacement(text, config, s, placement, planner, probes, edit.to);
        if (done.refusal.empty()) {
            edit.text = std::move(done.text);
            edit.summary = s.base + ": " + modeName(edit.from) + " -> " + modeName(edit.to);
            addWarnings(config, s, query, context, probes, edit);
            if (placement.lastResort)
                for (const Candidate& c : s.exactListings)
                    edit.warnings.push_back(
                        "the listing at "
                        + lineRef(config.files[s.file].tests[c.entry].names[c.name].pos.line)
                        + " no longer decides " + s.base
                        + "; remove it by hand if it is not meant");
            return edit;
        }
        anyFitted = anyFitted || done.fitted;
        if (firstRefusal.empty())
            firstRefusal = placement.name + ": " + done.refusal;
    }
    return makeError("refused: no placement changes " + s.base + " as intended (" + firstRefusal
                     + "); nothing written");
}

} // namespace relayhud::config
