#pragma once
// SHA-256 (and MD5) through OpenSSL's libcrypto (EVP), fed incrementally so a blob of
// hundreds of MB is hashed without being held in memory.
#include "relayhud/util/result.h"

#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace relayhud::artifacts {

enum class DigestKind : unsigned char {
    Sha256, // the content cache's keys
    Md5,    // S3's ETag of an object uploaded in one part
    Sha1,   // git's object names (the contents API's `sha`)
};

class Digest {
public:
    explicit Digest(DigestKind kind);
    ~Digest();
    Digest(const Digest&) = delete;
    Digest& operator=(const Digest&) = delete;

    void update(std::string_view bytes);
    // Lower-case hex of the digest; the hasher is done after this.
    std::string hexDigest();

private:
    evp_md_ctx_st* m_ctx;
};

class Sha256 : public Digest {
public:
    Sha256() : Digest(DigestKind::Sha256) {}
};

// The digest of an open file's contents from its current offset to its end.
Result<std::string> hashFileDescriptor(int fd, const std::string& what,
                                       DigestKind kind = DigestKind::Sha256);

// A 64-character lower-case hex string, i.e. something a hash could be.
bool isHexHash(std::string_view s);

} // namespace relayhud::artifacts
