#include "sim_encoding.h"
#include "sim_text.h"

#include <zlib.h>

namespace relayhud::sim {
namespace {

// "gzip;q=0" refuses gzip; any other q (or none) accepts it.
bool acceptedCoding(std::string_view item)
{
    const std::size_t semicolon = item.find(';');
    if (trim(item.substr(0, semicolon)) != "gzip")
        return false;
    if (semicolon == std::string_view::npos)
        return true;
    std::string_view q = trim(item.substr(semicolon + 1));
    if (q.substr(0, 2) != "q=")
        return true;
    q.remove_prefix(2);
    return q.find_first_not_of("0.") != std::string_view::npos;
}

} // namespace

bool acceptsGzip(std::string_view acceptEncoding)
{
    std::size_t start = 0;
    while (start < acceptEncoding.size()) {
        const std::size_t comma = std::min(acceptEncoding.find(',', start), acceptEncoding.size());
        if (acceptedCoding(acceptEncoding.substr(start, comma - start)))
            return true;
        start = comma + 1;
    }
    return false;
}

std::string gzip(std::string_view data)
{
    z_stream stream{};
    // windowBits 15 + 16: a gzip header and trailer instead of zlib's.
    if (deflateInit2(&stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY)
        != Z_OK)
        return {};
    std::string out(deflateBound(&stream, static_cast<uLong>(data.size())), '\0');
    // zlib's API takes non-const input; deflate never writes through it.
    stream.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(data.data()));
    stream.avail_in = static_cast<uInt>(data.size());
    stream.next_out = reinterpret_cast<Bytef*>(out.data());
    stream.avail_out = static_cast<uInt>(out.size());
    const int status = deflate(&stream, Z_FINISH);
    out.resize(stream.total_out);
    deflateEnd(&stream);
    return status == Z_STREAM_END ? out : std::string();
}

} // namespace relayhud::sim
