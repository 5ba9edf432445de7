#include "relayhud/artifacts/report_names.h"

#include <algorithm>
#include <string_view>

namespace relayhud {
namespace {

bool endsWithNoCase(const std::string& text, std::string_view suffix)
{
    if (text.size() < suffix.size())
        return false;
    return std::equal(suffix.begin(), suffix.end(), text.end() - static_cast<long>(suffix.size()),
                      [](char a, char b) {
                          const auto lower = [](char c) {
                              return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
                          };
                          return lower(a) == lower(b);
                      });
}

} // namespace

ReportFileKind reportFileKind(const std::string& name)
{
    if (endsWithNoCase(name, ".xml"))
        return ReportFileKind::Report;
    if (endsWithNoCase(name, ".xml.gz"))
        return ReportFileKind::GzipReport;
    for (std::string_view suffix : {".zip", ".tar", ".tar.gz", ".tgz"})
        if (endsWithNoCase(name, suffix))
            return ReportFileKind::Archive;
    return ReportFileKind::Other;
}

bool isImportableName(const std::string& name)
{
    return reportFileKind(name) != ReportFileKind::Other;
}

} // namespace relayhud
