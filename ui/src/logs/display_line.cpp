#include "relayhud/ui/logs/display_line.h"

#include <QLocale>

#include <algorithm>

namespace relayhud::ui {

namespace {

// "2026-07-29T23:58:10.4613408Z" -> "23:58:10.461": a job runs for hours, not
// days, and the column stays narrow.
QString shortTimestamp(const std::string& iso)
{
    const QString full = QString::fromLatin1(iso.data(), static_cast<qsizetype>(iso.size()));
    return full.size() >= 23 && full.at(10) == u'T' ? full.mid(11, 12) : full;
}

} // namespace

DisplayLine DisplayLine::fromLogLine(const LogLine& line)
{
    DecodedLine decoded = decodeLine(line.bytes);
    DisplayLine d;
    d.number = line.number;
    d.kind = decoded.kind;
    d.timestamp = shortTimestamp(decoded.timestamp);
    d.truncated = line.truncated();
    d.fullLength = line.length;
    d.display = QString::fromUtf8(decoded.text.data(), static_cast<qsizetype>(decoded.text.size()));
    d.m_textLength = static_cast<int>(d.display.size());
    if (d.display.contains(u'\t')) {
        QString expanded;
        expanded.reserve(d.display.size() + 16);
        int extra = 0;
        for (int i = 0; i < d.m_textLength; ++i) {
            const QChar c = d.display.at(i);
            if (c != u'\t') {
                expanded.append(c);
                continue;
            }
            const int column = static_cast<int>(expanded.size());
            const int width = kTabWidth - column % kTabWidth;
            expanded.append(QString(width, u' '));
            extra += width - 1;
            d.m_tabs.push_back({i, column, extra});
        }
        d.display = std::move(expanded);
    }
    d.utf8 = std::move(decoded.text);
    d.mapByteRanges(decoded.spans, [&d](const StyleSpan& s, int start, int end) {
        d.styles.push_back({start, end, s.style});
    });
    return d;
}

QString DisplayLine::cutMarker() const
{
    if (!truncated)
        return {};
    return u"… [line cut: " % QLocale().toString(static_cast<qulonglong>(fullLength)) % u" bytes]";
}

int DisplayLine::paintedColumns() const
{
    return truncated ? columns() + 1 + static_cast<int>(cutMarker().size()) : columns();
}

QString DisplayLine::text() const
{
    return QString::fromUtf8(utf8.data(), static_cast<qsizetype>(utf8.size()));
}

int DisplayLine::textLength() const { return m_textLength; }

int DisplayLine::columnOf(int textIndex) const
{
    if (m_tabs.empty())
        return textIndex;
    const auto it = std::partition_point(m_tabs.begin(), m_tabs.end(), [textIndex](const Tab& t) {
        return t.textIndex < textIndex;
    });
    return it == m_tabs.begin() ? textIndex : textIndex + (it - 1)->extra;
}

int DisplayLine::textIndexAt(int column) const
{
    column = std::max(column, 0);
    if (m_tabs.empty())
        return std::min(column, m_textLength);
    const auto it = std::partition_point(m_tabs.begin(), m_tabs.end(),
                                         [column](const Tab& t) { return t.column <= column; });
    if (it == m_tabs.begin())
        return std::min(column, m_textLength);
    const Tab& tab = *(it - 1);
    const int before = it - 1 == m_tabs.begin() ? 0 : (it - 2)->extra;
    const int width = tab.extra - before + 1;
    if (column < tab.column + width)
        return tab.textIndex;
    return std::min(column - tab.extra, m_textLength);
}

int Utf8Columns::columnAt(std::size_t byteOffset)
{
    const std::string& bytes = m_line.utf8;
    byteOffset = std::min(byteOffset, bytes.size());
    for (; m_byte < byteOffset; ++m_byte) {
        const auto b = static_cast<unsigned char>(bytes[m_byte]);
        if ((b & 0xC0) != 0x80)
            m_textIndex += b >= 0xF0 ? 2 : 1; // four-byte sequences are surrogate pairs
    }
    return m_line.columnOf(m_textIndex);
}

} // namespace relayhud::ui
