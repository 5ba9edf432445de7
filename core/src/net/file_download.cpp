#include "net/file_download.h"

#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace relayhud::net {
namespace {

namespace fs = std::filesystem;

std::string headerOf(const std::map<std::string, std::string>& headers, const std::string& name)
{
    const auto it = headers.find(name);
    return it == headers.end() ? std::string() : it->second;
}

std::string validatorPath(const std::string& path) { return path + ".etag"; }

std::string readValidator(const std::string& path)
{
    std::ifstream in(validatorPath(path), std::ios::binary);
    std::string etag;
    std::getline(in, etag);
    return etag;
}

// The first byte position of "bytes 100-199/200", or -1.
std::int64_t rangeStart(const std::string& contentRange)
{
    constexpr std::string_view unit = "bytes ";
    if (!contentRange.starts_with(unit))
        return -1;
    std::int64_t start = -1;
    const char* first = contentRange.data() + unit.size();
    const auto [end, error] =
        std::from_chars(first, contentRange.data() + contentRange.size(), start);
    return error == std::errc() && end != first && *end == '-' ? start : -1;
}

} // namespace

FileDownload::FileDownload(std::string path, std::int64_t maxBytes)
    : m_path(std::move(path)), m_maxBytes(maxBytes)
{
}

FileDownload::~FileDownload() { close(); }

void FileDownload::prepareAttempt()
{
    close();
    m_begun = false;
    m_restartWanted = false;
    m_tooLarge = false;
    m_writeError.clear();
    std::error_code error;
    const auto size = fs::file_size(m_path, error);
    m_offset = error ? 0 : static_cast<std::int64_t>(size);
    m_validator = m_offset > 0 ? readValidator(m_path) : std::string();
    if (m_offset > 0 && m_validator.empty())
        discard(); // nothing proves the next answer continues these bytes
}

bool FileDownload::write(long status, const std::map<std::string, std::string>& headers,
                         const char* data, std::size_t size)
{
    if (!m_begun) {
        m_begun = true;
        if (!begin(status, headers))
            return false;
    }
    if (!m_file)
        return false;
    const auto bytes = static_cast<std::int64_t>(size);
    if (m_maxBytes > 0 && m_size + bytes > m_maxBytes) {
        m_tooLarge = true;
        return false;
    }
    if (std::fwrite(data, 1, size, m_file) != size) {
        m_writeError = "could not write " + m_path + ": " + std::strerror(errno);
        return false;
    }
    m_size += bytes;
    return true;
}

bool FileDownload::begin(long status, const std::map<std::string, std::string>& headers)
{
    const bool partial = status == 206;
    if (partial && !continuesOurBytes(headers)) {
        m_restartWanted = true;
        return false;
    }
    const bool append = partial && m_offset > 0;
    m_file = std::fopen(m_path.c_str(), append ? "ab" : "wb");
    if (!m_file) {
        m_writeError = "could not write " + m_path + ": " + std::strerror(errno);
        return false;
    }
    m_size = append ? m_offset : 0;
    if (!append)
        keepValidator(headers);
    return true;
}

bool FileDownload::continuesOurBytes(const std::map<std::string, std::string>& headers) const
{
    if (rangeStart(headerOf(headers, "content-range")) != m_offset)
        return false;
    return m_validator.empty() || headerOf(headers, "etag") == m_validator;
}

// Only a strong ETag may validate a range (RFC 9110, 13.1.5).
void FileDownload::keepValidator(const std::map<std::string, std::string>& headers)
{
    const std::string etag = headerOf(headers, "etag");
    std::error_code ignored;
    if (etag.empty() || etag.starts_with("W/")) {
        fs::remove(validatorPath(m_path), ignored);
        return;
    }
    std::ofstream(validatorPath(m_path), std::ios::binary | std::ios::trunc) << etag << '\n';
}

Result<void> FileDownload::finish(long status, const std::map<std::string, std::string>& headers)
{
    if (!m_begun) { // an empty body: the file still has to say so
        m_begun = true;
        if (!begin(status, headers))
            return makeError(m_writeError.empty() ? "the answer does not continue " + m_path
                                                  : m_writeError);
    }
    if (!m_file)
        return makeError(m_writeError.empty() ? "could not write " + m_path : m_writeError);
    const bool flushed = std::fflush(m_file) == 0 && !std::ferror(m_file);
    const int savedErrno = errno;
    close();
    if (!flushed)
        return makeError("could not write " + m_path + ": " + std::strerror(savedErrno));
    std::error_code ignored;
    fs::remove(validatorPath(m_path), ignored); // complete: nothing left to resume
    return {};
}

void FileDownload::discard()
{
    close();
    std::error_code ignored;
    fs::remove(m_path, ignored);
    fs::remove(validatorPath(m_path), ignored);
    m_offset = 0;
    m_validator.clear();
}

void FileDownload::close()
{
    if (m_file)
        std::fclose(m_file);
    m_file = nullptr;
}

} // namespace relayhud::net
