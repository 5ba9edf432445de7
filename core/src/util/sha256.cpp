#include "relayhud/util/sha256.h"

#include "relayhud/util/file_ops.h"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <new>
#include <vector>

#include <unistd.h>

namespace relayhud::artifacts {

Digest::Digest(DigestKind kind) : m_ctx(EVP_MD_CTX_new())
{
    const EVP_MD* md = kind == DigestKind::Md5    ? EVP_md5()
                       : kind == DigestKind::Sha1 ? EVP_sha1()
                                                  : EVP_sha256();
    if (!m_ctx || EVP_DigestInit_ex(m_ctx, md, nullptr) != 1)
        throw std::bad_alloc(); // libcrypto fails here only when out of memory
}

Digest::~Digest() { EVP_MD_CTX_free(m_ctx); }

void Digest::update(std::string_view bytes) { EVP_DigestUpdate(m_ctx, bytes.data(), bytes.size()); }

std::string Digest::hexDigest()
{
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    EVP_DigestFinal_ex(m_ctx, digest.data(), &size);
    static constexpr char kHex[] = "0123456789abcdef";
    std::string hex;
    hex.reserve(size * 2u);
    for (unsigned int i = 0; i < size; ++i) {
        hex.push_back(kHex[digest[i] >> 4]);
        hex.push_back(kHex[digest[i] & 0xf]);
    }
    return hex;
}

Result<std::string> hashFileDescriptor(int fd, const std::string& what, DigestKind kind)
{
    Digest hasher(kind);
    std::vector<char> buffer(256 * 1024); // heap: worker threads may have small stacks
    for (;;) {
        const ssize_t n = ::read(fd, buffer.data(), buffer.size());
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return makeError("cannot read " + what + ": " + errnoText(errno));
        if (n == 0)
            return hasher.hexDigest();
        hasher.update(std::string_view(buffer.data(), static_cast<std::size_t>(n)));
    }
}

bool isHexHash(std::string_view s)
{
    return s.size() == 64 && std::all_of(s.begin(), s.end(), [](char c) {
               return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f');
           });
}

} // namespace relayhud::artifacts
