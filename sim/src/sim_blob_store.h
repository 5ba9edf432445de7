#pragma once
// The bytes the stores serve (artifact zips, job logs, bucket objects, HTTPS
// files), generated on first request and kept in a byte-capped LRU. Blobs
// are deterministic, so an evicted one comes back byte-identical with the
// same ETag.
#include "relayhud/sim/sim_artifacts.h"
#include "sim_artifact_index.h"

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <unordered_map>

namespace relayhud::sim {

struct Blob {
    std::string bytes;
    std::string etag; // quoted MD5, as S3 and blob storage answer
    std::string sha256;
    std::string contentType;
    EpochSeconds lastModified = 0;
};
using BlobPtr = std::shared_ptr<const Blob>;

// What listings show of a blob; kept after the bytes are evicted, so a
// repeated listing does not regenerate every object it names.
struct BlobMeta {
    std::uint64_t size = 0;
    std::string etag;
    std::string sha256;
    EpochSeconds lastModified = 0;
};

class BlobStore {
public:
    BlobStore(const SimArtifacts& artifacts, const ArtifactIndex& index,
              std::size_t capBytes = 256U << 20);

    BlobPtr githubZip(const SimRow& row);
    // Any GitHub artifact's zip: a job's reports, one suite's or every
    // suite's JUnit, or a wheel's stand-in bytes (listed at its real size).
    BlobPtr githubArtifactZip(const GitHubArtifact& artifact);
    BlobMeta githubArtifactMeta(const GitHubArtifact& artifact);
    BlobPtr jobLog(const SimRow& row);
    BlobPtr bucketObject(const BucketObject& object);
    BlobPtr file(const SimRow& row);

    BlobMeta githubZipMeta(const SimRow& row);
    BlobMeta bucketObjectMeta(const BucketObject& object);

private:
    BlobPtr cached(const std::string& key, const std::function<Blob()>& build);
    BlobMeta meta(const std::string& key, const std::function<BlobPtr()>& fetch);

    const SimArtifacts& m_artifacts;
    const ArtifactIndex& m_index;
    std::size_t m_cap;
    std::mutex m_mutex;
    std::size_t m_bytes = 0;
    std::list<std::string> m_order; // most recent first
    struct Entry {
        BlobPtr blob;
        std::list<std::string>::iterator position;
    };
    std::unordered_map<std::string, Entry> m_entries;
    std::unordered_map<std::string, BlobMeta> m_meta;
};

} // namespace relayhud::sim
