#include "relayhud/upgrade/upgrade_review.h"

#include "relayhud/config/name_regex.h"
#include "relayhud/config/resolver.h"
#include "relayhud/config/spyre_names.h"
#include "relayhud/pysource/opinfo_scan.h"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

namespace relayhud::upgrade {
namespace {

constexpr std::string_view kTorchRoot = "${TORCH_ROOT}/";
constexpr const char* kOpDatabase = "torch/testing/_internal/common_methods_invocations.py";
constexpr const char* kOpDefinitions = "torch/testing/_internal/opinfo/definitions";

struct PlacedOp {
    std::string file;
    pysource::OpInfoEntry entry;
};

// Every OpInfo entry of the op database at `commit`, by op and variant (the
// first where two files define one).
Result<std::map<std::string, PlacedOp>> opInfosAt(const git::GitRepository& repo,
                                                  const std::string& commit)
{
    auto files = repo.listFiles(commit, kOpDefinitions);
    if (!files)
        return files.error();
    files->insert(files->begin(), kOpDatabase);
    std::map<std::string, PlacedOp> out;
    for (const std::string& file : *files) {
        if (file.size() < 3 || file.substr(file.size() - 3) != ".py")
            continue;
        auto text = repo.readFile(commit, file);
        if (!text)
            return text.error();
        if (!*text)
            continue;
        for (pysource::OpInfoEntry& e : pysource::scanOpInfos(**text)) {
            std::string key = e.key(); // before the entry moves
            out.try_emplace(std::move(key), PlacedOp{file, std::move(e)});
        }
    }
    return out;
}

// The families of the fields that differ, in field order, each once.
std::vector<std::string> changedFamilies(const pysource::OpInfoEntry& a,
                                         const pysource::OpInfoEntry& b)
{
    std::set<std::string> fields;
    for (const auto& [field, hash] : a.fields)
        if (const auto other = b.fields.find(field);
            other == b.fields.end() || other->second != hash)
            fields.insert(field);
    for (const auto& [field, hash] : b.fields)
        if (!a.fields.count(field))
            fields.insert(field);
    std::vector<std::string> out;
    for (const std::string& field : fields) {
        std::string family = pysource::opInfoFieldFamily(field);
        if (std::find(out.begin(), out.end(), family) == out.end())
            out.push_back(std::move(family));
    }
    return out;
}

std::set<std::string> supportedOps(const std::vector<ReviewConfig>& configs)
{
    std::set<std::string> out;
    for (const ReviewConfig& c : configs)
        for (const config::NamedOption& op : c.config.global.supportedOps)
            out.insert(config::sanitizedOp(op.name));
    return out;
}

Result<void> compareOpInfos(const git::GitRepository& repo,
                            const std::vector<ReviewConfig>& configs, UpgradeReview& review)
{
    auto before = opInfosAt(repo, review.fromSha);
    if (!before)
        return before.error();
    auto after = opInfosAt(repo, review.toSha);
    if (!after)
        return after.error();
    const std::set<std::string> supported = supportedOps(configs);
    const auto change = [&](const PlacedOp& at, std::string what,
                            std::vector<std::string> families) {
        review.opInfos.push_back({at.file, at.entry.key(), std::move(what), std::move(families),
                                  supported.count(config::sanitizedOp(at.entry.name)) > 0});
    };
    for (const auto& [key, old] : *before) {
        const auto now = after->find(key);
        if (now == after->end())
            change(old, "removed", {});
        else if (auto families = changedFamilies(old.entry, now->second.entry); !families.empty())
            change(now->second, "changed", std::move(families));
    }
    for (const auto& [key, now] : *after)
        if (!before->count(key))
            change(now, "added", {});
    std::sort(review.opInfos.begin(), review.opInfos.end(),
              [](const OpInfoChange& a, const OpInfoChange& b) { return a.op < b.op; });
    return {};
}

// The upstream files the configs name, from the PyTorch root.
std::set<std::string> upstreamFiles(const std::vector<ReviewConfig>& configs)
{
    std::set<std::string> out;
    for (const ReviewConfig& c : configs)
        for (const config::FileSection& f : c.config.files)
            if (f.path.rfind(kTorchRoot, 0) == 0)
                out.insert(f.path.substr(kTorchRoot.size()));
    return out;
}

// Each file's functions at `commit`; files missing there are left out.
Result<ScannedFiles> scanAt(const git::GitRepository& repo, const std::string& commit,
                            const std::set<std::string>& files, const std::string& revision,
                            std::vector<std::string>& problems)
{
    ScannedFiles out;
    for (const std::string& file : files) {
        auto text = repo.readFile(commit, file);
        if (!text)
            return text.error();
        if (!*text)
            continue;
        pysource::PyScan scan = pysource::scanPython(**text);
        if (!scan.problem.empty())
            problems.push_back(file + " at " + revision + ": " + scan.problem);
        out.emplace(file, std::move(scan));
    }
    return out;
}

std::string explain(const std::vector<MethodChange>& changes, const std::string& file,
                    const std::string& method)
{
    for (const MethodChange& c : changes) {
        if (c.file != file || c.method != method)
            continue;
        if (c.kind == ChangeKind::Renamed)
            return "renamed to " + c.detail;
        if (c.kind == ChangeKind::Moved)
            return "moved to " + c.detail;
        if (c.kind == ChangeKind::Removed)
            return "removed";
    }
    return {};
}

// Whether `item` names a function of `names` as the framework matches it.
bool named(const config::NameItem& item, const std::set<std::string>& names, bool& judged)
{
    judged = true;
    if (!item.regex)
        return names.count(item.method) > 0;
    const config::RegexCheck check = config::checkNameRegex(item.method);
    config::NameRegexSet set;
    if (check.status != config::RegexStatus::Ok || !set.add(check) || !set.compile()) {
        judged = false; // cannot judge: never called stale
        return true;
    }
    std::vector<int> hits;
    for (const std::string& name : names) {
        set.match(name, hits);
        if (!hits.empty())
            return true;
    }
    return false;
}

void findStale(const std::vector<ReviewConfig>& configs, const ScannedFiles& after,
               UpgradeReview& review)
{
    for (const ReviewConfig& c : configs)
        for (const config::FileSection& f : c.config.files) {
            if (f.path.rfind(kTorchRoot, 0) != 0)
                continue;
            const std::string file = f.path.substr(kTorchRoot.size());
            const auto scan = after.find(file);
            if (scan == after.end())
                continue; // the whole file is gone: listed as absent or removed
            std::set<std::string> names;
            for (const pysource::PyFunction& fn : scan->second.functions)
                names.insert(fn.name);
            for (const config::TestEntry& entry : f.tests)
                for (const config::NameItem& item : entry.names) {
                    bool judged = true;
                    if (named(item, names, judged) || !judged)
                        continue;
                    review.stale.push_back({c.path, static_cast<int>(item.pos.line), file,
                                            item.classPart, item.method, item.name,
                                            explain(review.changes, file, item.method)});
                }
        }
    std::stable_sort(
        review.stale.begin(), review.stale.end(), [](const StaleEntry& a, const StaleEntry& b) {
            return std::tie(a.file, a.configPath, a.line) < std::tie(b.file, b.configPath, b.line);
        });
}

// A regex of the section RE2 cannot run: what it governs cannot be judged.
bool hasUnrunnableRegex(const config::FileSection& section)
{
    for (const config::TestEntry& entry : section.tests)
        for (const config::NameItem& item : entry.names)
            if (item.regex && item.regexStatus != config::RegexStatus::Ok)
                return true;
    return false;
}

// What `config` does to `method` of `file` (a path from the PyTorch root),
// or none when it has no section for the file.
std::optional<MethodOutcome> outcomeIn(const ReviewConfig& c, const config::Resolver& resolver,
                                       const std::string& file, const std::string& method)
{
    auto section = resolver.sectionFor(file);
    if (!section)
        return std::nullopt;
    const config::FileSection& f = c.config.files[*section];
    const std::vector<config::Candidate> candidates = resolver.candidatesFor(*section, method);
    MethodOutcome out{c.path, {}, !candidates.empty(), true};
    if (candidates.empty()) {
        out.judged = !hasUnrunnableRegex(f);
        out.text = out.judged ? std::string(config::modeName(f.effectiveUnlistedMode()))
                                    + " (the file's default)"
                              : "cannot judge (a regex RE2 cannot run may list it)";
        return out;
    }
    const config::TestEntry& first = f.tests[candidates.front().entry];
    bool byDtype = false;
    for (const config::Candidate& cand : candidates)
        byDtype = byDtype || f.tests[cand.entry].effectiveMode() != first.effectiveMode();
    out.text = std::string(config::modeName(first.effectiveMode())) + " (line "
               + std::to_string(first.names[candidates.front().name].pos.line) + ")"
               + (byDtype ? ", other modes by dtype" : "");
    return out;
}

std::vector<MethodOutcome> outcomesOf(const std::vector<ReviewConfig>& configs,
                                      const std::vector<config::Resolver>& resolvers,
                                      const std::string& file, const std::string& method)
{
    std::vector<MethodOutcome> out;
    for (std::size_t i = 0; i < configs.size(); ++i)
        if (auto o = outcomeIn(configs[i], resolvers[i], file, method))
            out.push_back(std::move(*o));
    return out;
}

// Where a change's method is at the new revision: (file, name).
std::pair<std::string, std::string> newPlace(const MethodChange& c)
{
    if (c.kind == ChangeKind::Renamed)
        return {c.file, c.detail};
    if (c.kind == ChangeKind::Moved)
        return {c.detail.substr(0, c.detail.find("::")), c.method};
    return {c.file, c.method};
}

void judgeOutcomes(const std::vector<ReviewConfig>& configs, UpgradeReview& review)
{
    std::vector<config::Resolver> resolvers;
    resolvers.reserve(configs.size());
    for (const ReviewConfig& c : configs)
        resolvers.emplace_back(c.config);
    for (const MethodChange& c : review.changes) {
        ChangeOutcomes o;
        if (c.kind != ChangeKind::Added)
            o.before = outcomesOf(configs, resolvers, c.file, c.method);
        if (c.kind != ChangeKind::Removed) {
            const auto [file, name] = newPlace(c);
            o.after = outcomesOf(configs, resolvers, file, name);
        }
        for (const MethodOutcome& b : o.before)
            for (const MethodOutcome& a : o.after)
                o.fallsToDefault =
                    o.fallsToDefault || (a.config == b.config && b.listed && !a.listed && a.judged);
        review.fallToDefault += o.fallsToDefault ? 1 : 0;
        review.outcomes.push_back(std::move(o));
    }
}

std::string field(std::string text)
{
    std::replace_if(
        text.begin(), text.end(), [](char c) { return c == '\t' || c == '\n' || c == '\r'; }, ' ');
    return text;
}

std::string row(std::string_view kind, const std::string& file, const std::string& cls,
                const std::string& method, const std::string& detail)
{
    return std::string(kind) + "\t" + field(file) + "\t" + field(cls) + "\t" + field(method) + "\t"
           + field(detail) + "\n";
}

std::string opDetail(const OpInfoChange& o)
{
    std::string out = o.what;
    for (std::size_t i = 0; i < o.families.size(); ++i)
        out += (i == 0 ? ": " : ", ") + o.families[i];
    if (!o.supported)
        return out;
    // PyTorch names an op's variants by its formatted name: '.' as '_'
    // (OpInfo.formatted_name), the variant test name after it.
    std::string formatted = o.op;
    std::replace(formatted.begin(), formatted.end(), '.', '_');
    return out + "; supported op: its variants *_" + formatted + "_spyre_* change";
}

std::string staleDetail(const StaleEntry& s)
{
    std::string out = s.configPath + ":" + std::to_string(s.line) + ": " + s.written;
    return s.explanation.empty() ? out : out + " (" + s.explanation + ")";
}

} // namespace

Result<UpgradeReview> reviewUpgrade(const git::GitRepository& repo, const std::string& from,
                                    const std::string& to, const std::vector<ReviewConfig>& configs)
{
    UpgradeReview review;
    review.from = from;
    review.to = to;
    auto fromSha = repo.resolve(from);
    if (!fromSha)
        return fromSha.error();
    auto toSha = repo.resolve(to);
    if (!toSha)
        return toSha.error();
    review.fromSha = *fromSha;
    review.toSha = *toSha;
    const std::set<std::string> files = upstreamFiles(configs);
    auto before = scanAt(repo, review.fromSha, files, from, review.problems);
    if (!before)
        return before.error();
    auto after = scanAt(repo, review.toSha, files, to, review.problems);
    if (!after)
        return after.error();
    for (const std::string& file : files)
        (before->count(file) || after->count(file) ? review.files : review.absent).push_back(file);
    review.changes = compareMethods(*before, *after);
    judgeOutcomes(configs, review);
    findStale(configs, *after, review);
    if (auto ops = compareOpInfos(repo, configs, review); !ops)
        return ops.error();
    return review;
}

std::string reviewTsv(const UpgradeReview& review)
{
    std::string out;
    for (const MethodChange& c : review.changes)
        out += row(changeKindName(c.kind), c.file, c.className, c.method, c.detail);
    for (const StaleEntry& s : review.stale)
        out += row("stale", s.file, s.className, s.method, staleDetail(s));
    for (const OpInfoChange& o : review.opInfos)
        out += row("opinfo", o.file, {}, o.op, opDetail(o));
    return out;
}

namespace {

// "      spyre.yaml: xfail_strict (line 8) -> xfail (the file's default)", a
// line per config that has a section for the file at either revision.
std::string outcomeLines(const ChangeOutcomes& o)
{
    std::vector<std::string> configs;
    for (const auto* side : {&o.before, &o.after})
        for (const MethodOutcome& m : *side)
            if (std::find(configs.begin(), configs.end(), m.config) == configs.end())
                configs.push_back(m.config);
    const auto textIn = [](const std::vector<MethodOutcome>& side, const std::string& config) {
        for (const MethodOutcome& m : side)
            if (m.config == config)
                return m.text;
        return std::string("—");
    };
    std::string out;
    for (const std::string& config : configs)
        out += "             " + config + ": " + textIn(o.before, config) + " -> "
               + textIn(o.after, config) + "\n";
    if (o.fallsToDefault)
        out += "             now falls to the file's default\n";
    return out;
}

// A rename or a move says where to.
std::string detailText(const MethodChange& c)
{
    return c.kind == ChangeKind::Renamed || c.kind == ChangeKind::Moved ? "to " + c.detail
                                                                        : c.detail;
}

// "1 file", "3 files".
std::string counted(std::size_t n, const std::string& one, const std::string& many)
{
    return std::to_string(n) + " " + (n == 1 ? one : many);
}

} // namespace

std::string reviewText(const UpgradeReview& review)
{
    std::size_t counts[5] = {};
    for (const MethodChange& c : review.changes)
        ++counts[static_cast<std::size_t>(c.kind)];
    std::string out = "PyTorch " + review.from + " (" + review.fromSha.substr(0, 12) + ") -> "
                      + review.to + " (" + review.toSha.substr(0, 12)
                      + "): " + counted(review.changes.size(), "changed method", "changed methods")
                      + " in " + counted(review.files.size(), "file", "files") + " ("
                      + std::to_string(counts[0]) + " added, " + std::to_string(counts[1])
                      + " removed, " + std::to_string(counts[2]) + " renamed, "
                      + std::to_string(counts[3]) + " changed, " + std::to_string(counts[4])
                      + " moved); " + std::to_string(review.fallToDefault) + " now "
                      + (review.fallToDefault == 1 ? "falls" : "fall") + " to the default; "
                      + counted(review.stale.size(), "stale entry", "stale entries") + "\n";
    std::string file;
    for (std::size_t i = 0; i < review.changes.size(); ++i) {
        const MethodChange& c = review.changes[i];
        if (c.file != file)
            out += "\n" + (file = c.file) + "\n";
        const std::string where = c.className.empty() ? c.method : c.className + "::" + c.method;
        out += "  " + std::string(changeKindName(c.kind))
               + std::string(9 - changeKindName(c.kind).size(), ' ') + where
               + (c.detail.empty() ? "" : "  (" + detailText(c) + ")") + "\n";
        if (i < review.outcomes.size())
            out += outcomeLines(review.outcomes[i]);
    }
    if (!review.stale.empty())
        out += "\nstale config entries (name nothing at the new revision)\n";
    for (const StaleEntry& s : review.stale)
        out += "  " + staleDetail(s) + "\n";
    if (!review.opInfos.empty())
        out += "\nOpInfo entries (" + counted(review.opInfos.size(), "op", "ops") + ")\n";
    for (const OpInfoChange& o : review.opInfos)
        out += "  " + o.op + "  " + opDetail(o) + "  (" + o.file + ")\n";
    for (const std::string& f : review.absent)
        out += "\nnot at either revision: " + f + "\n";
    for (const std::string& p : review.problems)
        out += "\nnot read whole: " + p + "\n";
    return out;
}

} // namespace relayhud::upgrade
