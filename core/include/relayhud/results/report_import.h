#pragma once
// Reads JUnit reports from files, archives and folders into a TestRunWriter:
// the path a downloaded artifact or a user's File > Open takes. A path may be
//   a report (.xml, .xml.gz),
//   an archive (.zip, .tar, .tar.gz, .tgz) holding reports at any depth,
//   a folder, searched recursively for both (symlinks not followed).
// Archives go through ArchiveReader with its limits; each report is parsed
// streaming into the writer. A report that breaks off keeps its cases and
// adds a warning; a file that is not a report at all is a warning too, so a
// folder with one bad file still imports the rest. An Error only when
// nothing could be imported.
#include "relayhud/artifacts/archive_reader.h"
#include "relayhud/junit/junit_reader.h"
#include "relayhud/store/test_run_writer.h"
#include "relayhud/util/result.h"

#include <atomic>
#include <string>
#include <vector>

namespace relayhud {

struct ImportOptions {
    JunitReadOptions junit; // onCase/onCutText are set by the importer
    ArchiveLimits limits;
    const std::atomic<bool>* cancel = nullptr;
    // When set, gets the name of every input that broke off before its end
    // (a report that stops, an archive or gzip stream that cannot be read to
    // its end), even when the import then fails: what a download cut in
    // transit leaves, and why a fetcher asks for it again.
    std::vector<std::string>* brokeOff = nullptr;
};

struct ImportedReport {
    std::string name; // "report.xml", "artifact.zip:reports/test_ops.xml"
    JunitTotals declared;
    JunitTotals counted;
    std::int64_t cases = 0;
};

struct ImportSummary {
    std::vector<ImportedReport> reports;
    TestRunTotals totals; // what to pass to TestRunWriter::commit
    std::vector<std::string> warnings;
};

// Every report under the given paths (files, archives or folders).
Result<ImportSummary> importReports(const std::vector<std::string>& paths, TestRunWriter& writer,
                                    const ImportOptions& options = {});

} // namespace relayhud
