#include "relayhud/ui/watch/attributed_failures.h"

#include "relayhud/ui/common/format.h"
#include "relayhud/ui/common/job_label.h"

#include <QCoreApplication>
#include <QStringList>

#include <set>
#include <utility>

namespace relayhud::ui {

namespace {

PrNumber culpritOf(const triage::Suggestion& s)
{
    for (const triage::Evidence& e : s.evidence)
        if (e.kind == triage::EvidenceKind::Breakage && e.culpritPr.value > 0)
            return e.culpritPr;
    return PrNumber{};
}

// "test_add" of "test/test_ops.py::TestOps::test_add"; the job for none.
QString shortTest(const AttributedFailure& f)
{
    return f.test.isEmpty() ? QCoreApplication::translate("Watch", "the job")
                            : f.test.section(QStringLiteral("::"), -1);
}

QString lineFor(const AttributedFailure& f)
{
    const WatchEvent& e = f.event;
    const QString where = e.backend.section(u'/', -1) % u' ' % parseJobLabel(e.job).compact;
    return f.ownRegression ? QCoreApplication::translate("Watch", "#%1's regression: %2 (%3)")
                                 .arg(f.culpritPr.value)
                                 .arg(shortTest(f), where)
                           : QCoreApplication::translate(
                                 "Watch", "#%1: %2 already broken upstream, likely by #%3 (%4)")
                                 .arg(e.pr)
                                 .arg(shortTest(f))
                                 .arg(f.culpritPr.value)
                                 .arg(where);
}

} // namespace

std::vector<AttributedFailure>
attributedFailures(const std::vector<triage::Suggestion>& suggestions,
                   const QHash<qint64, WatchEvent>& awaited)
{
    std::vector<AttributedFailure> out;
    std::set<std::pair<CheckRunRow, PrNumber>> seen; // (run, culprit)
    for (const triage::Suggestion& s : suggestions) {
        const auto it = awaited.constFind(s.target.checkRunRow.value);
        if (it == awaited.cend() || !it->notify)
            continue;
        AttributedFailure f;
        f.event = *it;
        f.test = toQString(s.target.identity);
        if (s.cls == triage::FailureClass::Regression && it->pr > 0) {
            f.culpritPr = PrNumber{it->pr};
            f.ownRegression = true;
        } else if (s.cls == triage::FailureClass::PreExisting) {
            f.culpritPr = culpritOf(s);
        }
        if (!f.culpritPr || !seen.emplace(f.event.runRowId, f.culpritPr).second)
            continue;
        out.push_back(std::move(f));
    }
    return out;
}

Notice noticeForAttributions(const std::vector<AttributedFailure>& failures)
{
    constexpr int kListed = 4;
    Notice notice;
    if (failures.empty())
        return notice;
    QStringList lines;
    std::set<PrNumber> culprits;
    for (const AttributedFailure& f : failures) {
        culprits.insert(f.culpritPr);
        if (notice.items < kListed)
            lines << lineFor(f);
        ++notice.items;
    }
    if (notice.items > kListed)
        lines << QCoreApplication::translate("Watch", "… and %1 more").arg(notice.items - kListed);
    notice.runRowId = failures.front().event.runRowId;
    notice.title =
        culprits.size() == 1
            ? QCoreApplication::translate("Watch", "RelayHUD: failure attributed to #%1")
                  .arg(culprits.begin()->value)
            : QCoreApplication::translate("Watch", "RelayHUD: failures attributed to %1 PRs")
                  .arg(culprits.size());
    notice.body = lines.join(u'\n');
    return notice;
}

} // namespace relayhud::ui
