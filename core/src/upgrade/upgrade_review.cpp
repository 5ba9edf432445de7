#include "relayhud/upgrade/upgrade_review.h"

#include "relayhud/config/name_regex.h"

#include <algorithm>
#include <set>
#include <tuple>

namespace relayhud::upgrade {
namespace {

constexpr std::string_view kTorchRoot = "${TORCH_ROOT}/";

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
    findStale(configs, *after, review);
    return review;
}

std::string reviewTsv(const UpgradeReview& review)
{
    std::string out;
    for (const MethodChange& c : review.changes)
        out += row(changeKindName(c.kind), c.file, c.className, c.method, c.detail);
    for (const StaleEntry& s : review.stale)
        out += row("stale", s.file, s.className, s.method, staleDetail(s));
    return out;
}

namespace {

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
    std::string out =
        "PyTorch " + review.from + " (" + review.fromSha.substr(0, 12) + ") -> " + review.to + " ("
        + review.toSha.substr(0, 12)
        + "): " + counted(review.changes.size(), "changed method", "changed methods") + " in "
        + counted(review.files.size(), "file", "files") + " (" + std::to_string(counts[0])
        + " added, " + std::to_string(counts[1]) + " removed, " + std::to_string(counts[2])
        + " renamed, " + std::to_string(counts[3]) + " changed, " + std::to_string(counts[4])
        + " moved); " + counted(review.stale.size(), "stale entry", "stale entries") + "\n";
    std::string file;
    for (const MethodChange& c : review.changes) {
        if (c.file != file)
            out += "\n" + (file = c.file) + "\n";
        const std::string where = c.className.empty() ? c.method : c.className + "::" + c.method;
        out += "  " + std::string(changeKindName(c.kind))
               + std::string(9 - changeKindName(c.kind).size(), ' ') + where
               + (c.detail.empty() ? "" : "  (" + detailText(c) + ")") + "\n";
    }
    if (!review.stale.empty())
        out += "\nstale config entries (name nothing at the new revision)\n";
    for (const StaleEntry& s : review.stale)
        out += "  " + staleDetail(s) + "\n";
    for (const std::string& f : review.absent)
        out += "\nnot at either revision: " + f + "\n";
    for (const std::string& p : review.problems)
        out += "\nnot read whole: " + p + "\n";
    return out;
}

} // namespace relayhud::upgrade
