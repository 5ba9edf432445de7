// The triage exchange file (triage/triage_exchange.h): JSON out, JSON in with
// every field checked before the merge touches the cache.
#include "relayhud/triage/triage_exchange.h"

#include "relayhud/util/file_ops.h"

#include "relayhud/store/triage_store.h"
#include "relayhud/store/triage_tag_rules.h"
#include "relayhud/util/json_guard.h"
#include "relayhud/util/read_file.h"
#include "relayhud/util/time.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>

namespace relayhud::triage {

using nlohmann::json;

namespace {

json tagJson(const TriageTag& tag)
{
    const TriageTarget& t = tag.target;
    return json{{"repo", t.repo},
                {"workflow", t.workflow},
                {"job", t.job},
                {"sha", t.sha.value},
                {"attempt", t.attempt},
                {"test", t.test},
                {"class", failureClassName(tag.cls)},
                {"note", tag.note},
                {"bug", tag.bugUrl},
                {"author", tag.author},
                {"time", formatTimeMs(tag.timeMs)}};
}

// Reads tag `index` of the document; errors say which field is wrong.
class TagReader {
public:
    TagReader(const json& item, std::size_t index) : m_item(item), m_index(index) {}

    Result<TriageTag> read()
    {
        if (!m_item.is_object())
            return fail("is not an object");
        TriageTag tag;
        TriageTarget& t = tag.target;
        std::string sha, cls, time;
        for (auto [name, out] : {std::pair{"repo", &t.repo},
                                 {"workflow", &t.workflow},
                                 {"job", &t.job},
                                 {"sha", &sha},
                                 {"class", &cls},
                                 {"time", &time}})
            if (auto r = text(name, *out, true); !r)
                return r.error();
        for (auto [name, out] : {std::pair{"test", &t.test},
                                 {"note", &tag.note},
                                 {"bug", &tag.bugUrl},
                                 {"author", &tag.author}})
            if (auto r = text(name, *out, false); !r)
                return r.error();
        t.sha = Sha{sha};
        if (auto r = attempt(t.attempt); !r)
            return r.error();
        const auto parsed = parseTagClass(cls);
        if (!parsed)
            return fail("\"class\": unknown class \"" + cls + "\" (one of " + tagClassNames(true)
                        + ")");
        tag.cls = *parsed;
        const auto ms = parseTimeMs(time);
        if (!ms)
            return fail("\"time\": \"" + time
                        + "\" is not a UTC time like 2026-05-04T20:48:28.123Z");
        tag.timeMs = *ms;
        // The rule a team pull applies too (store/triage_tag_rules.h).
        if (const TagCheck check = checkTriageTag(tag, nowMilliseconds()); !check.ok())
            return fail(check.why);
        return tag;
    }

private:
    Error fail(const std::string& what) const
    {
        return makeError("tag " + std::to_string(m_index) + ": " + what);
    }

    Result<void> text(const char* name, std::string& out, bool required)
    {
        const auto it = m_item.find(name);
        if (it == m_item.end()) {
            if (required)
                return fail("\"" + std::string(name) + "\" is missing");
            return {};
        }
        if (!it->is_string())
            return fail("\"" + std::string(name) + "\" is not a string");
        out = it->get<std::string>();
        if (required && out.empty())
            return fail("\"" + std::string(name) + "\" is empty");
        return {};
    }

    Result<void> attempt(int& out)
    {
        const auto it = m_item.find("attempt");
        if (it == m_item.end())
            return fail("\"attempt\" is missing");
        if (!it->is_number_integer() || it->get<std::int64_t>() < 1
            || it->get<std::int64_t>() > kMaxTagAttempt)
            return fail("\"attempt\" is not a run attempt (a whole number from 1)");
        out = it->get<int>();
        return {};
    }

    const json& m_item;
    std::size_t m_index;
};

// "line L, column C" of a byte offset, for a parse error a user can find.
std::string positionOf(std::string_view text, std::size_t byte)
{
    byte = std::min(byte, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < byte; ++i) {
        if (text[i] == '\n') {
            ++line;
            column = 1;
        } else {
            ++column;
        }
    }
    return "line " + std::to_string(line) + ", column " + std::to_string(column);
}

Result<json> parseDocument(std::string_view text)
{
    if (text.size() > kMaxExchangeBytes)
        return makeError("the triage file is " + std::to_string(text.size() >> 20)
                         + " MiB; the limit is " + std::to_string(kMaxExchangeBytes >> 20)
                         + " MiB");
    if (auto bounded = checkJsonBounds(text); !bounded)
        return makeError("the triage file was refused: " + bounded.message());
    try {
        return json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // e.byte is one past the offending character.
        return makeError("not JSON: error at " + positionOf(text, e.byte > 0 ? e.byte - 1 : 0));
    } catch (const json::exception& e) {
        // out_of_range: a number too large for a double ("1e999").
        return makeError(std::string("not JSON: ") + e.what());
    }
}

Result<void> checkHeader(const json& doc)
{
    if (!doc.is_object())
        return makeError("not a triage file: the document is not a JSON object");
    const auto format = doc.find("format");
    if (format == doc.end() || !format->is_string()
        || format->get<std::string>() != kExchangeFormat)
        return makeError("not a triage file: \"format\" is not \"" + std::string(kExchangeFormat)
                         + "\"");
    const auto version = doc.find("version");
    if (version == doc.end() || !version->is_number_integer())
        return makeError("triage file: \"version\" is missing or not a number");
    if (version->get<std::int64_t>() != kExchangeVersion)
        return makeError("triage file version " + version->dump()
                         + " is not supported (this RelayHUD reads version "
                         + std::to_string(kExchangeVersion) + ")");
    const auto tags = doc.find("tags");
    if (tags == doc.end() || !tags->is_array())
        return makeError("triage file: \"tags\" is missing or not a list");
    return {};
}

} // namespace

std::string formatTimeMs(std::int64_t epochMs)
{
    std::int64_t seconds = epochMs / 1000;
    std::int64_t ms = epochMs % 1000;
    if (ms < 0) {
        ms += 1000;
        --seconds;
    }
    std::string iso = formatIso(seconds); // ends in 'Z'
    char fraction[8];
    std::snprintf(fraction, sizeof fraction, ".%03dZ", static_cast<int>(ms));
    iso.replace(iso.size() - 1, 1, fraction);
    return iso;
}

std::optional<std::int64_t> parseTimeMs(std::string_view text)
{
    // "YYYY-MM-DDTHH:MM:SS", then ".f" (1 to 9 digits, milliseconds kept) or
    // nothing, then "Z". Any instant from 1970 on, 00:00:00 included (which
    // parseTimestamp() reads as "not set").
    auto number = [&](std::size_t at, std::size_t count, char after, int& out) {
        out = 0;
        for (std::size_t i = at; i < at + count; ++i) {
            if (text[i] < '0' || text[i] > '9')
                return false;
            out = out * 10 + (text[i] - '0');
        }
        return after == '\0' || text[at + count] == after;
    };
    int y = 0, mo = 0, d = 0, h = 0, mi = 0, sec = 0;
    if (text.size() < 20 || text.back() != 'Z' || !number(0, 4, '-', y) || !number(5, 2, '-', mo)
        || !number(8, 2, 'T', d) || !number(11, 2, ':', h) || !number(14, 2, ':', mi)
        || !number(17, 2, '\0', sec) || h > 23 || mi > 59 || sec > 59)
        return std::nullopt;
    const std::chrono::year_month_day date{std::chrono::year{y},
                                           std::chrono::month{static_cast<unsigned>(mo)},
                                           std::chrono::day{static_cast<unsigned>(d)}};
    if (!date.ok() || y < 1970)
        return std::nullopt;
    const std::string_view fraction = text.substr(19, text.size() - 20);
    std::int64_t ms = 0;
    if (!fraction.empty()) {
        if (fraction[0] != '.' || fraction.size() < 2 || fraction.size() > 10)
            return std::nullopt;
        for (std::size_t i = 1; i < fraction.size(); ++i) {
            if (fraction[i] < '0' || fraction[i] > '9')
                return std::nullopt;
            if (i <= 3)
                ms += (fraction[i] - '0') * (i == 1 ? 100 : i == 2 ? 10 : 1);
        }
    }
    const std::int64_t days = std::chrono::sys_days(date).time_since_epoch().count();
    return ((days * 24 + h) * 60 + mi) * 60 * 1000 + sec * 1000 + ms;
}

std::string exportTriageJson(const std::vector<TriageTag>& tags)
{
    json list = json::array();
    for (const TriageTag& tag : tags)
        list.push_back(tagJson(tag));
    // One tag per line: a file a reviewer can diff.
    std::string out = "{\"format\": " + json(kExchangeFormat).dump()
                      + ", \"version\": " + std::to_string(kExchangeVersion) + ", \"tags\": [";
    for (std::size_t i = 0; i < list.size(); ++i)
        out += (i == 0 ? "\n  " : ",\n  ")
               + list[i].dump(-1, ' ', false, json::error_handler_t::replace);
    out += list.empty() ? "]}\n" : "\n]}\n";
    return out;
}

Result<std::vector<TriageTag>> parseTriageJson(std::string_view text)
{
    auto doc = parseDocument(text);
    if (!doc)
        return doc.error();
    if (auto r = checkHeader(*doc); !r)
        return r.error();
    const json& items = (*doc)["tags"];
    std::vector<TriageTag> tags;
    tags.reserve(items.size());
    std::map<TriageTarget, std::size_t> indexOf;
    for (std::size_t i = 0; i < items.size(); ++i) {
        auto tag = TagReader(items[i], i).read();
        if (!tag)
            return tag.error();
        const auto [it, fresh] = indexOf.emplace(tag->target, i);
        if (!fresh)
            return makeError("tag " + std::to_string(i) + ": the same failure as tag "
                             + std::to_string(it->second) + " (one tag per failure)");
        tags.push_back(std::move(*tag));
    }
    return tags;
}

MergePlan planMerge(const std::vector<TriageTag>& imported,
                    const std::vector<std::optional<TriageTag>>& local)
{
    MergePlan plan;
    MergeReport& report = plan.report;
    for (std::size_t i = 0; i < imported.size(); ++i) {
        const TriageTag& theirs = imported[i];
        const std::optional<TriageTag>& ours = i < local.size() ? local[i] : std::nullopt;
        if (!ours) {
            ++report.added;
            plan.writes.push_back(theirs);
            continue;
        }
        if (ours->sameVerdict(theirs)) {
            ++report.unchanged;
            continue;
        }
        MergeConflict conflict{*ours, theirs, MergeWinner::Local, {}};
        if (theirs.timeMs > ours->timeMs) {
            ++report.updated;
            plan.writes.push_back(theirs);
            conflict.winner = MergeWinner::Imported;
            conflict.why = "imported is newer (" + formatTimeMs(theirs.timeMs) + " > "
                           + formatTimeMs(ours->timeMs) + ")";
        } else {
            ++report.keptLocal;
            conflict.why = theirs.timeMs == ours->timeMs
                               ? "same time (" + formatTimeMs(ours->timeMs) + "): local kept"
                               : "local is newer (" + formatTimeMs(ours->timeMs) + " > "
                                     + formatTimeMs(theirs.timeMs) + ")";
        }
        report.conflicts.push_back(std::move(conflict));
    }
    return plan;
}

Result<std::size_t> exportTriageFile(const Database& cache, const std::string& path,
                                     const std::vector<Sha>& shas)
{
    auto tags = TriageStore(cache).triageTags(shas);
    if (!tags)
        return tags.error();
    const std::filesystem::path target(path);
    const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
    if (auto r =
            artifacts::writeFileAtomic(dir, target.filename().string(), exportTriageJson(*tags));
        !r)
        return makeError("cannot write " + path + ": " + r.message());
    return tags->size();
}

Result<MergeReport> importTriageJson(Database& cache, std::string_view text)
{
    auto imported = parseTriageJson(text);
    if (!imported)
        return imported.error();
    std::vector<TriageTarget> targets;
    targets.reserve(imported->size());
    for (const TriageTag& tag : *imported)
        targets.push_back(tag.target);
    // Read and write are two steps: a tag that another window sets between
    // them (milliseconds) is replaced by the plan's winner for its target.
    auto local = TriageStore(cache).triageTagsFor(targets);
    if (!local)
        return local.error();
    MergePlan plan = planMerge(*imported, *local);
    if (auto r = TriageStore(cache).setTriageTags(plan.writes); !r)
        return r.error();
    return std::move(plan.report);
}

Result<MergeReport> importTriageFile(Database& cache, const std::string& path)
{
    auto text = readRegularFile(path, kMaxExchangeBytes, "a triage file");
    if (!text)
        return text.error();
    auto report = importTriageJson(cache, *text);
    if (!report)
        return makeError(path + ": " + report.message());
    return report;
}

} // namespace relayhud::triage
