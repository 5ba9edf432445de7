#pragma once
// One config file open in the editor: what was loaded from disk (with its
// stamp, for the changed-on-disk check), the current text with the pending
// edits, and that text parsed. Plain data; the tree model and the undo
// commands change the text through setText().
#ifndef Q_MOC_RUN
#include "relayhud/config/config_file.h"
#include "relayhud/config/outcome_config.h"
#endif

#include <QString>

#include <string>
#include <string_view>
#include <vector>

namespace relayhud::ui {

class ConfigDocument {
public:
    // Reads and parses the file; an error for a file that cannot be read or
    // is not YAML (findings such as unknown keys are kept, not refused).
    static Result<ConfigDocument> load(const QString& path);

    const QString& path() const { return m_path; }
    // The folder `patch -p1` runs in: the nearest one above the file with a
    // .git, else the file's own folder.
    const QString& checkoutRoot() const { return m_root; }
    // The file relative to checkoutRoot(), with '/' separators.
    QString relativePath() const;

    const config::LoadedConfig& loaded() const { return m_loaded; }
    const std::string& text() const { return m_text; }
    const config::ParsedConfig& parsed() const { return m_parsed; }
    bool modified() const { return m_text != m_loaded.text; }

    // Replaces the current text (an edit, its undo, or a reload); refused
    // for a text that does not parse as YAML.
    Result<void> setText(std::string text);
    // After a save or a reload: `loaded` is what the disk now holds.
    Result<void> resetLoaded(config::LoadedConfig loaded);

    // The rationale around an entry: the comment block right above its first
    // line and a comment on that line. "" when none.
    QString entryComment(std::size_t section, std::size_t entry) const;
    // A name's inline comment ("# NotImplementedError ... issues/549").
    QString nameComment(std::size_t section, std::size_t entry, std::size_t name) const;

    // The unified diff of the pending edits, paths as `patch -p1` in
    // checkoutRoot() reads them; "" when unmodified.
    std::string pendingDiff() const;

private:
    std::string_view line(std::size_t number) const; // 1-based, without its terminator

    QString m_path;
    QString m_root;
    config::LoadedConfig m_loaded;
    std::string m_text;
    config::ParsedConfig m_parsed;
    std::vector<std::size_t> m_lineStarts; // offsets into m_text; copies stay valid
};

// The comment of a YAML line: from the first '#' that starts a comment (at
// the line start or after a blank, outside quotes), without the '#'; "" when
// none.
std::string_view yamlLineComment(std::string_view line);

} // namespace relayhud::ui
