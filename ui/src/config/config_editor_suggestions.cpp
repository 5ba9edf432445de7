// ConfigEditorWindow: the cache's suggestions, one move per method grouped
// by deciding entry (config/suggestion_groups.h); applying a selection, or
// all of them after the count and the diff (issue 36); and the check before
// promoting a test that never passed in its recent runs.
#include "relayhud/ui/config/config_editor_window.h"

#include "config/config_editor_cache.h"
#include "config/config_recent.h"
#include "relayhud/config/config_lint.h"
#include "relayhud/config/pass_record.h"
#include "relayhud/config/text_diff.h"
#include "relayhud/ui/common/format.h"
#include "relayhud/ui/config/config_tree_model.h"

#include <QFileInfo>
#include <QUndoStack>

namespace relayhud::ui {

using config::EditKind;
using config::Mode;

namespace {

QString modeLabel(Mode mode) { return QLatin1String(config::modeName(mode)); }

QString groupText(const config::SuggestionGroup& g)
{
    return g.entryIndex
               ? ConfigEditorWindow::tr("entry at line %1 · %2").arg(g.line).arg(modeLabel(g.mode))
               : ConfigEditorWindow::tr("not listed · %1").arg(modeLabel(g.mode));
}

} // namespace

const std::vector<config::Suggestion>& ConfigEditorWindow::suggestions(std::size_t doc) const
{
    return m_suggestions[doc];
}

const std::vector<config::SuggestionGroup>&
ConfigEditorWindow::suggestionGroups(std::size_t doc) const
{
    return m_groups[doc];
}

std::optional<QString> ConfigEditorWindow::evidenceFor(std::size_t doc, const std::string& method,
                                                       EditKind kind) const
{
    for (const config::Suggestion& s : m_suggestions[doc])
        if (s.baseName == method && s.kind == kind)
            return toQString(s.evidence);
    return std::nullopt;
}

std::vector<SuggestionRow> ConfigEditorWindow::suggestionRows(std::size_t doc) const
{
    std::vector<SuggestionRow> rows;
    const QString file = QFileInfo(m_model->document(doc).path()).fileName();
    std::size_t index = 0;
    for (const config::SuggestionGroup& group : m_groups[doc]) {
        const QString heading = groupText(group);
        for (const config::Suggestion& s : group.moves)
            rows.push_back({doc, index++,
                            s.kind == EditKind::Promote ? tr("promote") : tr("demote"),
                            toQString(s.baseName), toQString(s.evidence), file, heading});
    }
    return rows;
}

void ConfigEditorWindow::setConfigRepo(const QString& path, const QString& repo)
{
    const std::optional<std::size_t> doc = m_model->documentFor(path);
    if (!doc || m_repoOf.value(m_model->document(*doc).path()) == repo)
        return;
    m_repoOf.insert(m_model->document(*doc).path(), repo);
    refreshSuggestions();
}

void ConfigEditorWindow::refreshSuggestions()
{
    m_suggestions.assign(m_model->documentCount(), {});
    m_groups.assign(m_model->documentCount(), {});
    if (!m_cache)
        return;
    if (!m_cache->error.isEmpty()) {
        m_suggestionsPane->setRows({}, {});
        m_suggestionsPane->setStatus(m_cache->error);
        return;
    }
    config::SuggestOptions options;
    options.runs = m_cache->runs;
    std::vector<SuggestionRow> rows;
    QStringList warnings;
    std::size_t perJob = 0;
    for (std::size_t doc = 0; doc < m_model->documentCount(); ++doc) {
        const config::OutcomeConfig& cfg = m_model->document(doc).parsed().config;
        options.repo = m_repoOf.value(m_model->document(doc).path()).toStdString();
        const std::vector<config::Suggestion> all =
            config::suggestModeChanges(cfg, m_cache->recent, options);
        perJob += all.size();
        m_groups[doc] = config::groupSuggestions(cfg, all);
        m_suggestions[doc] = config::groupedMoves(m_groups[doc]);
        const std::vector<SuggestionRow> docRows = suggestionRows(doc);
        rows.insert(rows.end(), docRows.begin(), docRows.end());
        const QString file = QFileInfo(m_model->document(doc).path()).fileName();
        for (const config::Finding& finding : config::lintConfig(cfg, m_cache->known))
            warnings << file % u':' % toQString(config::formatFinding(finding));
    }
    m_suggestionsPane->setRows(rows, warnings);
    m_suggestionsPane->setStatus(
        tr("%1 moves, one per method (%2 job suggestions), from the last %3 runs of each of "
           "%4 jobs")
            .arg(rows.size())
            .arg(perJob)
            .arg(m_cache->runs)
            .arg(m_cache->recent.jobs.size()));
}

void ConfigEditorWindow::applySuggestionRefs(const std::vector<SuggestionRef>& refs, bool confirm)
{
    std::vector<std::vector<config::Suggestion>> byDoc(m_model->documentCount());
    std::size_t total = 0;
    QStringList files;
    for (const SuggestionRef& ref : refs)
        if (ref.doc < m_suggestions.size() && ref.index < m_suggestions[ref.doc].size()) {
            byDoc[ref.doc].push_back(m_suggestions[ref.doc][ref.index]);
            ++total;
        }
    for (std::size_t doc = 0; doc < byDoc.size(); ++doc)
        if (!byDoc[doc].empty())
            files << QFileInfo(m_model->document(doc).path()).fileName();
    if (total == 0)
        return;
    RationaleRequest ask{
        tr("%1 suggestions in %2")
            .arg(total)
            .arg(files.size() == 1 ? files.front() : tr("%1 configs").arg(files.size())),
        tr("as listed"),
        tr("each suggestion's own"),
        {}};
    const config::Suggestion* single = nullptr;
    for (const auto& chosen : byDoc)
        if (total == 1 && !chosen.empty())
            single = &chosen.front();
    if (single)
        ask = {toQString(single->baseName),
               modeLabel(single->from) % QStringLiteral(" → ") % modeLabel(single->to),
               toQString(single->evidence),
               {}};
    const std::optional<Rationale> why = m_askRationale(ask);
    if (!why)
        return;
    for (auto& chosen : byDoc)
        if (total == 1 && !chosen.empty())
            chosen.front().evidence = why->evidence.toStdString();
    applyPlanned(byDoc, why->reason.toStdString(), confirm);
}

void ConfigEditorWindow::applyPlanned(const std::vector<std::vector<config::Suggestion>>& byDoc,
                                      const std::string& reason, bool confirm)
{
    std::vector<std::pair<std::size_t, config::AppliedSuggestions>> plans;
    ApplyAllRequest request;
    QStringList skipped;
    for (std::size_t doc = 0; doc < byDoc.size(); ++doc) {
        if (byDoc[doc].empty())
            continue;
        const ConfigDocument& document = m_model->document(doc);
        config::AppliedSuggestions applied =
            config::applySuggestions(document.text(), byDoc[doc], reason);
        for (const std::string& s : applied.skipped)
            skipped << toQString(s);
        if (applied.applied.empty())
            continue;
        request.moves += static_cast<int>(applied.applied.size());
        request.configs << QFileInfo(document.path()).fileName();
        request.diff += toQString(config::unifiedDiff(document.text(), applied.text,
                                                      document.relativePath().toStdString()));
        plans.emplace_back(doc, std::move(applied));
    }
    if (plans.empty()) {
        showMessage(tr("Nothing applied: %1").arg(skipped.isEmpty() ? QString() : skipped.front()));
        return;
    }
    if (confirm && !m_askApplyAll(request)) {
        showMessage(tr("Apply all cancelled: nothing changed"));
        return;
    }
    if (plans.size() > 1)
        m_undo->beginMacro(tr("Apply %1 suggestions").arg(request.moves));
    for (const auto& [doc, applied] : plans)
        applyEdit(doc, applied.text,
                  applied.applied.size() == 1
                      ? toQString(applied.applied.front())
                      : tr("Apply %1 suggestions").arg(applied.applied.size()),
                  toQString(byDoc[doc].front().baseName));
    if (plans.size() > 1)
        m_undo->endMacro();
    if (!skipped.isEmpty())
        showMessage(tr("Applied %1, skipped %2: %3")
                        .arg(request.moves)
                        .arg(skipped.size())
                        .arg(skipped.front()));
}

bool ConfigEditorWindow::promotionConfirmed(const ConfigNodeRef& ref, const QString& test)
{
    if (!m_cache || !m_cache->error.isEmpty())
        return true; // no history to judge by (the details pane says so)
    const config::Resolver resolver(m_model->document(ref.doc).parsed().config);
    const bool revealed = m_revealed && m_revealed->doc == ref.doc
                          && m_revealed->section == ref.section && m_revealed->entry == ref.entry;
    const std::vector<std::size_t> tests =
        revealed ? testsOfMethod(m_cache->recent, resolver, ref.section, m_revealed->method)
                 : testsNamedBy(m_cache->recent, resolver, ref.section, ref.entry, ref.name);
    const std::optional<std::string> warning =
        config::neverPassedWarning(config::passRecord(m_cache->recent, tests));
    if (!warning || m_askNeverPassed(test, toQString(*warning)))
        return true;
    showMessage(tr("Not promoted: %1 %2").arg(test, toQString(*warning)));
    return false;
}

} // namespace relayhud::ui
