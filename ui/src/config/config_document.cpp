#include "relayhud/ui/config/config_document.h"

#include "relayhud/config/text_diff.h"
#include "relayhud/ui/common/format.h"

#include <QDir>
#include <QFileInfo>

namespace relayhud::ui {

namespace {

QString findCheckoutRoot(const QString& file)
{
    QDir dir = QFileInfo(file).absoluteDir();
    const QString own = dir.absolutePath();
    do {
        if (QFileInfo::exists(dir.filePath(QStringLiteral(".git"))))
            return dir.absolutePath();
    } while (dir.cdUp());
    return own;
}

std::string_view trimmed(std::string_view text)
{
    const std::size_t first = text.find_first_not_of(" \t");
    if (first == std::string_view::npos)
        return {};
    const std::size_t last = text.find_last_not_of(" \t\r\n");
    return text.substr(first, last - first + 1);
}

} // namespace

std::string_view yamlLineComment(std::string_view line)
{
    char quote = 0;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quote) {
            quote = c == quote ? 0 : quote;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '#' && (i == 0 || line[i - 1] == ' ' || line[i - 1] == '\t')) {
            return trimmed(line.substr(i + 1));
        }
    }
    return {};
}

Result<ConfigDocument> ConfigDocument::load(const QString& path)
{
    Result<config::LoadedConfig> loaded = config::loadConfigFile(path.toStdString());
    if (!loaded)
        return loaded.error();
    ConfigDocument doc;
    doc.m_path = QFileInfo(path).absoluteFilePath();
    doc.m_root = findCheckoutRoot(doc.m_path);
    std::string text = loaded->text;
    doc.m_loaded = std::move(*loaded);
    if (Result<void> set = doc.setText(std::move(text)); !set)
        return makeError(path.toStdString() + ": " + set.message());
    return doc;
}

QString ConfigDocument::relativePath() const { return QDir(m_root).relativeFilePath(m_path); }

Result<void> ConfigDocument::setText(std::string text)
{
    Result<config::ParsedConfig> parsed = config::parseOutcomeConfig(text);
    if (!parsed)
        return parsed.error();
    m_text = std::move(text);
    m_parsed = std::move(*parsed);
    m_lineStarts.assign(1, 0);
    for (std::size_t i = 0; i < m_text.size(); ++i)
        if (m_text[i] == '\n')
            m_lineStarts.push_back(i + 1);
    return {};
}

Result<void> ConfigDocument::resetLoaded(config::LoadedConfig loaded)
{
    std::string text = loaded.text;
    if (Result<void> set = setText(std::move(text)); !set)
        return set;
    m_loaded = std::move(loaded);
    return {};
}

std::string_view ConfigDocument::line(std::size_t number) const
{
    if (number == 0 || number > m_lineStarts.size())
        return {};
    const std::size_t start = m_lineStarts[number - 1];
    const std::size_t end = number < m_lineStarts.size() ? m_lineStarts[number] - 1 : m_text.size();
    std::string_view text(m_text.data() + start, end - start);
    if (!text.empty() && text.back() == '\r')
        text.remove_suffix(1);
    return text;
}

QString ConfigDocument::entryComment(std::size_t section, std::size_t entry) const
{
    const config::TestEntry& e = m_parsed.config.files[section].tests[entry];
    std::vector<std::string_view> block;
    for (std::size_t n = e.pos.line - 1; n >= 1; --n) {
        const std::string_view text = trimmed(line(n));
        if (text.empty() || text.front() != '#')
            break;
        block.insert(block.begin(), yamlLineComment(text));
    }
    if (const std::string_view own = yamlLineComment(line(e.pos.line)); !own.empty())
        block.push_back(own);
    QStringList parts;
    for (const std::string_view part : block) {
        // Banner lines of '#' say nothing.
        if (part.find_first_not_of("#") != std::string_view::npos)
            parts << toQString(trimmed(part.substr(part.find_first_not_of("#"))));
    }
    return parts.join(u' ');
}

QString ConfigDocument::nameComment(std::size_t section, std::size_t entry, std::size_t name) const
{
    const config::NameItem& item = m_parsed.config.files[section].tests[entry].names[name];
    const std::string_view text = line(item.pos.line);
    // Past the scalar, so a '#' inside a flow list's other names is not taken.
    std::size_t from = item.pos.column - 1 + item.name.size();
    if (item.pos.column - 1 < text.size()
        && (text[item.pos.column - 1] == '\'' || text[item.pos.column - 1] == '"'))
        from += 2; // the quotes around the scalar
    from = std::min(text.size(), from);
    return toQString(yamlLineComment(text.substr(from)));
}

std::string ConfigDocument::pendingDiff() const
{
    return config::unifiedDiff(m_loaded.text, m_text, relativePath().toStdString());
}

} // namespace relayhud::ui
