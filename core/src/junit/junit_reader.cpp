#include "relayhud/junit/junit_reader.h"

#include "relayhud/util/read_file.h"

#include "junit/case_reader.h"
#include "junit/parse_break.h"
#include "junit/pugi_pages.h"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>
#include <string>
#include <vector>

namespace relayhud {
namespace {

// Before main: no pugixml document exists yet (pugi_pages.h).
[[maybe_unused]] const bool kPugixmlPages = (junit::usePugixmlPages(), true);

// pugixml never fetches or expands DTD entities; leaving out parse_doctype
// (and PIs, comments, declarations) also keeps a DOCTYPE out of the tree, so a
// billion-laughs document costs its own size and `&x;` stays literal text.
constexpr unsigned kParseOptions =
    pugi::parse_cdata | pugi::parse_escapes | pugi::parse_wconv_attribute | pugi::parse_eol;

bool named(pugi::xml_node node, const char* name) { return std::strcmp(node.name(), name) == 0; }

std::size_t attributeCount(pugi::xml_node suite, const char* name)
{
    return static_cast<std::size_t>(suite.attribute(name).as_ullong());
}

void addDeclared(pugi::xml_node suite, JunitTotals& declared)
{
    declared.tests += attributeCount(suite, "tests");
    declared.failures += attributeCount(suite, "failures");
    declared.errors += attributeCount(suite, "errors");
    declared.skipped += attributeCount(suite, "skipped");
}

std::vector<pugi::xml_node> suitesOf(pugi::xml_node root)
{
    if (named(root, "testsuite"))
        return {root};
    std::vector<pugi::xml_node> suites;
    for (pugi::xml_node suite : root.children("testsuite"))
        suites.push_back(suite);
    return suites;
}

// The one case a parse error can have left half-read: the last one of all.
pugi::xml_node unfinishedCase(std::string_view source, const std::vector<pugi::xml_node>& suites,
                              const pugi::xml_parse_result& parsed)
{
    if (parsed || suites.empty())
        return {};
    const pugi::xml_node last = suites.back().last_child();
    if (!last || !named(last, "testcase"))
        return {};
    const auto errorOffset = static_cast<std::size_t>(std::max<std::ptrdiff_t>(0, parsed.offset));
    return junit::elementClosedBefore(source, last, errorOffset) ? pugi::xml_node() : last;
}

std::string describeTotals(const JunitTotals& t)
{
    return std::to_string(t.tests) + " tests, " + std::to_string(t.failures) + " failures, "
           + std::to_string(t.errors) + " errors, " + std::to_string(t.skipped) + " skipped";
}

void addWarnings(JunitReport& report, std::size_t unnamed, std::size_t nestedSuites)
{
    if (!report.parseBreak && report.suiteCount > 0 && report.declared != report.counted)
        report.warnings.push_back("the report declares " + describeTotals(report.declared)
                                  + " but its test cases add up to "
                                  + describeTotals(report.counted));
    if (unnamed > 0)
        report.warnings.push_back(std::to_string(unnamed) + " test cases have no name attribute");
    if (nestedSuites > 0)
        report.warnings.push_back(std::to_string(nestedSuites)
                                  + " nested <testsuite> elements were not read");
}

Result<void> checkRoot(pugi::xml_node root, const pugi::xml_parse_result& parsed)
{
    if (!root && parsed.status == pugi::status_no_document_element)
        return makeError("not a JUnit XML report: it holds no XML element");
    if (!root)
        return makeError("not a JUnit XML report: " + std::string(parsed.description())
                         + " at byte " + std::to_string(parsed.offset));
    if (!named(root, "testsuites") && !named(root, "testsuite"))
        return makeError("not a JUnit XML report: the root element is <" + std::string(root.name())
                         + ">, not <testsuites> or <testsuite>");
    return {};
}

std::size_t caseCount(const std::vector<pugi::xml_node>& suites)
{
    std::size_t n = 0;
    for (pugi::xml_node suite : suites) {
        for ([[maybe_unused]] pugi::xml_node testcase : suite.children("testcase"))
            ++n;
    }
    return n;
}

// `source` is the document as it was before parsing; it is read only when the
// parse broke off.
JunitReport readSuites(std::string_view source, const std::vector<pugi::xml_node>& suites,
                       const pugi::xml_parse_result& parsed, const JunitReadOptions& options)
{
    JunitReport report;
    if (!options.onCase)
        report.cases.reserve(caseCount(suites));
    junit::CaseReader reader(options, report);
    const pugi::xml_node unfinished = unfinishedCase(source, suites, parsed);
    std::size_t nested = 0;
    for (pugi::xml_node suite : suites) {
        ++report.suiteCount;
        addDeclared(suite, report.declared);
        for (pugi::xml_node child = suite.first_child(); child; child = child.next_sibling()) {
            if (named(child, "testcase") && child != unfinished)
                reader.read(child);
            else if (named(child, "testsuite"))
                ++nested;
        }
    }
    if (!parsed)
        report.parseBreak = junit::describeBreak(source, parsed, report.counted.tests);
    addWarnings(report, reader.unnamedCases(), nested);
    return report;
}

Result<JunitReport> readParsed(const pugi::xml_document& doc, const pugi::xml_parse_result& parsed,
                               std::string_view source, const JunitReadOptions& options)
{
    const pugi::xml_node root = doc.document_element();
    if (Result<void> rootOk = checkRoot(root, parsed); !rootOk)
        return rootOk.error();
    return readSuites(source, suitesOf(root), parsed, options);
}

Result<FileBytes> readWholeFile(const std::string& path)
{
    return readRegularFileBytes(path, kMaxReportFileBytes, "a JUnit report");
}

Result<JunitReport> withPath(const std::string& path, Result<JunitReport> report)
{
    if (!report)
        return makeError(path + ": " + report.message());
    return report;
}

} // namespace

Result<JunitReport> readJunitBuffer(std::string_view xml, const JunitReadOptions& options)
{
    if (xml.empty())
        return makeError("the JUnit report is empty (0 bytes)");
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed =
        doc.load_buffer(xml.data(), xml.size(), kParseOptions, pugi::encoding_utf8);
    return readParsed(doc, parsed, xml, options);
}

Result<JunitReport> readJunitFile(const std::string& path, const JunitReadOptions& options)
{
    Result<FileBytes> bytes = readWholeFile(path);
    if (!bytes)
        return bytes.error();
    if (bytes->empty())
        return makeError(path + ": the JUnit report is empty (0 bytes)");
    // Parsing the file's own buffer in place saves copying it (page faults on
    // a 40 MB report cost more than the parse itself on some machines; the
    // buffer comes filled in one call for that reason, read_file.h).
    pugi::xml_document doc;
    const pugi::xml_parse_result parsed =
        doc.load_buffer_inplace(bytes->data(), bytes->size(), kParseOptions, pugi::encoding_utf8);
    if (parsed)
        return withPath(path, readParsed(doc, parsed, {}, options));
    // In-place parsing rewrote the bytes, and explaining a break needs them
    // as they were: read the file again (broken files are the rare case).
    doc.reset();
    bytes = readWholeFile(path);
    if (!bytes)
        return bytes.error();
    return withPath(path, readJunitBuffer(bytes->view(), options));
}

} // namespace relayhud
