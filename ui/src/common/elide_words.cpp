#include "relayhud/ui/common/elide_words.h"

#include <QFontMetrics>

namespace relayhud::ui {

QString elideAtWord(const QString& text, const QFontMetrics& metrics, int width)
{
    if (metrics.horizontalAdvance(text) <= width)
        return text;
    const QString ellipsis(QChar(0x2026));
    const int room = width - metrics.horizontalAdvance(ellipsis);
    qsizetype cut = -1;
    // The words' ends in order: the last one that fits wins.
    for (qsizetype i = text.indexOf(u' '); i > 0; i = text.indexOf(u' ', i + 1)) {
        const QString head = text.left(i).trimmed();
        if (metrics.horizontalAdvance(head) > room)
            break;
        if (!head.isEmpty())
            cut = i;
    }
    if (cut < 0)
        return metrics.elidedText(text, Qt::ElideRight, width);
    QString head = text.left(cut).trimmed();
    while (!head.isEmpty() && (head.back() == u',' || head.back() == u':' || head.back() == u';'))
        head.chop(1);
    return head + ellipsis;
}

} // namespace relayhud::ui
