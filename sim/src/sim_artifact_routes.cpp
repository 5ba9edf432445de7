#include "sim_artifact_routes.h"

#include "sim_sigv4.h"
#include "sim_text.h"

#include <charconv>
#include <cstdlib>

namespace relayhud::sim {
namespace {

bool startsWith(const std::string& text, std::string_view prefix)
{
    return text.compare(0, prefix.size(), prefix) == 0;
}

// What nginx in front of a file server answers for a missing file.
ApiResponse htmlNotFound()
{
    return ApiResponse{404,
                       "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center>"
                       "<h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>\r\n</body>"
                       "\r\n</html>\r\n",
                       "text/html",
                       {}};
}

// "/blob/artifacts/123.zip" -> "123" when the suffix matches.
std::string idBetween(const std::string& path, std::string_view prefix, std::string_view suffix)
{
    if (!startsWith(path, prefix) || path.size() <= prefix.size() + suffix.size()
        || path.compare(path.size() - suffix.size(), suffix.size(), suffix) != 0)
        return {};
    return path.substr(prefix.size(), path.size() - prefix.size() - suffix.size());
}

ApiResponse blobDenied(BlobAccess access, const SimRequest& request, EpochSeconds now)
{
    if (access == BlobAccess::BadSignature)
        return s3Error(403, "SignatureDoesNotMatch",
                       "The request signature we calculated does not match the signature you "
                       "provided. Check your key and signing method.");
    if (access == BlobAccess::Unsigned)
        return s3Error(403, "AccessDenied", "Access Denied");
    const EpochSeconds expiredAt = parseAmzDate(request.param("X-Amz-Date"))
                                   + std::atoll(request.param("X-Amz-Expires").c_str());
    return s3Error(403, "AccessDenied", "Request has expired",
                   "<X-Amz-Expires>" + request.param("X-Amz-Expires") + "</X-Amz-Expires><Expires>"
                       + githubTime(expiredAt) + "</Expires><ServerTime>" + githubTime(now)
                       + "</ServerTime>");
}

} // namespace

ArtifactRoutes::ArtifactRoutes(const SimDataset& data, const SimStoreSettings& settings,
                               const SimClock& clock, const std::string& baseUrl)
    : m_settings(settings), m_clock(clock), m_artifacts(data), m_index(data),
      m_blobs(m_artifacts, m_index), m_github(data, m_index, m_blobs, settings, clock, baseUrl),
      m_bucket(m_index, m_blobs, settings, clock)
{
}

bool ArtifactRoutes::owns(const std::string& path)
{
    return path == "/api/v3" || startsWith(path, "/api/v3/") || startsWith(path, "/blob/")
           || path == kStatsPath || path == "/s3" || startsWith(path, "/s3/")
           || startsWith(path, "/files/");
}

ApiResponse ArtifactRoutes::handle(const SimRequest& request)
{
    if (startsWith(request.path, "/api/v3"))
        return m_github.handle(request);
    if (startsWith(request.path, "/blob/"))
        return blob(request);
    if (request.path == kStatsPath)
        return stats();
    if (startsWith(request.path, "/s3"))
        return m_bucket.handle(request);
    return file(request);
}

// The short-lived URLs downloads redirect to: signed in the query, and
// refusing a second auth mechanism as S3 does, so a client that forwards its
// GitHub token on the redirect finds out.
ApiResponse ArtifactRoutes::blob(const SimRequest& request)
{
    if (!request.header("authorization").empty())
        return s3Error(400, "InvalidArgument",
                       "Only one auth mechanism allowed; only the X-Amz-Algorithm query "
                       "parameter, Signature query string parameter or the Authorization header "
                       "should be specified",
                       "<ArgumentName>Authorization</ArgumentName>");
    const EpochSeconds now = m_clock.now();
    const BlobAccess access = checkBlobQuery(request, blobSigningKey(m_settings), now);
    if (access != BlobAccess::Granted)
        return blobDenied(access, request, now);
    BlobPtr found;
    std::string filename;
    const std::string artifact = idBetween(request.path, "/blob/artifacts/", ".zip");
    std::int64_t id = 0;
    std::from_chars(artifact.data(), artifact.data() + artifact.size(), id);
    if (const GitHubArtifact* a = id ? m_index.githubArtifact(id) : nullptr) {
        found = m_blobs.githubArtifactZip(*a);
        filename = a->name + ".zip";
        if (a->kind == SimArtifactKind::Wheel) {
            m_wheelDownloads.fetch_add(1);
            m_wheelBytes.fetch_add(found->bytes.size());
        }
    } else if (const SimRow* job = m_index.job(idBetween(request.path, "/blob/logs/", ".txt"))) {
        found = m_blobs.jobLog(*job);
    }
    if (!found)
        return s3Error(404, "BlobNotFound", "The specified blob does not exist.");
    ApiResponse out =
        serveObject(request, found->bytes, found->contentType, found->etag, found->lastModified);
    if (!filename.empty())
        out.headers.emplace_back("Content-Disposition", "attachment; filename=" + filename
                                                            + "; filename*=UTF-8''" + filename);
    return out;
}

// What the simulator served that a client should never have asked for:
// wheels (issue 34's "no wheel is downloaded").
ApiResponse ArtifactRoutes::stats() const
{
    const std::string body = "{\"wheel_downloads\":" + std::to_string(m_wheelDownloads.load())
                             + ",\"wheel_bytes_served\":" + std::to_string(m_wheelBytes.load())
                             + "}";
    return ApiResponse{200, body, "application/json", {}};
}

ApiResponse ArtifactRoutes::file(const SimRequest& request)
{
    const SimRow* row = m_index.file(request.path);
    if (!row)
        return htmlNotFound();
    const BlobPtr found = m_blobs.file(*row);
    return serveObject(request, found->bytes, found->contentType, found->etag, found->lastModified);
}

} // namespace relayhud::sim
