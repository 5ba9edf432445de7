#include "relayhud/ui/common/job_label.h"

#include <QRegularExpression>
#include <QStringList>

namespace relayhud::ui {

namespace {

// "NAME (a, b, ...)"
const QRegularExpression& parenthesised()
{
    static const QRegularExpression re(QStringLiteral("^(.+?) \\((.*)\\)$"));
    return re;
}

// "prefix-3", "prefix_12": the HUD's numeric suffix.
const QRegularExpression& numericSuffix()
{
    static const QRegularExpression re(QStringLiteral("^(.+[-_])(\\d+)$"));
    return re;
}

bool readPositive(const QString& text, int& out)
{
    bool ok = false;
    const int value = text.trimmed().toInt(&ok);
    if (!ok || value <= 0)
        return false;
    out = value;
    return true;
}

JobLabel shardedTest(const QString& name, const QStringList& parts)
{
    JobLabel label;
    const QString config = parts[0].trimmed();
    if (!readPositive(parts[1], label.shard) || !readPositive(parts[2], label.shards)
        || label.shard > label.shards || config.isEmpty())
        return {};
    label.runner = parts.mid(3).join(QStringLiteral(", ")).trimmed();
    // "test" is every such job's name: the config tells them apart.
    const QString head = name == QLatin1String("test") ? config : name + u' ' + config;
    label.compact = label.shards > 1 ? head + u' ' + QString::number(label.shard) + u'/'
                                           + QString::number(label.shards)
                                     : head;
    if (label.shards > 1) {
        label.family = name + u'\x1f' + config + u'\x1f' + QString::number(label.shards) + u'\x1f'
                       + label.runner;
        label.groupName = head;
    } else {
        label.shard = 0;
        label.shards = 0;
    }
    return label;
}

} // namespace

JobLabel parseJobLabel(const QString& job)
{
    // PyTorch-style names lead with the build environment, "linux-rhel9.6-
    // cuda13.0-py3.12-gcc11-x86_64 / test (sgpu, linux.rhel96)" (TorchedHat's
    // crcr-nightly.yml, real-backends.md 1.4): the part after the last " / "
    // tells a backend's columns apart; the header's tooltip keeps the whole.
    const qsizetype slash = job.lastIndexOf(QLatin1String(" / "));
    const QString tail = slash > 0 ? job.mid(slash + 3) : job;
    const QRegularExpressionMatch match = parenthesised().match(tail);
    if (match.hasMatch()) {
        const QStringList parts = match.captured(2).split(u',');
        if (parts.size() >= 3) {
            JobLabel label = shardedTest(match.captured(1), parts);
            if (!label.compact.isEmpty())
                return label;
        }
        if (parts.size() == 2 && !parts[0].trimmed().isEmpty()) {
            // "test (config, runner)": one leg per config.
            JobLabel label;
            label.compact = match.captured(1) + u' ' + parts[0].trimmed();
            label.runner = parts[1].trimmed();
            return label;
        }
    }
    JobLabel label;
    label.compact = slash > 0 ? tail : job;
    const QRegularExpressionMatch suffix = numericSuffix().match(job);
    if (suffix.hasMatch()) {
        label.family = suffix.captured(1);
        label.groupName = suffix.captured(1).chopped(1);
        label.shard = suffix.captured(2).toInt();
    }
    return label;
}

} // namespace relayhud::ui
