#include "relayhud/ui/tests/tests_filter.h"

namespace relayhud::ui {

bool TestsFilter::allowsOutcome(TestOutcome outcome) const
{
    return outcomes == 0 || (outcomes & outcomeBit(outcome)) != 0;
}

QStringList TestsFilter::words() const
{
    // simplified() turns tabs, newlines and runs of blanks into single spaces.
    QStringList words;
    for (const QString& word :
         text.toCaseFolded().simplified().split(QChar(u' '), Qt::SkipEmptyParts))
        if (!words.contains(word))
            words.append(word);
    return words;
}

} // namespace relayhud::ui
