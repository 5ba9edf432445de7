#pragma once
// SHA-256 through OpenSSL's libcrypto (EVP), fed incrementally so a blob of
// hundreds of MB is hashed without being held in memory.
#include "relayhud/util/result.h"

#include <string>
#include <string_view>

struct evp_md_ctx_st;

namespace relayhud::artifacts {

class Sha256 {
public:
    Sha256();
    ~Sha256();
    Sha256(const Sha256&) = delete;
    Sha256& operator=(const Sha256&) = delete;

    void update(std::string_view bytes);
    // Lower-case hex of the digest; the hasher is done after this.
    std::string hexDigest();

private:
    evp_md_ctx_st* m_ctx;
};

// The hash of an open file's contents from its current offset to its end.
Result<std::string> hashFileDescriptor(int fd, const std::string& what);

// A 64-character lower-case hex string, i.e. something a hash could be.
bool isHexHash(std::string_view s);

} // namespace relayhud::artifacts
