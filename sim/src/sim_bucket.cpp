#include "sim_bucket.h"

#include "sim_sigv4.h"
#include "sim_text.h"

#include <algorithm>
#include <charconv>
#include <optional>

namespace relayhud::sim {
namespace {

constexpr std::string_view kXmlHeader = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";

std::string escaped(std::string_view text)
{
    std::string out;
    appendXmlEscaped(out, text, true);
    return out;
}

std::string element(std::string_view name, std::string_view value)
{
    return "<" + std::string(name) + ">" + escaped(value) + "</" + std::string(name) + ">";
}

std::string requestId(const SimRequest& request)
{
    return quotedHash(request.rawPath + request.rawQuery + request.header("x-amz-date"))
        .substr(1, 16);
}

// S3's ISO 8601 with milliseconds: "2026-05-04T17:00:00.000Z".
std::string s3Time(EpochSeconds t)
{
    std::string out = githubTime(t);
    out.insert(out.size() - 1, ".000");
    return out;
}

std::size_t maxKeys(const SimRequest& request)
{
    const std::string& text = request.param("max-keys");
    std::size_t value = 1000;
    if (!text.empty())
        std::from_chars(text.data(), text.data() + text.size(), value);
    return std::min<std::size_t>(value, 1000);
}

// Continuation tokens are opaque to clients; here the hex of the last key.
std::string tokenFor(const std::string& key) { return toHex(key); }

std::optional<std::string> keyOfToken(const std::string& token)
{
    std::string out;
    for (std::size_t i = 0; i + 1 < token.size(); i += 2) {
        unsigned value = 0;
        const auto [end, ec] = std::from_chars(token.data() + i, token.data() + i + 2, value, 16);
        if (ec != std::errc() || end != token.data() + i + 2)
            return std::nullopt;
        out.push_back(static_cast<char>(value));
    }
    if (token.size() % 2 != 0)
        return std::nullopt;
    return out;
}

} // namespace

ApiResponse s3Error(int status, const std::string& code, const std::string& message,
                    const std::string& extra)
{
    const std::string body = std::string(kXmlHeader) + "<Error>" + element("Code", code)
                             + element("Message", message) + extra
                             + "<RequestId>4442587FB7D0A2F9</RequestId></Error>";
    return ApiResponse{status, body, "application/xml", {}};
}

SimBucket::SimBucket(const ArtifactIndex& index, BlobStore& blobs, const SimStoreSettings& settings,
                     const SimClock& clock)
    : m_index(index), m_blobs(blobs), m_settings(settings), m_clock(clock)
{
}

ApiResponse SimBucket::handle(const SimRequest& request)
{
    const SigV4Keys keys{m_settings.s3AccessKeyId, m_settings.s3SecretAccessKey,
                         m_settings.s3Region, "s3"};
    const SigV4Check check = verifySigV4(request, keys, m_clock.hostNow());
    if (check.status != 0) {
        std::string extra;
        if (check.code == "SignatureDoesNotMatch")
            extra = element("AWSAccessKeyId", keys.accessKeyId)
                    + element("StringToSign", check.stringToSign)
                    + element("CanonicalRequest", check.canonicalRequest);
        return s3Error(check.status, check.code, check.message, extra);
    }
    std::string_view rest = std::string_view(request.path).substr(3); // after "/s3"
    if (!rest.empty() && rest.front() == '/')
        rest.remove_prefix(1);
    const std::size_t slash = rest.find('/');
    const std::string bucket(rest.substr(0, slash));
    if (bucket != kSimBucket)
        return s3Error(404, "NoSuchBucket", "The specified bucket does not exist",
                       element("BucketName", bucket));
    ApiResponse out = slash == std::string_view::npos || slash + 1 == rest.size()
                          ? list(request)
                          : get(request, std::string(rest.substr(slash + 1)));
    out.headers.emplace_back("x-amz-request-id", requestId(request));
    return out;
}

ApiResponse SimBucket::get(const SimRequest& request, const std::string& key)
{
    const BucketObject* object = m_index.object(key);
    if (!object)
        return s3Error(404, "NoSuchKey", "The specified key does not exist.", element("Key", key));
    const BlobPtr blob = m_blobs.bucketObject(*object);
    return serveObject(request, blob->bytes, blob->contentType, blob->etag, blob->lastModified);
}

// Keys after `after` under `prefix`, rolled up at `delimiter`, up to the limit.
SimBucket::Listing SimBucket::collect(const SimRequest& request, const std::string& after) const
{
    const std::string& prefix = request.param("prefix");
    const std::string& delimiter = request.param("delimiter");
    const bool urlKeys = request.param("encoding-type") == "url";
    const std::size_t limit = maxKeys(request);
    const auto& objects = m_index.bucket();
    auto it =
        std::upper_bound(objects.begin(), objects.end(), after,
                         [](const std::string& k, const BucketObject& o) { return k < o.key; });
    Listing out;
    std::string lastPrefix;
    for (; it != objects.end() && it->key.compare(0, prefix.size(), prefix) <= 0; ++it) {
        if (it->key.compare(0, prefix.size(), prefix) != 0)
            continue;
        const std::size_t cut =
            delimiter.empty() ? std::string::npos : it->key.find(delimiter, prefix.size());
        const std::string common =
            cut == std::string::npos ? "" : it->key.substr(0, cut + delimiter.size());
        if (!common.empty() && common == lastPrefix)
            continue; // rolled up into a CommonPrefix already listed
        if (out.count == limit) {
            out.truncated = true;
            break;
        }
        ++out.count;
        out.lastKey = common.empty() ? it->key : common;
        if (!common.empty()) {
            lastPrefix = common;
            out.prefixes += "<CommonPrefixes>"
                            + element("Prefix", urlKeys ? uriEncode(common, true) : common)
                            + "</CommonPrefixes>";
            continue;
        }
        const BlobMeta blob = m_blobs.bucketObjectMeta(*it);
        out.contents += "<Contents>" + element("Key", urlKeys ? uriEncode(it->key, true) : it->key)
                        + element("LastModified", s3Time(blob.lastModified))
                        + element("ETag", blob.etag) + element("Size", std::to_string(blob.size))
                        + element("StorageClass", "STANDARD") + "</Contents>";
    }
    return out;
}

ApiResponse SimBucket::list(const SimRequest& request)
{
    const bool v2 = request.param("list-type") == "2";
    std::string after = v2 ? request.param("start-after") : request.param("marker");
    if (v2 && request.hasParam("continuation-token")) {
        const auto key = keyOfToken(request.param("continuation-token"));
        if (!key)
            return s3Error(400, "InvalidArgument", "The continuation token provided is incorrect");
        after = *key;
    }
    const Listing listing = collect(request, after);
    const std::string& delimiter = request.param("delimiter");
    std::string body = std::string(kXmlHeader)
                       + "<ListBucketResult xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
                       + element("Name", kSimBucket) + element("Prefix", request.param("prefix"));
    if (v2) {
        body += element("KeyCount", std::to_string(listing.count));
        if (request.hasParam("continuation-token"))
            body += element("ContinuationToken", request.param("continuation-token"));
        if (listing.truncated)
            body += element("NextContinuationToken", tokenFor(listing.lastKey));
    } else {
        body += element("Marker", request.param("marker"));
        if (listing.truncated && !delimiter.empty())
            body += element("NextMarker", listing.lastKey);
    }
    body += element("MaxKeys", std::to_string(maxKeys(request)));
    if (!delimiter.empty())
        body += element("Delimiter", delimiter);
    if (request.param("encoding-type") == "url")
        body += element("EncodingType", "url");
    body += element("IsTruncated", listing.truncated ? "true" : "false") + listing.contents
            + listing.prefixes + "</ListBucketResult>";
    return ApiResponse{200, body, "application/xml", {}};
}

} // namespace relayhud::sim
