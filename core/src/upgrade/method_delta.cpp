#include "relayhud/upgrade/method_delta.h"

#include <algorithm>
#include <tuple>

namespace relayhud::upgrade {
namespace {

using pysource::PyFunction;

struct Placed {
    const std::string* file;
    const PyFunction* fn;
    bool used = false;
};

std::vector<Placed> placed(const ScannedFiles& files)
{
    std::vector<Placed> out;
    for (const auto& [file, scan] : files)
        for (const PyFunction& fn : scan.functions)
            out.push_back({&file, &fn});
    return out;
}

bool samePlace(const Placed& a, const Placed& b)
{
    return *a.file == *b.file && a.fn->className == b.fn->className;
}

MethodChange changeOf(ChangeKind kind, const Placed& at, std::string detail)
{
    return {kind, *at.file, at.fn->className, at.fn->name, std::move(detail), at.fn->line};
}

// Rule 1: the same file, class and name at both revisions.
void matchSameName(std::vector<Placed>& old, std::vector<Placed>& now,
                   std::vector<MethodChange>& out)
{
    for (Placed& o : old)
        for (Placed& n : now) {
            if (n.used || !samePlace(o, n) || o.fn->name != n.fn->name)
                continue;
            o.used = n.used = true;
            const bool body = o.fn->bodyHash != n.fn->bodyHash;
            const bool decorators = o.fn->decoratorHash != n.fn->decoratorHash;
            if (body || decorators)
                out.push_back(changeOf(ChangeKind::Changed, n,
                                       body && decorators ? "body, decorators"
                                       : body             ? "body"
                                                          : "decorators"));
            break;
        }
}

// Rules 2 and 3: one gone and one new with the same body, paired by `match`.
template <class Match>
void pairByBody(std::vector<Placed>& old, std::vector<Placed>& now, ChangeKind kind, Match match,
                std::vector<MethodChange>& out)
{
    for (Placed& o : old) {
        if (o.used)
            continue;
        for (Placed& n : now) {
            if (n.used || o.fn->bodyHash != n.fn->bodyHash || !match(o, n))
                continue;
            o.used = n.used = true;
            out.push_back(changeOf(kind, o,
                                   kind == ChangeKind::Renamed ? n.fn->name
                                                               : *n.file + "::" + n.fn->className));
            break;
        }
    }
}

} // namespace

std::string_view changeKindName(ChangeKind kind)
{
    switch (kind) {
    case ChangeKind::Added: return "added";
    case ChangeKind::Removed: return "removed";
    case ChangeKind::Renamed: return "renamed";
    case ChangeKind::Changed: return "changed";
    case ChangeKind::Moved: return "moved";
    }
    return "changed";
}

std::vector<MethodChange> compareMethods(const ScannedFiles& before, const ScannedFiles& after)
{
    std::vector<Placed> old = placed(before);
    std::vector<Placed> now = placed(after);
    std::vector<MethodChange> out;
    matchSameName(old, now, out);
    pairByBody(old, now, ChangeKind::Renamed, samePlace, out);
    pairByBody(
        old, now, ChangeKind::Moved,
        [](const Placed& o, const Placed& n) {
            return o.fn->name == n.fn->name && !samePlace(o, n);
        },
        out);
    for (const Placed& o : old)
        if (!o.used)
            out.push_back(changeOf(ChangeKind::Removed, o, {}));
    for (const Placed& n : now)
        if (!n.used)
            out.push_back(changeOf(ChangeKind::Added, n, {}));
    std::sort(out.begin(), out.end(), [](const MethodChange& a, const MethodChange& b) {
        return std::tie(a.file, a.className, a.method, a.kind)
               < std::tie(b.file, b.className, b.method, b.kind);
    });
    return out;
}

} // namespace relayhud::upgrade
