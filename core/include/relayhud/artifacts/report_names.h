#pragma once
// What a file's name says it holds, for finding test reports among an
// artifact's entries, a bucket's keys and a folder's files: by the name's
// ending, ignoring ASCII case.
#include <string>

namespace relayhud {

enum class ReportFileKind {
    Report,     // .xml
    GzipReport, // .xml.gz
    Archive,    // .zip, .tar, .tar.gz, .tgz
    Other,
};

ReportFileKind reportFileKind(const std::string& name);

// A report or an archive that may hold reports.
bool isImportableName(const std::string& name);

} // namespace relayhud
