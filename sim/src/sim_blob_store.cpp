#include "sim_blob_store.h"

#include "sim_archive.h"
#include "sim_encoding.h"
#include "sim_sigv4.h"

#include <openssl/evp.h>

namespace relayhud::sim {
namespace {

std::string quotedMd5(const std::string& bytes)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(bytes.data(), bytes.size(), digest, &length, EVP_md5(), nullptr);
    return "\"" + toHex(std::string_view(reinterpret_cast<const char*>(digest), length)) + "\"";
}

Blob makeBlob(std::string bytes, const char* contentType, const SimRow& row)
{
    Blob out;
    out.etag = quotedMd5(bytes);
    out.sha256 = sha256Hex(bytes);
    out.bytes = std::move(bytes);
    out.contentType = contentType;
    out.lastModified = row.run.reported.completedAt.value_or(0);
    return out;
}

} // namespace

BlobStore::BlobStore(const SimArtifacts& artifacts, const ArtifactIndex& index,
                     std::size_t capBytes)
    : m_artifacts(artifacts), m_index(index), m_cap(capBytes)
{
}

BlobPtr BlobStore::cached(const std::string& key, const std::function<Blob()>& build)
{
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_entries.find(key); it != m_entries.end()) {
            m_order.splice(m_order.begin(), m_order, it->second.position);
            return it->second.blob;
        }
    }
    // Built outside the lock: two threads may build the same blob, identically.
    auto blob = std::make_shared<const Blob>(build());
    std::lock_guard lock(m_mutex);
    if (m_entries.count(key) != 0)
        return blob;
    m_order.push_front(key);
    m_entries.emplace(key, Entry{blob, m_order.begin()});
    m_bytes += blob->bytes.size();
    while (m_bytes > m_cap && m_order.size() > 1) {
        const auto last = m_entries.find(m_order.back());
        m_bytes -= last->second.blob->bytes.size();
        m_entries.erase(last);
        m_order.pop_back();
    }
    return blob;
}

BlobMeta BlobStore::meta(const std::string& key, const std::function<BlobPtr()>& fetch)
{
    {
        std::lock_guard lock(m_mutex);
        if (auto it = m_meta.find(key); it != m_meta.end())
            return it->second;
    }
    const BlobPtr blob = fetch();
    BlobMeta out{blob->bytes.size(), blob->etag, blob->sha256, blob->lastModified};
    std::lock_guard lock(m_mutex);
    m_meta.emplace(key, out);
    return out;
}

BlobMeta BlobStore::githubZipMeta(const SimRow& row)
{
    return meta("zip:" + row.run.checkRunId.value, [&] { return githubZip(row); });
}

BlobMeta BlobStore::githubArtifactMeta(const GitHubArtifact& artifact)
{
    if (artifact.kind == SimArtifactKind::JobReports)
        return githubZipMeta(*artifact.row);
    return meta("gha:" + std::to_string(artifact.id), [&] { return githubArtifactZip(artifact); });
}

BlobPtr BlobStore::githubArtifactZip(const GitHubArtifact& artifact)
{
    const SimRow& row = *artifact.row;
    switch (artifact.kind) {
    case SimArtifactKind::JobReports: return githubZip(row);
    case SimArtifactKind::Wheel:
        return cached("gha:" + std::to_string(artifact.id), [&] {
            std::string bytes(64 * 1024, '\0');
            std::uint64_t x = static_cast<std::uint64_t>(artifact.id);
            for (char& c : bytes) {
                x = x * 6364136223846793005ULL + 1442695040888963407ULL;
                c = static_cast<char>(x >> 56);
            }
            ArchiveEntries entries;
            entries.emplace_back(artifact.name + ".whl", std::move(bytes));
            return makeBlob(writeZip(entries, artifact.createdAt), "application/zip", row);
        });
    case SimArtifactKind::SuiteReport:
    case SimArtifactKind::MergedReports: break;
    }
    return cached("gha:" + std::to_string(artifact.id), [&] {
        ArchiveEntries entries;
        std::vector<SimReport> reports = m_artifacts.reports(row);
        for (std::size_t i = 0; i < reports.size(); ++i)
            if (artifact.kind == SimArtifactKind::MergedReports || i == artifact.suite)
                entries.emplace_back((artifact.kind == SimArtifactKind::MergedReports
                                          ? "xml_artifacts/" + reports[i].name + "/"
                                          : std::string())
                                         + reports[i].name,
                                     std::move(reports[i].xml));
        return makeBlob(writeZip(entries, artifact.createdAt), "application/zip", row);
    });
}

BlobMeta BlobStore::bucketObjectMeta(const BucketObject& object)
{
    return meta("s3:" + object.key, [&] { return bucketObject(object); });
}

BlobPtr BlobStore::githubZip(const SimRow& row)
{
    return cached("zip:" + row.run.checkRunId.value, [&] {
        ArchiveEntries entries;
        for (SimReport& report : m_artifacts.reports(row))
            entries.emplace_back(std::move(report.name), std::move(report.xml));
        return makeBlob(writeZip(entries, row.run.reported.completedAt.value_or(0)),
                        "application/zip", row);
    });
}

BlobPtr BlobStore::jobLog(const SimRow& row)
{
    return cached("log:" + row.run.checkRunId.value, [&] {
        return makeBlob(m_artifacts.jobLog(row), "text/plain; charset=utf-8", row);
    });
}

BlobPtr BlobStore::bucketObject(const BucketObject& object)
{
    return cached("s3:" + object.key, [&] {
        std::vector<SimReport> reports = m_artifacts.reports(*object.row);
        std::string xml = object.part < reports.size() ? std::move(reports[object.part].xml) : "";
        return makeBlob(std::move(xml), "application/xml", *object.row);
    });
}

BlobPtr BlobStore::file(const SimRow& row)
{
    return cached("file:" + row.run.checkRunId.value, [&] {
        std::vector<SimReport> reports = m_artifacts.reports(row);
        if (m_index.backend(row.run.downstreamRepo)->store == SimStore::HttpsTarball) {
            ArchiveEntries entries;
            for (SimReport& report : reports)
                entries.emplace_back("test-reports/" + report.name, std::move(report.xml));
            return makeBlob(writeTarGz(entries, row.run.reported.completedAt.value_or(0)),
                            "application/gzip", row);
        }
        return makeBlob(gzip(reports.empty() ? std::string() : reports.front().xml),
                        "application/gzip", row);
    });
}

} // namespace relayhud::sim
