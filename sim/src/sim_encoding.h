#pragma once
// Content-Encoding for the simulator's answers. The server gzips JSON itself
// instead of letting cpp-httplib choose: httplib prefers brotli at its
// slowest quality whenever a client (libcurl does) offers "br", which costs
// seconds per megabyte and would make every sync test CPU-bound.
#include <string>
#include <string_view>

namespace relayhud::sim {

// True when the Accept-Encoding header offers gzip with a non-zero q value.
bool acceptsGzip(std::string_view acceptEncoding);

// A complete gzip member (RFC 1952) holding `data`.
std::string gzip(std::string_view data);

} // namespace relayhud::sim
