// S3-compatible buckets (artifacts/stores.h): ListObjectsV2 for a prefix, then
// each report object, every request signed with SigV4 by libcurl.
#include "artifacts/stores.h"

#include "artifacts/blob_download.h"
#include "relayhud/artifacts/listings.h"
#include "relayhud/artifacts/report_names.h"
#include "relayhud/store/content_cache.h"
#include "relayhud/util/ascii.h"
#include "relayhud/util/file_ops.h"
#include "relayhud/util/sha256.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>

namespace relayhud::artifacts {
namespace {

constexpr int kMaxListPages = 20; // 20,000 keys
// libcurl 7.88 signs the SHA-256 of an empty payload but does not send it;
// S3 insists on the header. Its value is right for every GET.
constexpr const char* kEmptyPayloadHash =
    "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";

// SigV4's URI encoding: everything but unreserved characters, '/' kept in paths.
std::string encode(const std::string& text, bool keepSlash)
{
    static constexpr char hex[] = "0123456789ABCDEF";
    std::string out;
    for (const char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        if (std::isalnum(byte) || c == '-' || c == '_' || c == '.' || c == '~'
            || (keepSlash && c == '/'))
            out += c;
        else
            out += {'%', hex[byte >> 4], hex[byte & 15]};
    }
    return out;
}

std::string endpointOf(const ArtifactSettings& settings)
{
    std::string endpoint = settings.s3Endpoint.empty()
                               ? "https://s3." + settings.s3Region + ".amazonaws.com"
                               : settings.s3Endpoint;
    while (!endpoint.empty() && endpoint.back() == '/')
        endpoint.pop_back();
    return endpoint;
}

// "{endpoint}/{bucket}" (path style) or "{scheme}://{bucket}.{host}" (virtual hosted).
std::string bucketUrl(const ArtifactSettings& settings, const std::string& bucket)
{
    const std::string endpoint = endpointOf(settings);
    if (settings.s3PathStyle)
        return endpoint + "/" + bucket;
    const auto scheme = endpoint.find("://");
    if (scheme == std::string::npos)
        return endpoint + "/" + bucket;
    return endpoint.substr(0, scheme + 3) + bucket + "." + endpoint.substr(scheme + 3);
}

HttpRequest s3Request(const FetcherContext& context, const FetchCall& call, std::string url)
{
    HttpRequest request;
    request.url = std::move(url);
    request.statusAsAnswer = true;
    request.cancel = call.cancel;
    request.totalTimeout = kDownloadTimeout;
    request.maxBodyBytes = kMaxDownloadBytes;
    request.headers.emplace_back("x-amz-content-sha256", kEmptyPayloadHash);
    const Credentials& keys = context.credentials;
    if (!keys.s3SessionToken.empty())
        request.headers.emplace_back("x-amz-security-token", keys.s3SessionToken);
    if (!keys.s3AccessKeyId.empty())
        request.awsSigning = AwsSigning{"aws:amz:" + context.settings.s3Region + ":s3",
                                        keys.s3AccessKeyId, keys.s3SecretAccessKey};
    return request;
}

bool isCredentialCode(const std::string& code)
{
    static const std::array<std::string_view, 7> codes = {
        "AccessDenied", "InvalidAccessKeyId",   "SignatureDoesNotMatch",       "InvalidToken",
        "ExpiredToken", "TokenRefreshRequired", "AuthorizationHeaderMalformed"};
    return std::find(codes.begin(), codes.end(), code) != codes.end();
}

// The verdict on an S3 error answer for `what` ("s3://bucket/key").
Result<ArtifactFetch> judge(FetcherContext& context, const HttpResponse& answer,
                            const std::string& what)
{
    const S3Error error = parseS3Error(answer.body);
    const std::string said =
        error.code.empty()
            ? ""
            : " (S3: " + error.code + (error.message.empty() ? "" : ": " + error.message) + ")";
    if (answer.status == 401 || answer.status == 403 || isCredentialCode(error.code)) {
        const bool missing = context.credentials.s3AccessKeyId.empty();
        const std::string message = (missing ? "S3 keys missing: set " : "S3 keys refused: check ")
                                    + std::string(kS3KeysSetting) + said;
        if (!missing && error.code != "AccessDenied") // wrong keys fail for every bucket
            context.rememberRefusal("s3", message);
        return fetchWithStatus(FetchStatus::Unauthorized, context.redact(message));
    }
    if (answer.status == 404 || answer.status == 410)
        return fetchWithStatus(FetchStatus::Expired, what + " is gone" + said);
    return makeError(
        context.redact("HTTP " + std::to_string(answer.status) + " from S3 for " + what + said));
}

// The query in SigV4's canonical (sorted) order, which libcurl 7.88 signs as given.
std::string listUrl(const ArtifactSettings& settings, const std::string& bucket,
                    const std::string& prefix, const std::string& token)
{
    std::string query = token.empty() ? "" : "continuation-token=" + encode(token, false) + "&";
    query += "list-type=2&prefix=" + encode(prefix, false);
    return bucketUrl(settings, bucket) + (settings.s3PathStyle ? "?" : "/?") + query;
}

// Every key under the prefix, or the verdict of a refused listing.
Result<std::vector<S3Object>> listObjects(FetcherContext& context, FetchCall& call,
                                          const ArtifactLocation& location,
                                          std::optional<ArtifactFetch>& verdict)
{
    const std::string what = "s3://" + location.bucket + "/" + location.key;
    std::vector<S3Object> all;
    std::string token;
    for (int page = 0; page < kMaxListPages; ++page) {
        ++call.requests;
        auto answer = context.http.get(s3Request(
            context, call, listUrl(context.settings, location.bucket, location.key, token)));
        if (!answer)
            return makeError(context.redact(answer.message()));
        if (answer->status != 200) {
            auto judged = judge(context, *answer, what);
            if (!judged)
                return judged.error();
            verdict = std::move(*judged);
            return all;
        }
        auto parsed = parseS3Listing(answer->body, what);
        if (!parsed)
            return parsed.error();
        std::move(parsed->objects.begin(), parsed->objects.end(), std::back_inserter(all));
        token = parsed->nextToken;
        if (token.empty())
            break;
    }
    return all;
}

std::string lastPart(const std::string& key)
{
    const auto slash = key.find_last_of('/');
    return slash == std::string::npos ? key : key.substr(slash + 1);
}

// S3's ETag of an object uploaded in one part and not encrypted with SSE-KMS
// or SSE-C is the MD5 of its bytes, in quotes; a multipart upload's has a
// "-N" part count and others are opaque (AWS S3 API reference, "Common
// response headers: ETag"; user guide, "Checking object integrity").
std::optional<std::string> md5OfEtag(const std::string& etag, const HttpResponse& answer)
{
    const std::string sse = answer.header("x-amz-server-side-encryption");
    if (sse.starts_with("aws:kms")
        || !answer.header("x-amz-server-side-encryption-customer-algorithm").empty())
        return std::nullopt;
    std::string hex = etag;
    if (hex.size() >= 2 && hex.front() == '"' && hex.back() == '"')
        hex = hex.substr(1, hex.size() - 2);
    if (hex.size() != 32
        || !std::all_of(hex.begin(), hex.end(), [](char c) { return std::isxdigit(c) != 0; }))
        return std::nullopt;
    return lowerAscii(hex);
}

// Why a downloaded object is not the one S3 holds, if it is not: its size
// against the listing's (when the answer is of the object listed), its MD5
// against a single-part ETag. A body cut on the way and framed again by a
// proxy passes HTTP's own checks; these catch it.
std::optional<std::string> incompleteObject(const FetchedFile& file, const S3Object& object,
                                            const HttpResponse& answer)
{
    const std::string answered = answer.header("etag");
    const bool sameObject = answered.empty() || object.etag.empty() || answered == object.etag;
    if (sameObject && object.size >= 0 && file.bytes != static_cast<std::uint64_t>(object.size))
        return "came to " + std::to_string(file.bytes) + " bytes; the listing says "
               + std::to_string(object.size);
    const auto md5 = md5OfEtag(answered.empty() ? object.etag : answered, answer);
    if (!md5)
        return std::nullopt;
    const int fd = ::open(file.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return "cannot be read back: " + errnoText(errno);
    const auto digest = hashFileDescriptor(fd, file.path, DigestKind::Md5);
    ::close(fd);
    if (!digest)
        return digest.message();
    if (*digest != *md5)
        return "has MD5 " + *digest + "; its ETag says " + *md5;
    return std::nullopt;
}

// One object into the cache; no request when the listing's ETag is the one cached.
Result<ArtifactFetch> fetchObject(FetcherContext& context, FetchCall& call,
                                  const std::string& bucket, const S3Object& object)
{
    const std::string stable = "s3://" + bucket + "/" + object.key;
    const std::string name = lastPart(object.key);
    const auto record = context.blobs.lookupUrl(stable);
    if (record && !object.etag.empty() && record->etag == object.etag)
        if (auto cached = cachedFile(context, stable, name)) {
            ArtifactFetch fetch;
            fetch.files.push_back(std::move(*cached));
            return fetch;
        }
    const std::string url = bucketUrl(context.settings, bucket) + "/" + encode(object.key, true);
    auto blob = downloadToCache(context, call, stable, s3Request(context, call, url), true, name);
    if (!blob)
        return blob.error();
    if (!blob->file)
        return judge(context, blob->response, stable);
    if (!blob->file->fromCache)
        if (const auto problem = incompleteObject(*blob->file, object, blob->response)) {
            // Dropped, so the next pass downloads it whole instead of reusing it.
            context.blobs.forgetUrl(stable);
            context.blobs.remove(blob->file->hash);
            return makeError(stable + " " + *problem
                             + " (cut in transit?); asked again on the next pass");
        }
    ArtifactFetch fetch;
    fetch.files.push_back(std::move(*blob->file));
    return fetch;
}

} // namespace

Result<ArtifactFetch> fetchS3(FetcherContext& context, FetchCall& call,
                              const ArtifactLocation& location)
{
    if (auto refused = context.standingRefusal("s3"))
        return fetchWithStatus(FetchStatus::Unauthorized, *refused);
    const std::string where = "s3://" + location.bucket + "/" + location.key;
    std::vector<S3Object> objects;
    if (!location.key.empty() && !location.key.ends_with('/')) {
        objects.push_back({location.key, {}, -1});
    } else {
        std::optional<ArtifactFetch> verdict;
        auto listed = listObjects(context, call, location, verdict);
        if (!listed)
            return listed.error();
        if (verdict)
            return std::move(*verdict);
        std::erase_if(*listed,
                      [](const S3Object& o) { return !isImportableName(lastPart(o.key)); });
        objects = std::move(*listed);
        if (objects.empty())
            return fetchWithStatus(FetchStatus::Empty, "no reports under " + where);
    }
    ArtifactFetch fetch;
    for (const S3Object& object : objects) {
        if (call.cancelled())
            return makeError("cancelled");
        auto one = fetchObject(context, call, location.bucket, object);
        if (!one)
            return one.error();
        if (one->status == FetchStatus::Unauthorized)
            return std::move(*one);
        if (one->status == FetchStatus::Expired) { // removed since the listing
            fetch.message = one->message;
            continue;
        }
        std::move(one->files.begin(), one->files.end(), std::back_inserter(fetch.files));
    }
    if (fetch.files.empty())
        return fetchWithStatus(FetchStatus::Expired, fetch.message);
    fetch.message.clear();
    return fetch;
}

} // namespace relayhud::artifacts
