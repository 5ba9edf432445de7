// ConfigEditorWindow: moving tests (planModeEdit behind QUndoStack), the
// cache read on a worker, suggestions, revealTest and the details pane.
#include "relayhud/ui/config/config_editor_window.h"

#include "config/config_editor_cache.h"
#include "config/config_recent.h"

#include "relayhud/config/config_explain.h"
#include "relayhud/config/config_lint.h"
#include "relayhud/config/spyre_names.h"
#include "relayhud/junit/mark_tags.h"
#include "relayhud/store/database.h"
#include "relayhud/store/evidence_store.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/config/config_details_pane.h"
#include "relayhud/ui/config/config_tree_model.h"

#include <QComboBox>
#include <QFileInfo>
#include <QLineEdit>
#include <QTreeView>
#include <QUndoCommand>
#include <QUndoStack>
#include <QtConcurrent/QtConcurrentRun>

namespace relayhud::ui {

using config::EditKind;
using config::Mode;

namespace {

constexpr int kHistoryRows = 24;

// One edit of one document: the whole text before and after, so undo and
// redo are exact whatever planModeEdit did.
class ConfigTextCommand : public QUndoCommand {
public:
    using Apply = std::function<void(std::size_t, const std::string&, const QString&)>;
    ConfigTextCommand(Apply apply, std::size_t doc, std::string before, std::string after,
                      const QString& summary, QString focus)
        : QUndoCommand(summary), m_apply(std::move(apply)), m_doc(doc), m_before(std::move(before)),
          m_after(std::move(after)), m_focus(std::move(focus))
    {
    }
    void redo() override { m_apply(m_doc, m_after, m_focus); }
    void undo() override { m_apply(m_doc, m_before, m_focus); }

private:
    Apply m_apply;
    std::size_t m_doc;
    std::string m_before;
    std::string m_after;
    QString m_focus;
};

QString modeText(Mode mode) { return QLatin1String(config::modeName(mode)); }

// "Outcome: xfail" and each step the resolver took.
QStringList explanationLines(const config::Resolution& r)
{
    QStringList lines{
        QObject::tr("Outcome: %1").arg(QLatin1String(config::outcomeName(r.outcome)))};
    for (const std::string& step : r.steps)
        lines << QStringLiteral("• ") % toQString(step);
    return lines;
}

// The test of a name as planModeEdit reads it: with its files entry's path
// when the config has several.
std::string testOf(const config::OutcomeConfig& config, std::size_t section,
                   const std::string& name)
{
    return config.files.size() == 1 ? name : config.files[section].path + "::" + name;
}

} // namespace

std::optional<ConfigNodeRef> ConfigEditorWindow::currentRef() const
{
    return m_model->refAt(m_proxy->mapToSource(m_tree->currentIndex()));
}

void ConfigEditorWindow::moveSelected(EditKind kind)
{
    const std::optional<ConfigNodeRef> ref = currentRef();
    if (!ref || ref->kind != ConfigNodeRef::Name)
        return;
    const ConfigDocument& doc = m_model->document(ref->doc);
    const config::OutcomeConfig& cfg = doc.parsed().config;
    const config::TestEntry& entry = cfg.files[ref->section].tests[ref->entry];
    const config::NameItem& item = entry.names[ref->name];
    const bool revealed = m_revealed && m_revealed->doc == ref->doc
                          && m_revealed->section == ref->section && m_revealed->entry == ref->entry;
    if (item.regex && !revealed) {
        showMessage(tr("'%1' is a regular expression that governs every method it matches; "
                       "open a test in the config (Open in config, or Reveal test…) to move "
                       "that test alone")
                        .arg(toQString(item.name)));
        return;
    }
    if (!item.regex && !revealed && config::parseVariantName(item.method, {}).deviceFound) {
        showMessage(tr("'%1' names a variant; the framework matches base methods only, so this "
                       "listing never matches anything. List '%2' instead.")
                        .arg(toQString(item.name),
                             toQString(config::parseVariantName(item.method, {}).base)));
        return;
    }
    const std::string name = revealed ? m_revealed->test : item.name;
    const std::string method = revealed ? m_revealed->method : item.method;
    const Mode from = revealed ? m_revealed->mode : entry.effectiveMode();
    RationaleRequest ask{toQString(name), {}, {}, {}};
    if (kind == EditKind::SetMode)
        ask.current = from;
    else
        ask.move = modeText(from) % QStringLiteral(" → ")
                   % modeText(kind == EditKind::Promote ? Mode::MandatorySuccess : Mode::Xfail);
    ask.evidence = evidenceFor(ref->doc, method, kind).value_or(QString());
    if (kind == EditKind::Promote && !promotionConfirmed(*ref, toQString(name)))
        return;
    const std::optional<Rationale> why = m_askRationale(ask);
    if (!why)
        return;
    if (kind == EditKind::SetMode && why->mode == Mode::MandatorySuccess
        && !promotionConfirmed(*ref, toQString(name)))
        return;
    config::EditRequest request{revealed ? name : testOf(cfg, ref->section, name),
                                {},
                                kind,
                                why->mode,
                                why->reason.toStdString(),
                                why->evidence.toStdString()};
    if (revealed)
        request.marks = m_revealed->marks;
    Result<config::ModeEdit> edit = config::planModeEdit(doc.text(), request);
    if (!edit) {
        showMessage(tr("Not changed: %1").arg(toQString(edit.message())));
        return;
    }
    applyEdit(ref->doc, edit->text, toQString(edit->summary), toQString(edit->listedName));
    if (!edit->warnings.empty())
        showMessage(tr("Warning: %1").arg(toQString(edit->warnings.front())));
}

bool ConfigEditorWindow::applyEdit(std::size_t doc, const std::string& newText,
                                   const QString& summary, const QString& focus)
{
    const auto apply = [this](std::size_t d, const std::string& text, const QString& name) {
        if (Result<void> set = m_model->setText(d, text); !set)
            showMessage(tr("Cannot apply: %1").arg(toQString(set.message())));
        textChanged(d, name);
    };
    m_undo->push(
        new ConfigTextCommand(apply, doc, m_model->document(doc).text(), newText, summary, focus));
    showMessage(summary);
    return true;
}

void ConfigEditorWindow::textChanged(std::size_t doc, const QString& focus)
{
    m_revealed.reset(); // its indexes are the old text's
    m_tree->expand(m_proxy->mapFromSource(m_model->indexFor(doc)));
    refreshSuggestions();
    updateDiff();
    if (!focus.isEmpty())
        selectName(doc, focus);
    showDetails();
}

void ConfigEditorWindow::selectSource(const QModelIndex& sourceIndex)
{
    const QModelIndex index = m_proxy->mapFromSource(sourceIndex);
    if (!index.isValid())
        return;
    m_tree->setCurrentIndex(index);
    m_tree->scrollTo(index, QAbstractItemView::PositionAtCenter);
}

// The listing written as `name`, else the first exact listing of its method.
void ConfigEditorWindow::selectName(std::size_t doc, const QString& baseName)
{
    const std::string name = baseName.toStdString();
    const std::string_view method = methodOf(name);
    const config::OutcomeConfig& cfg = m_model->document(doc).parsed().config;
    std::optional<QModelIndex> sameMethod;
    for (std::size_t s = 0; s < cfg.files.size(); ++s)
        for (std::size_t e = 0; e < cfg.files[s].tests.size(); ++e)
            for (std::size_t n = 0; n < cfg.files[s].tests[e].names.size(); ++n) {
                const config::NameItem& item = cfg.files[s].tests[e].names[n];
                if (item.name == name) {
                    selectSource(m_model->indexFor(doc, s, e, n));
                    return;
                }
                if (!sameMethod && !item.regex && item.method == method)
                    sameMethod = m_model->indexFor(doc, s, e, n);
            }
    if (sameMethod)
        selectSource(*sameMethod);
}

bool ConfigEditorWindow::revealTest(const QString& baseNameOrIdentity, const QString& marks,
                                    const QString& inConfig)
{
    const std::optional<std::size_t> only =
        inConfig.isEmpty() ? std::nullopt : m_model->documentFor(inConfig);
    config::TestQuery query = config::parseTestQuery(baseNameOrIdentity.toStdString());
    const TestMarks testMarks = parseMarkTags(marks.toStdString());
    for (const std::string_view op : testMarks.values(MarkKind::Op))
        query.ops.emplace_back(op);
    std::optional<std::pair<std::size_t, config::Resolution>> found;
    for (std::size_t doc = 0; doc < m_model->documentCount(); ++doc) {
        if (only && doc != *only)
            continue;
        Result<config::Resolution> ex =
            config::explainTest(m_model->document(doc).parsed().config, query);
        if (!ex)
            continue;
        // A listing beats a file that only does not list the test.
        if (!found
            || (found->second.decision == config::Decision::Unlisted
                && ex->decision != config::Decision::Unlisted))
            found.emplace(doc, std::move(*ex));
    }
    if (!found) {
        showMessage(tr("No open config has %1").arg(baseNameOrIdentity));
        return false;
    }
    const auto& [doc, ex] = *found;
    m_filterText->clear();
    m_filterMode->setCurrentIndex(0);
    const QModelIndex target =
        m_model->document(doc).parsed().config.files.size() == 1 && !ex.entryIndex
            ? m_model->indexFor(doc)
            : m_model->indexFor(doc, ex.fileIndex, ex.entryIndex, ex.nameIndex);
    selectSource(target);
    if (ex.entryIndex)
        m_revealed = RevealedTest{
            doc,         ex.fileIndex,  *ex.entryIndex, baseNameOrIdentity.toStdString(),
            testMarks,   ex.configMode, ex.baseMethod,  explanationLines(ex),
            ex.nameIndex};
    else
        m_revealed.reset();
    m_details->showText(baseNameOrIdentity, explanationLines(ex));
    updateActions();
    return true;
}

void ConfigEditorWindow::showDetails()
{
    const std::optional<ConfigNodeRef> ref = currentRef();
    if (!ref) {
        m_details->showText(tr("Nothing selected"),
                            {tr("Select a name to see why it has its mode.")});
        m_details->setHistories({}, 0, {});
        return;
    }
    const ConfigDocument& doc = m_model->document(ref->doc);
    const config::OutcomeConfig& cfg = doc.parsed().config;
    if (ref->kind == ConfigNodeRef::File || ref->kind == ConfigNodeRef::Section) {
        showFileDetails(doc);
        return;
    }
    const config::TestEntry& entry = cfg.files[ref->section].tests[ref->entry];
    if (ref->kind == ConfigNodeRef::Entry) {
        QStringList lines{tr("Mode: %1%2")
                              .arg(modeText(entry.effectiveMode()),
                                   entry.mode ? QString() : tr(" (no mode: the default)")),
                          tr("%1 names").arg(entry.names.size())};
        if (const QString why = doc.entryComment(ref->section, ref->entry); !why.isEmpty())
            lines << tr("Rationale: %1").arg(why);
        m_details->showText(tr("Entry at line %1").arg(entry.pos.line), lines);
        m_details->setHistories({}, 0, tr("Select a name to see its history."));
        return;
    }
    const config::NameItem& item = entry.names[ref->name];
    // A revealed test keeps its own explanation (its marks decide), also when
    // the cache arrives after it was revealed.
    const bool revealed = m_revealed && m_revealed->doc == ref->doc
                          && m_revealed->section == ref->section && m_revealed->entry == ref->entry
                          && m_revealed->name == ref->name;
    if (revealed)
        m_details->showText(toQString(m_revealed->test), m_revealed->explanation);
    else
        m_details->showText(toQString(item.name), nameLines(doc, *ref, entry, item));
    showNameHistory(cfg, *ref);
}

// A file or section: its path, its counts and the file's findings.
void ConfigEditorWindow::showFileDetails(const ConfigDocument& doc)
{
    const config::OutcomeConfig& cfg = doc.parsed().config;
    QStringList lines{doc.path()};
    std::size_t names = 0;
    for (const config::FileSection& section : cfg.files)
        for (const config::TestEntry& entry : section.tests)
            names += entry.names.size();
    lines << tr("%1 files entries, %2 names").arg(cfg.files.size()).arg(names);
    for (const config::Finding& finding : doc.parsed().findings)
        lines << toQString(config::formatFinding(finding));
    m_details->showText(QFileInfo(doc.path()).fileName(), lines);
    m_details->setHistories({}, 0, tr("Select a name to see its history."));
}

// A name: what the framework makes of it, its comment and the suggestions.
QStringList ConfigEditorWindow::nameLines(const ConfigDocument& doc, const ConfigNodeRef& ref,
                                          const config::TestEntry& entry,
                                          const config::NameItem& item) const
{
    const config::OutcomeConfig& cfg = doc.parsed().config;
    QStringList lines;
    if (item.regex) {
        lines << tr("A regular expression (Python, fullmatched against each base method; the "
                    "class part is ignored). Exact listings beat it wherever they are; among "
                    "regexes the first in the file wins. It gives %1 to the methods it decides.")
                     .arg(modeText(entry.effectiveMode()));
        if (item.regexStatus != config::RegexStatus::Ok)
            lines << tr("RelayHUD cannot run it (see the file's findings): tests it might "
                        "govern are reported as 'cannot judge'.");
    } else if (Result<config::Resolution> ex = config::explainTest(
                   cfg, config::parseTestQuery(testOf(cfg, ref.section, item.name)))) {
        lines << explanationLines(*ex);
    }
    if (const QString why = doc.nameComment(ref.section, ref.entry, ref.name); !why.isEmpty())
        lines << tr("Comment: %1").arg(why);
    for (const EditKind kind : {EditKind::Promote, EditKind::Demote})
        if (const std::optional<QString> evidence = evidenceFor(ref.doc, item.method, kind))
            lines << tr("Suggested: %1 (%2)")
                         .arg(kind == EditKind::Promote ? tr("promote") : tr("demote"), *evidence);
    return lines;
}

// The recent runs of the tests a name decides, or why there are none.
void ConfigEditorWindow::showNameHistory(const config::OutcomeConfig& cfg, const ConfigNodeRef& ref)
{
    const QString note = m_cachePath.isEmpty() ? tr("No cache: history and suggestions are off.")
                         : !m_cache            ? tr("Reading the cache…")
                         : !m_cache->error.isEmpty()
                             ? m_cache->error
                             : tr("No recent run in the cache has this test.");
    if (!m_cache || !m_cache->error.isEmpty()) {
        m_details->setHistories({}, 0, note);
        return;
    }
    int more = 0;
    const config::Resolver resolver(cfg);
    const std::vector<HistoryRow> rows = historyRows(
        m_cache->recent, testsNamedBy(m_cache->recent, resolver, ref.section, ref.entry, ref.name),
        kHistoryRows, &more);
    m_details->setHistories(rows, more, note);
}

void ConfigEditorWindow::reloadCache()
{
    const int id = ++m_cacheLoadId;
    m_cache.reset();
    if (m_cachePath.isEmpty()) {
        m_suggestionsPane->setStatus(tr("No cache: open the editor from RelayHUD to get "
                                        "suggestions and history."));
        return;
    }
    m_suggestionsPane->setStatus(tr("Reading the cache…"));
    const int runs = m_suggestionsPane->runs();
    QtConcurrent::run([path = m_cachePath, runs] {
        auto read = std::make_shared<CacheData>();
        read->runs = runs;
        if (!QFileInfo::exists(path)) {
            read->error = tr("No cache at %1").arg(path);
            return std::shared_ptr<const CacheData>(std::move(read));
        }
        Result<std::unique_ptr<Database>> cache = Database::open(path.toStdString());
        Result<RecentResults> recent = cache ? EvidenceStore(**cache).recentResults({runs, ""})
                                             : Result<RecentResults>(cache.error());
        Result<std::vector<KnownTest>> known = cache
                                                   ? EvidenceStore(**cache).knownTests()
                                                   : Result<std::vector<KnownTest>>(cache.error());
        if (!recent || !known) {
            read->error = tr("Cannot read the cache: %1")
                              .arg(toQString(!recent ? recent.message() : known.message()));
        } else {
            read->recent = std::move(*recent);
            read->known = std::move(*known);
        }
        return std::shared_ptr<const CacheData>(std::move(read));
    }).then(this, [this, id](std::shared_ptr<const CacheData> read) {
        if (id != m_cacheLoadId)
            return; // a newer read was asked for
        cacheReady(std::move(read));
    });
}

void ConfigEditorWindow::cacheReady(std::shared_ptr<const CacheData> read)
{
    m_cache = std::move(read);
    refreshSuggestions();
    showDetails();
    emit cacheLoaded(m_cache->error.isEmpty());
}

} // namespace relayhud::ui
