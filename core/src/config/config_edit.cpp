// planModeEdit(): finds which of the four cases of issue 6 applies (one-name
// entry, several names, pattern, unlisted), splices the lines for it, and
// proves the result with a re-parse (config_verify.h).
#include "relayhud/config/config_edit.h"

#include "config_text.h"
#include "config_verify.h"

#include "relayhud/config/config_explain.h"

namespace relayhud::config {
namespace {

std::string spaces(std::size_t n) { return std::string(n, ' '); }

std::string at(std::size_t line) { return "line " + std::to_string(line); }

// "   -  " before a list item's first character.
bool isItemPrefix(std::string_view prefix)
{
    const std::size_t dash = prefix.find_first_not_of(' ');
    return dash != std::string_view::npos && prefix[dash] == '-'
           && prefix.find_first_not_of(' ', dash + 1) == std::string_view::npos
           && prefix.size() > dash + 1;
}

struct EntryLayout {
    std::size_t start = 0;   // the `- names:` line
    std::size_t end = 0;     // last content line
    std::size_t dashCol = 0; // 0-based columns
    std::size_t keyCol = 0;
    std::size_t namesEnd = 0; // first line after the names list (a key, or end + 1)
};

Result<EntryLayout> entryLayout(const ConfigText& text, const TestEntry& entry)
{
    EntryLayout layout;
    layout.start = entry.pos.line;
    layout.keyCol = entry.pos.column - 1;
    const std::string_view first = text.body(layout.start);
    if (!isItemPrefix(first.substr(0, layout.keyCol)) || first.substr(layout.keyCol, 5) != "names")
        return makeError("the entry at " + at(layout.start)
                         + " is not written as `- names:` in block style; edit it by hand");
    if (entry.names.empty())
        return makeError("the entry at " + at(layout.start) + " has no names");
    layout.dashCol = first.find('-');
    layout.end = text.blockEnd(layout.start, layout.keyCol);
    std::size_t lastItem = layout.start;
    for (const NameItem& item : entry.names)
        lastItem = std::max(lastItem, item.pos.line);
    layout.namesEnd = text.nextLineAtMost(lastItem, layout.end, layout.keyCol);
    return layout;
}

// The item's own line must hold just `- name  # comment` for it to move.
Result<std::size_t> itemColumn(const ConfigText& text, const NameItem& item)
{
    const std::size_t col = item.pos.column - 1;
    const std::string_view body = text.body(item.pos.line);
    if (!isItemPrefix(body.substr(0, col)))
        return makeError("'" + item.name + "' at " + at(item.pos.line)
                         + " is not a block list item (flow style `[...]`?); edit it by hand");
    const std::size_t next = item.pos.line + 1;
    if (next <= text.lineCount() && text.isContent(next) && text.indent(next) > body.find('-'))
        return makeError("'" + item.name + "' at " + at(item.pos.line)
                         + " spans several lines; edit it by hand");
    return col;
}

class Planner {
public:
    Planner(const ConfigText& text, const FileSection& file, Mode target, std::string rationale)
        : m_text(text), m_file(file), m_target(target), m_rationale(std::move(rationale))
    {
    }

    Result<std::vector<Splice>> setEntryMode(const TestEntry& entry);
    Result<std::vector<Splice>> moveName(std::size_t entryIndex, std::size_t nameIndex);
    Result<std::vector<Splice>> addAfterPattern(std::size_t entryIndex, std::size_t nameIndex,
                                                const std::string& baseName);
    Result<std::vector<Splice>> addUnlisted(const std::string& baseName);

private:
    std::string comment(std::size_t col) const { return spaces(col) + "# " + m_rationale; }
    std::string modeLine(std::size_t col) const
    {
        return spaces(col) + "mode: " + modeName(m_target);
    }
    Result<std::vector<std::string>> siblingLines(std::size_t entryIndex, std::string itemLine);
    const TestEntry* findSibling(std::size_t entryIndex) const;

    const ConfigText& m_text;
    const FileSection& m_file;
    Mode m_target;
    std::string m_rationale;
};

Result<std::vector<Splice>> Planner::setEntryMode(const TestEntry& entry)
{
    Result<EntryLayout> layout = entryLayout(m_text, entry);
    if (!layout)
        return layout.error();
    if (!entry.mode) {
        const std::size_t before = layout->namesEnd;
        return std::vector<Splice>{
            {before, 0, {comment(layout->keyCol), modeLine(layout->keyCol)}}};
    }
    const std::size_t line = entry.modePos.line;
    const std::string_view body = m_text.body(line);
    if (body.substr(layout->keyCol, 4) != "mode")
        return makeError("the mode at " + at(line) + " is not on its key's line; edit it by hand");
    std::size_t start = entry.modePos.column - 1;
    std::size_t stop = start;
    if (body[start] == '"' || body[start] == '\'') {
        stop = body.find(body[start], start + 1);
        if (stop == std::string_view::npos)
            return makeError("unclosed quote at " + at(line));
        ++start; // keep the quotes, replace what is inside
    } else {
        while (stop < body.size() && body[stop] != ' ' && body[stop] != '#')
            ++stop;
    }
    std::string changed(body.substr(0, start));
    changed += modeName(m_target);
    changed += body.substr(stop);
    return std::vector<Splice>{{line, 0, {comment(layout->keyCol)}}, {line, 1, {changed}}};
}

const TestEntry* Planner::findSibling(std::size_t entryIndex) const
{
    const TestEntry& source = m_file.tests[entryIndex];
    const TestEntry* best = nullptr;
    for (std::size_t i = 0; i < m_file.tests.size(); ++i) {
        const TestEntry& other = m_file.tests[i];
        if (i == entryIndex || other.signature != source.signature
            || other.effectiveMode() != m_target || other.names.empty())
            continue;
        if (i > entryIndex)
            return &other; // the nearest one below the source
        best = &other;
    }
    return best;
}

// A new entry right after the source: `- names:` with the one item line, the
// target mode, then the source's other keys (edits, tags, ...) verbatim.
Result<std::vector<std::string>> Planner::siblingLines(std::size_t entryIndex, std::string itemLine)
{
    const TestEntry& source = m_file.tests[entryIndex];
    Result<EntryLayout> layout = entryLayout(m_text, source);
    if (!layout)
        return layout.error();
    const std::string_view first = m_text.body(layout->start);
    std::vector<std::string> lines{comment(layout->dashCol)};
    lines.push_back(std::string(first.substr(0, layout->keyCol)) + "names:");
    lines.push_back(std::move(itemLine));
    lines.push_back(modeLine(layout->keyCol));
    for (std::size_t line = layout->namesEnd; line <= layout->end; ++line) {
        if (source.mode && line == source.modePos.line)
            continue;
        lines.emplace_back(m_text.body(line));
    }
    return lines;
}

Result<std::vector<Splice>> Planner::moveName(std::size_t entryIndex, std::size_t nameIndex)
{
    const TestEntry& source = m_file.tests[entryIndex];
    const NameItem& item = source.names[nameIndex];
    Result<std::size_t> column = itemColumn(m_text, item);
    if (!column)
        return column.error();
    const std::string_view ownLine = m_text.body(item.pos.line);
    std::vector<Splice> splices{{item.pos.line, 1, {}}};
    if (const TestEntry* sibling = findSibling(entryIndex)) {
        const NameItem& last = sibling->names.back();
        Result<std::size_t> siblingColumn = itemColumn(m_text, last);
        if (!siblingColumn)
            return siblingColumn.error();
        const std::string prefix(m_text.body(last.pos.line).substr(0, *siblingColumn));
        splices.push_back(
            {last.pos.line + 1,
             0,
             {comment(prefix.find('-')), prefix + std::string(ownLine.substr(*column))}});
        return splices;
    }
    Result<EntryLayout> layout = entryLayout(m_text, source);
    if (!layout)
        return layout.error();
    Result<std::vector<std::string>> lines = siblingLines(entryIndex, std::string(ownLine));
    if (!lines)
        return lines.error();
    splices.push_back({layout->end + 1, 0, std::move(*lines)});
    return splices;
}

Result<std::vector<Splice>> Planner::addAfterPattern(std::size_t entryIndex, std::size_t nameIndex,
                                                     const std::string& baseName)
{
    const TestEntry& source = m_file.tests[entryIndex];
    Result<std::size_t> column = itemColumn(m_text, source.names[nameIndex]);
    if (!column)
        return column.error();
    const std::string prefix(m_text.body(source.names[nameIndex].pos.line).substr(0, *column));
    Result<EntryLayout> layout = entryLayout(m_text, source);
    if (!layout)
        return layout.error();
    Result<std::vector<std::string>> lines = siblingLines(entryIndex, prefix + baseName);
    if (!lines)
        return lines.error();
    return std::vector<Splice>{{layout->end + 1, 0, std::move(*lines)}};
}

Result<std::vector<Splice>> Planner::addUnlisted(const std::string& baseName)
{
    std::vector<std::string> lines;
    std::size_t dashCol = 0;
    std::size_t keyCol = 0;
    std::string itemPrefix;
    std::size_t insertAt = 0;
    if (!m_file.tests.empty()) {
        const TestEntry& last = m_file.tests.back();
        Result<EntryLayout> layout = entryLayout(m_text, last);
        if (!layout)
            return layout.error();
        Result<std::size_t> column = itemColumn(m_text, last.names.front());
        if (!column)
            return column.error();
        dashCol = layout->dashCol;
        keyCol = layout->keyCol;
        itemPrefix = m_text.body(last.names.front().pos.line).substr(0, *column);
        insertAt = layout->end + 1;
    } else if (m_file.hasTestsKey) {
        return makeError("the tests list of " + m_file.path + " is empty; add the entry by hand");
    } else {
        const std::size_t fileKeyCol = m_file.pos.column - 1;
        dashCol = fileKeyCol + 2;
        keyCol = dashCol + 2;
        itemPrefix = spaces(keyCol + 2) + "- ";
        insertAt = m_text.blockEnd(m_file.pos.line, fileKeyCol) + 1;
        lines.push_back(spaces(fileKeyCol) + "tests:");
    }
    lines.push_back(comment(dashCol));
    lines.push_back(spaces(dashCol) + "-" + spaces(keyCol - dashCol - 1) + "names:");
    lines.push_back(itemPrefix + baseName);
    lines.push_back(modeLine(keyCol));
    return std::vector<Splice>{{insertAt, 0, std::move(lines)}};
}

std::string oneLine(std::string text)
{
    for (char& c : text)
        if (c == '\n' || c == '\r')
            c = ' ';
    return text;
}

Result<Mode> targetOf(const EditRequest& request, Mode current)
{
    switch (request.kind) {
    case EditKind::Promote:
        if (current != Mode::XfailStrict && current != Mode::Xfail)
            return makeError(std::string("cannot promote a test that is ") + modeName(current)
                             + "; promote moves xfail_strict or xfail to mandatory_success");
        return Mode::MandatorySuccess;
    case EditKind::Demote:
        if (current != Mode::MandatorySuccess)
            return makeError(std::string("cannot demote a test that is ") + modeName(current)
                             + "; demote moves mandatory_success to xfail_strict");
        return Mode::XfailStrict;
    case EditKind::SetMode:
        if (current == request.target)
            return makeError(std::string("the test is already ") + modeName(current));
        return request.target;
    }
    return makeError("unknown edit");
}

std::string rationaleOf(const EditRequest& request, Mode from, Mode to)
{
    std::string text = std::string(modeName(from)) + " -> " + modeName(to);
    if (!request.reason.empty())
        text += ": " + oneLine(request.reason);
    if (!request.evidence.empty())
        text += " (" + oneLine(request.evidence) + ")";
    return text;
}

Result<std::vector<Splice>> planSplices(Planner& planner, const OutcomeConfig& config,
                                        const Explanation& ex, ModeEdit& edit)
{
    const FileSection& file = config.files[ex.fileIndex];
    switch (ex.decision) {
    case Decision::ExplicitEntry: {
        const TestEntry& entry = file.tests[*ex.entryIndex];
        if (entry.names.size() == 1)
            return planner.setEntryMode(entry);
        return planner.moveName(*ex.entryIndex, *ex.nameIndex);
    }
    case Decision::Pattern: {
        const NameItem& pattern = file.tests[*ex.entryIndex].names[*ex.nameIndex];
        edit.warnings.push_back("adds an explicit entry for " + ex.baseName
                                + " that overrides pattern '" + pattern.name + "' ("
                                + at(pattern.pos.line) + ")");
        return planner.addAfterPattern(*ex.entryIndex, *ex.nameIndex, ex.baseName);
    }
    case Decision::Unlisted: return planner.addUnlisted(ex.baseName);
    }
    return makeError("unknown decision");
}

// The edit must change exactly one fact, and the test must now resolve to
// the target mode through an explicit entry.
Result<void> verify(const OutcomeConfig& before, const Explanation& ex, const ModeEdit& edit,
                    const TestQuery& query, const BaseNameOptions& options)
{
    Result<ParsedConfig> after = parseOutcomeConfig(edit.text);
    if (!after)
        return makeError("the edited text does not parse (" + after.message() + "); not written");
    if (after->hasErrors())
        return makeError("the edited text has errors; not written");
    Facts expected = factsOf(before);
    const FileSection& file = before.files[ex.fileIndex];
    std::string signature = "{}";
    if (ex.entryIndex)
        signature = file.tests[*ex.entryIndex].signature;
    if (ex.decision == Decision::ExplicitEntry) {
        const auto old =
            expected.find(listingFact(ex.fileIndex, ex.baseName, edit.from, signature));
        if (old == expected.end())
            return makeError("internal: the listing of " + ex.baseName + " was not found");
        expected.erase(old);
    }
    expected.insert(listingFact(ex.fileIndex, ex.baseName, edit.to, signature));
    if (const std::string diff = describeDifference(expected, factsOf(after->config));
        !diff.empty())
        return makeError("refused: " + diff);
    Result<Explanation> again = explainTest(after->config, query, options);
    if (!again || again->configMode != edit.to)
        return makeError("refused: after the edit " + ex.baseName + " would still not resolve to "
                         + modeName(edit.to) + " (listed again elsewhere?)");
    return {};
}

} // namespace

Result<ModeEdit> planModeEdit(std::string_view text, const EditRequest& request,
                              const BaseNameOptions& options)
{
    Result<ParsedConfig> parsed = parseOutcomeConfig(text);
    if (!parsed)
        return parsed.error();
    for (const Finding& finding : parsed->findings)
        if (finding.severity == Severity::Error)
            return makeError("fix the config first: " + formatFinding(finding));
    if (parsed->config.aliasCount > 0)
        return makeError("the config uses YAML aliases; edit it by hand");
    TestQuery query = parseTestQuery(request.test);
    query.marks = request.marks;
    Result<Explanation> ex = explainTest(parsed->config, query, options);
    if (!ex)
        return ex.error();
    Result<Mode> target = targetOf(request, ex->configMode);
    if (!target)
        return target.error();
    ModeEdit edit;
    edit.baseName = ex->baseName;
    edit.from = ex->configMode;
    edit.to = *target;
    const ConfigText lines(text);
    Planner planner(lines, parsed->config.files[ex->fileIndex], edit.to,
                    rationaleOf(request, edit.from, edit.to));
    Result<std::vector<Splice>> splices = planSplices(planner, parsed->config, *ex, edit);
    if (!splices)
        return splices.error();
    edit.text = applySplices(lines, std::move(*splices));
    if (Result<void> checked = verify(parsed->config, *ex, edit, query, options); !checked)
        return checked.error();
    edit.summary = ex->baseName + ": " + modeName(edit.from) + " -> " + modeName(edit.to);
    return edit;
}

} // namespace relayhud::config
