#pragma once
// AWS Signature Version 4, server side: rebuilds the canonical request, the
// string to sign and the HMAC-SHA256 key chain from the request as received
// and compares signatures, answering with S3's error codes. Also signs and
// checks the short-lived blob URLs the GitHub API redirects to.
#include "sim_http.h"

#include <string>
#include <string_view>

namespace relayhud::sim {

struct SigV4Keys {
    std::string accessKeyId;
    std::string secretAccessKey;
    std::string region;
    std::string service = "s3";
};

// status 0: the signature holds. Otherwise the HTTP status and S3 error code.
struct SigV4Check {
    int status = 0;
    std::string code;    // "SignatureDoesNotMatch", ...
    std::string message; // S3's wording
    std::string canonicalRequest;
    std::string stringToSign;
};

SigV4Check verifySigV4(const SimRequest& request, const SigV4Keys& keys, EpochSeconds now);

// S3's canonical forms, exposed for tests.
std::string canonicalUri(std::string_view rawPath);
std::string canonicalQuery(std::string_view rawQuery);

std::string sha256Hex(std::string_view data);
std::string hmacSha256(std::string_view key, std::string_view data); // raw bytes
std::string toHex(std::string_view bytes);

// "X-Amz-Algorithm=...&X-Amz-Date=...&X-Amz-Expires=...&X-Amz-Signature=..."
// for `path`, signed with `key` at `now`.
std::string signBlobQuery(std::string_view path, std::string_view key, EpochSeconds now,
                          int expiresSeconds, std::string_view region);

enum class BlobAccess : std::uint8_t { Granted, Unsigned, Expired, BadSignature };
BlobAccess checkBlobQuery(const SimRequest& request, std::string_view key, EpochSeconds now);

// "20260504T170000Z" and back (-1 when malformed).
std::string amzDate(EpochSeconds t);
EpochSeconds parseAmzDate(std::string_view text);

} // namespace relayhud::sim
