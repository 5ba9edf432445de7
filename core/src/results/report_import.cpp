// importReports: JUnit reports from files, archives and folders into one
// TestRunWriter (results/report_import.h).
#include "relayhud/results/report_import.h"

#include "relayhud/artifacts/report_names.h"
#include "results/report_files.h"

#include <algorithm>
#include <deque>

namespace relayhud {
namespace {

std::string plural(std::size_t n, const char* word)
{
    return std::to_string(n) + " " + word + (n == 1 ? "" : "s");
}

// An archive's message names it by its path (or buffer name); the summary
// names it `name`.
std::string aboutArchive(const std::string& message, const ArchiveReader& reader,
                         const std::string& name)
{
    const std::string& own = reader.name();
    if (message.starts_with(own + ": "))
        return name + message.substr(own.size());
    if (const auto at = message.find(own); !own.empty() && at != std::string::npos)
        return std::string(message).replace(at, own.size(), name);
    return name + ": " + message;
}

void addTotals(const JunitReport& report, TestRunTotals& totals)
{
    ++totals.reports;
    for (auto [sum, part] : {std::pair{&totals.declared, &report.declared},
                             std::pair{&totals.counted, &report.counted}}) {
        sum->tests += part->tests;
        sum->failures += part->failures;
        sum->errors += part->errors;
        sum->skipped += part->skipped;
    }
    for (std::size_t i = 0; i < kTestOutcomeCount; ++i)
        totals.outcomes[i] += static_cast<std::int64_t>(report.outcomes[i]);
}

class Importer {
public:
    Importer(TestRunWriter& writer, const ImportOptions& options)
        : m_writer(writer), m_options(options)
    {
    }

    Result<void> importPath(const std::string& path);
    // A report's bytes, named for messages; parsed streaming into the writer.
    Result<void> importBuffer(std::string_view xml, const std::string& name);
    // An archive found inside one at `level`: read after it, unless too deep.
    void nestedArchive(std::string bytes, const std::string& name, std::size_t level);
    void warn(std::string warning);
    // Every byte extracted from an archive, nested ones included (a zip of
    // .xml.gz files), counts against one budget: the outer archive's total
    // limit. A nested reader's own limits alone would start afresh per file.
    Result<void> extracted(std::size_t bytes, const std::string& name)
    {
        m_extracted += bytes;
        if (m_extracted <= m_options.limits.maxTotalBytes)
            return {};
        return makeError(name + ": the archives inflate past "
                         + std::to_string(m_options.limits.maxTotalBytes >> 20)
                         + " MiB in all, nested archives included; refused");
    }
    void brokeOff(const std::string& name) const
    {
        if (m_options.brokeOff)
            m_options.brokeOff->push_back(name);
    }
    bool cancelled() const { return m_options.cancel && m_options.cancel->load(); }
    ImportSummary take() { return std::move(m_summary); }

private:
    Result<void> importFolder(const std::string& folder);
    Result<void> importFile(const std::string& path, const std::string& name, ReportFileKind kind);
    Result<void> importArchive(const ArchiveReader& reader, const std::string& name,
                               bool singleReport, std::size_t level);
    // The archives nestedArchive queued, in turn, and those they hold: a
    // loop, so a hostile chain of archives never deepens the stack.
    Result<void> importNestedArchives();
    void warnAboutInnerArchives(const std::vector<ArchiveEntryInfo>& entries,
                                const std::string& name);
    JunitReadOptions readOptions();
    Result<void> finishReport(Result<JunitReport> report, const std::string& name,
                              std::int64_t casesBefore);
    Result<void> checkFatal() const;

    TestRunWriter& m_writer;
    const ImportOptions& m_options;
    ImportSummary m_summary;
    std::uint64_t m_extracted = 0;
    std::optional<Error> m_fatal; // the first store error: it ends the import
    struct NestedArchive {
        std::string bytes;
        std::string name;
        std::size_t level = 0;
    };
    std::deque<NestedArchive> m_nested;
};

// Streams the reports of one archive into the importer, one entry at a time.
class ReportSink final : public EntrySink {
public:
    ReportSink(Importer& importer, std::string archiveName, bool singleReport, std::size_t level)
        : m_importer(importer), m_archiveName(std::move(archiveName)), m_single(singleReport),
          m_level(level)
    {
    }

    Result<void> beginFile(const ArchiveEntryInfo& entry) override
    {
        m_path = entry.path;
        m_bytes.clear();
        return {};
    }
    Result<void> write(std::string_view chunk) override
    {
        if (m_importer.cancelled())
            return makeError("the import was cancelled");
        if (auto r = m_importer.extracted(chunk.size(), m_archiveName); !r)
            return r;
        m_bytes.append(chunk);
        return {};
    }
    Result<void> endFile() override
    {
        const std::string name = m_single ? m_archiveName : m_archiveName + ":" + m_path;
        if (reportFileKind(m_path) != ReportFileKind::GzipReport)
            return m_importer.importBuffer(m_bytes, name);
        m_importer.nestedArchive(std::move(m_bytes), name, m_level + 1);
        return {};
    }

private:
    Importer& m_importer;
    std::string m_archiveName;
    bool m_single;
    std::size_t m_level;
    std::string m_path;
    std::string m_bytes;
};

JunitReadOptions Importer::readOptions()
{
    JunitReadOptions options = m_options.junit;
    options.onCase = [this](const TestCaseResult& testCase) {
        if (m_fatal)
            return;
        if (auto r = m_writer.add(testCase); !r)
            m_fatal = r.error();
    };
    options.onCutText = [this](std::size_t, CaseText which, std::string_view fullText) {
        if (m_fatal)
            return;
        if (auto r = m_writer.keepFullText(which, fullText); !r)
            m_fatal = r.error();
    };
    return options;
}

void Importer::warn(std::string warning)
{
    m_writer.addWarning(warning);
    m_summary.warnings.push_back(std::move(warning));
}

Result<void> Importer::checkFatal() const
{
    if (m_fatal)
        return *m_fatal;
    if (cancelled())
        return makeError("the import was cancelled");
    return {};
}

Result<void> Importer::finishReport(Result<JunitReport> report, const std::string& name,
                                    std::int64_t casesBefore)
{
    if (auto r = checkFatal(); !r)
        return r;
    if (!report) {
        warn(name + ": " + report.message());
        return {};
    }
    if (report->parseBreak) {
        warn(name + ": " + report->parseBreak->message);
        if (report->parseBreak->endsEarly)
            brokeOff(name);
    }
    for (const std::string& w : report->warnings)
        warn(name + ": " + w);
    addTotals(*report, m_summary.totals);
    m_summary.reports.push_back(ImportedReport{name, report->declared, report->counted,
                                               m_writer.casesAdded() - casesBefore});
    return {};
}

Result<void> Importer::importBuffer(std::string_view xml, const std::string& name)
{
    const std::int64_t before = m_writer.casesAdded();
    return finishReport(readJunitBuffer(xml, readOptions()), name, before);
}

void Importer::nestedArchive(std::string bytes, const std::string& name, std::size_t level)
{
    if (level > m_options.limits.maxNesting) {
        warn(name + ": an archive nested " + std::to_string(level) + " deep (the limit is "
             + std::to_string(m_options.limits.maxNesting) + "); not read");
        return;
    }
    m_nested.push_back({std::move(bytes), name, level});
}

Result<void> Importer::importNestedArchives()
{
    while (!m_nested.empty()) {
        NestedArchive next = std::move(m_nested.front());
        m_nested.pop_front();
        const std::string base = next.name.substr(next.name.find_last_of(":/") + 1);
        const auto reader =
            ArchiveReader::fromMemory(std::move(next.bytes), base, m_options.limits);
        if (auto r = importArchive(reader, next.name, true, next.level); !r)
            return r;
    }
    return {};
}

// A .zip or tarball inside an archive is not read (reports inside one are
// read as .xml and .xml.gz entries), and the import says so.
void Importer::warnAboutInnerArchives(const std::vector<ArchiveEntryInfo>& entries,
                                      const std::string& name)
{
    for (const auto& entry : entries)
        if (reportFileKind(entry.path) == ReportFileKind::Archive)
            warn(name + ": entry '" + entry.path
                 + "' is an archive inside an archive; not read (only its .xml and .xml.gz "
                   "entries are)");
}

Result<void> Importer::importArchive(const ArchiveReader& reader, const std::string& name,
                                     bool singleReport, std::size_t level)
{
    const EntryFilter filter = suffixFilter({".xml", ".xml.gz"});
    // Headers first, without decompressing: an archive that smuggles a path
    // out of its folder is refused before any of its reports is stored.
    auto entries =
        reader.list(suffixFilter({".xml", ".xml.gz", ".zip", ".tar", ".tar.gz", ".tgz"}));
    if (!entries) {
        warn(aboutArchive(entries.message(), reader, name));
        if (entries.error().brokeOff)
            brokeOff(name);
        return checkFatal();
    }
    warnAboutInnerArchives(*entries, name);
    if (std::none_of(entries->begin(), entries->end(),
                     [&](const ArchiveEntryInfo& e) { return filter(e.path); })
        && !singleReport)
        warn(name + ": holds no JUnit report (.xml)");
    ReportSink sink(*this, name, singleReport, level);
    auto streamed = reader.stream(sink, filter);
    if (auto r = checkFatal(); !r)
        return r;
    if (!streamed) {
        warn(aboutArchive(streamed.message(), reader, name) + "; kept the reports read before it");
        if (streamed.error().brokeOff)
            brokeOff(name);
        return {};
    }
    for (const std::string& w : streamed->warnings)
        warn(aboutArchive(w, reader, name));
    return {};
}

Result<void> Importer::importFile(const std::string& path, const std::string& name,
                                  ReportFileKind kind)
{
    if (auto r = checkFatal(); !r)
        return r;
    if (kind == ReportFileKind::Report || kind == ReportFileKind::Other) {
        const std::int64_t before = m_writer.casesAdded();
        auto report = readJunitFile(path, readOptions());
        // The reader names the file by its path; the summary names it `name`.
        if (!report && report.message().starts_with(path + ": "))
            report = makeError(report.message().substr(path.size() + 2));
        return finishReport(std::move(report), name, before);
    }
    auto reader = ArchiveReader::fromFile(path, m_options.limits);
    if (auto r = importArchive(reader, name, kind == ReportFileKind::GzipReport, 1); !r)
        return r;
    return importNestedArchives();
}

Result<void> Importer::importFolder(const std::string& folder)
{
    auto listing = results::listReportFiles(folder);
    for (const std::string& w : listing.warnings)
        warn(w);
    if (listing.files.empty())
        warn(folder + ": no JUnit reports or archives of them in this folder");
    for (const auto& file : listing.files)
        if (auto r = importFile(file.path, file.name, reportFileKind(file.path)); !r)
            return r;
    return {};
}

Result<void> Importer::importPath(const std::string& path)
{
    auto what = results::classifyPath(path);
    if (!what) {
        warn(what.message());
        return checkFatal();
    }
    if (*what == results::PathKind::Folder)
        return importFolder(path);
    return importFile(path, results::fileName(path), reportFileKind(path));
}

std::string nothingImported(const std::vector<std::string>& paths,
                            const std::vector<std::string>& warnings)
{
    std::string message =
        "nothing imported from " + (paths.size() == 1 ? paths[0] : plural(paths.size(), "path"));
    const std::size_t shown = std::min<std::size_t>(warnings.size(), 3);
    for (std::size_t i = 0; i < shown; ++i)
        message += (i == 0 ? ": " : "; ") + warnings[i];
    if (warnings.size() > shown)
        message += " (and " + plural(warnings.size() - shown, "more problem") + ")";
    return message;
}

} // namespace

Result<ImportSummary> importReports(const std::vector<std::string>& paths, TestRunWriter& writer,
                                    const ImportOptions& options)
{
    if (paths.empty())
        return makeError("nothing to import: no path given");
    Importer importer(writer, options);
    for (const std::string& path : paths)
        if (auto r = importer.importPath(path); !r)
            return r.error();
    ImportSummary summary = importer.take();
    if (summary.reports.empty())
        return makeError(nothingImported(paths, summary.warnings));
    return summary;
}

} // namespace relayhud
