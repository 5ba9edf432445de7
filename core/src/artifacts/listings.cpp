// Listings of the artifact stores (relayhud/artifacts/listings.h).
#include "relayhud/artifacts/listings.h"

#include "artifacts/blob_download.h"
#include "artifacts/fetch_context.h"
#include "relayhud/util/json_guard.h"
#include "relayhud/util/time.h"

#include <nlohmann/json.hpp>
#include <pugixml.hpp>

#include <algorithm>
#include <charconv>
#include <functional>

namespace relayhud {
namespace {

using nlohmann::json;

// A field of the type asked for, or `fallback`: json::value() throws on a
// field of another type, and a server's body is outside data.
std::int64_t intOr(const json& object, const char* key, std::int64_t fallback)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_number_integer() ? it->get<std::int64_t>() : fallback;
}

std::string stringOr(const json& object, const char* key)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_string() ? it->get<std::string>() : std::string();
}

EpochSeconds timeOr0(const json& object, const char* key)
{
    return parseTimestamp(stringOr(object, key)).value_or(0);
}

bool boolOr(const json& object, const char* key, bool fallback)
{
    const auto it = object.find(key);
    return it != object.end() && it->is_boolean() ? it->get<bool>() : fallback;
}

// S3 bodies may carry a DOCTYPE; its internal subset is never read.
constexpr unsigned kXmlOptions = pugi::parse_default & ~pugi::parse_doctype;

} // namespace

namespace github {

namespace {

JsonLimits githubJsonLimits()
{
    return {kMaxJsonDepth, static_cast<std::size_t>(artifacts::kMaxApiAnswerBytes)};
}

// One page of a GitHub list answer, {"total_count": n, "<key>": [...]}:
// `each` gets every object item with an integer "id"; other items are left
// out. An Error naming `url` and `what` when the body is no such list.
Result<std::int64_t> readListPage(std::string_view body, const std::string& url, const char* key,
                                  const char* what,
                                  const std::function<void(const json&, std::int64_t)>& each)
{
    if (auto bounded = checkJsonBounds(body, githubJsonLimits()); !bounded)
        return makeError("GitHub's answer from " + artifacts::displayUrl(url)
                         + " was refused: " + bounded.message());
    const auto doc = json::parse(body, nullptr, /*allow_exceptions=*/false);
    const auto list = doc.is_object() ? doc.find(key) : doc.end();
    if (!doc.is_object() || list == doc.end() || !list->is_array())
        return makeError("GitHub's answer from " + artifacts::displayUrl(url) + " is not " + what);
    for (const auto& item : *list) {
        if (!item.is_object())
            continue;
        const auto id = item.find("id");
        if (id != item.end() && id->is_number_integer())
            each(item, id->get<std::int64_t>());
    }
    return intOr(doc, "total_count", 0);
}

} // namespace

Result<ArtifactPage> parseArtifactPage(std::string_view body, const std::string& url)
{
    ArtifactPage page;
    auto total =
        readListPage(body, url, "artifacts", "an artifact list", [&](const json& item, auto id) {
            ArtifactInfo info;
            info.id = ArtifactId{id};
            info.name = stringOr(item, "name");
            info.sizeInBytes = std::max<std::int64_t>(0, intOr(item, "size_in_bytes", 0));
            info.expired = boolOr(item, "expired", false);
            info.createdAt = timeOr0(item, "created_at");
            info.expiresAt = timeOr0(item, "expires_at");
            page.artifacts.push_back(std::move(info));
        });
    if (!total)
        return total.error();
    page.totalCount = *total;
    return page;
}

Result<WorkflowRunPage> parseWorkflowRunPage(std::string_view body, const std::string& url)
{
    WorkflowRunPage page;
    auto total = readListPage(body, url, "workflow_runs", "a list of workflow runs",
                              [&](const json& item, auto id) {
                                  WorkflowRunInfo run;
                                  run.id = WorkflowRunId{id};
                                  run.name = stringOr(item, "name");
                                  run.event = stringOr(item, "event");
                                  run.htmlUrl = stringOr(item, "html_url");
                                  run.createdAt = timeOr0(item, "created_at");
                                  page.runs.push_back(std::move(run));
                              });
    if (!total)
        return total.error();
    page.totalCount = *total;
    return page;
}

std::string nextLink(std::string_view linkHeader)
{
    // <https://api.github.com/...&page=2>; rel="next", <...>; rel="last"
    std::size_t at = 0;
    while ((at = linkHeader.find('<', at)) != std::string_view::npos) {
        const auto close = linkHeader.find('>', at);
        if (close == std::string_view::npos)
            return {};
        const auto end = std::min(linkHeader.find('<', close), linkHeader.size());
        const std::string_view params = linkHeader.substr(close + 1, end - close - 1);
        if (params.find("rel=\"next\"") != std::string_view::npos
            || params.find("rel=next") != std::string_view::npos)
            return std::string(linkHeader.substr(at + 1, close - at - 1));
        at = close;
    }
    return {};
}

} // namespace github

namespace artifacts {

S3Error parseS3Error(std::string_view body)
{
    pugi::xml_document doc;
    if (!doc.load_buffer(body.data(), body.size(), kXmlOptions))
        return {};
    const auto error = doc.child("Error");
    return {error.child_value("Code"), error.child_value("Message")};
}

Result<S3ListPage> parseS3Listing(std::string_view body, const std::string& what)
{
    pugi::xml_document doc;
    const auto parsed = doc.load_buffer(body.data(), body.size(), kXmlOptions);
    const auto result = doc.child("ListBucketResult");
    if (!parsed || !result)
        return makeError("S3's listing of " + what + " is not a ListBucketResult");
    S3ListPage page;
    for (auto contents : result.children("Contents")) {
        S3Object object{contents.child_value("Key"), contents.child_value("ETag"), -1};
        const std::string_view size = contents.child_value("Size");
        std::int64_t bytes = 0;
        const auto [end, error] = std::from_chars(size.data(), size.data() + size.size(), bytes);
        if (error == std::errc() && end == size.data() + size.size() && bytes >= 0)
            object.size = bytes;
        page.objects.push_back(std::move(object));
    }
    if (std::string_view(result.child_value("IsTruncated")) == "true")
        page.nextToken = result.child_value("NextContinuationToken");
    return page;
}

} // namespace artifacts
} // namespace relayhud
