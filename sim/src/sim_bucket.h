#pragma once
// An S3-compatible bucket at {base}/s3, path style: GetObject (Range, ETag)
// and ListObjectsV2 (prefix, delimiter, max-keys, continuation tokens), every
// request verified against SigV4, errors in S3's XML.
#include "relayhud/sim/sim_server.h"
#include "sim_blob_store.h"
#include "sim_http.h"

namespace relayhud::sim {

class SimBucket {
public:
    SimBucket(const ArtifactIndex& index, BlobStore& blobs, const SimStoreSettings& settings,
              const SimClock& clock);
    ApiResponse handle(const SimRequest& request); // path starts with "/s3"

private:
    struct Listing {
        std::string contents; // <Contents> elements
        std::string prefixes; // <CommonPrefixes> elements
        std::string lastKey;
        std::size_t count = 0;
        bool truncated = false;
    };
    ApiResponse list(const SimRequest& request);
    Listing collect(const SimRequest& request, const std::string& after) const;
    ApiResponse get(const SimRequest& request, const std::string& key);

    const ArtifactIndex& m_index;
    BlobStore& m_blobs;
    const SimStoreSettings& m_settings;
    const SimClock& m_clock;
};

// S3's <Error> document.
ApiResponse s3Error(int status, const std::string& code, const std::string& message,
                    const std::string& extra = {});

} // namespace relayhud::sim
