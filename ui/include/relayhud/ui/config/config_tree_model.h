#pragma once
// The open configs as a tree: file -> (files entry, when a config has
// several) -> test entry -> name, with each row's mode, edits and rationale.
// Owns the ConfigDocuments. A document's text changes through setText(),
// which replaces that document's rows only: the other files keep their
// expansion and selection.
#include "relayhud/ui/config/config_document.h"

#include <QAbstractItemModel>

#include <memory>
#include <optional>
#include <vector>

namespace relayhud::ui {

// Where a row points in its document; indices into ParsedConfig's vectors.
struct ConfigNodeRef {
    enum Kind : unsigned char { File, Section, Entry, Name };
    Kind kind = File;
    std::size_t doc = 0;
    std::size_t section = 0;
    std::size_t entry = 0;
    std::size_t name = 0;
};

class ConfigTreeModel : public QAbstractItemModel {
    Q_OBJECT
public:
    enum Column { NameColumn, ModeColumn, EditsColumn, RationaleColumn, ColumnCount };
    enum Role {
        KindRole = Qt::UserRole, // ConfigNodeRef::Kind
        ModeRole,                // config::Mode as int; invalid for a file row
        LineRole,                // 1-based source line; 0 for a file row
        PatternRole,             // bool: a name with * ? [ ]
        SearchTextRole,          // name, edits and rationale, for the filter
    };

    explicit ConfigTreeModel(QObject* parent = nullptr);
    ~ConfigTreeModel() override;

    // Adds a document (or replaces the one with the same path); returns its index.
    std::size_t addDocument(ConfigDocument document);
    std::size_t documentCount() const { return m_docs.size(); }
    const ConfigDocument& document(std::size_t doc) const { return *m_docs[doc].document; }
    std::optional<std::size_t> documentFor(const QString& path) const;
    Result<void> setText(std::size_t doc, std::string text);
    Result<void> resetLoaded(std::size_t doc, config::LoadedConfig loaded);

    std::optional<ConfigNodeRef> refAt(const QModelIndex& index) const;
    QModelIndex indexFor(std::size_t doc) const;
    QModelIndex indexFor(std::size_t doc, std::size_t section, std::optional<std::size_t> entry,
                         std::optional<std::size_t> name) const;

    QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
    QModelIndex parent(const QModelIndex& child) const override;
    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

private:
    struct Node;
    struct Doc {
        std::unique_ptr<ConfigDocument> document;
        std::unique_ptr<Node> root;
    };

    void rebuild(std::size_t doc);
    QVariant display(const Node& node, int column) const;
    Node* nodeOf(const QModelIndex& index) const;

    std::vector<Doc> m_docs;
};

} // namespace relayhud::ui

#include <QSortFilterProxyModel>

namespace relayhud::ui {

// Filters names (and entries) by text in their name, edits or rationale and
// by mode; the files and entries above a match stay (recursive filtering).
class ConfigFilterProxy : public QSortFilterProxyModel {
public:
    explicit ConfigFilterProxy(QObject* parent = nullptr);

    void setText(const QString& text);
    void setMode(std::optional<config::Mode> mode);

protected:
    bool filterAcceptsRow(int sourceRow, const QModelIndex& sourceParent) const override;

private:
    QString m_text;
    std::optional<config::Mode> m_mode;
};

} // namespace relayhud::ui
