#include "sim_sigv4.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <utility>
#include <vector>

namespace relayhud::sim {
namespace {

constexpr std::string_view kAlgorithm = "AWS4-HMAC-SHA256";
constexpr EpochSeconds kMaxSkew = 15 * 60;

std::string_view trimSpaces(std::string_view text)
{
    while (!text.empty() && text.front() == ' ')
        text.remove_prefix(1);
    while (!text.empty() && text.back() == ' ')
        text.remove_suffix(1);
    return text;
}

// A header value as SigV4 canonicalizes it: trimmed, inner runs of spaces
// collapsed to one.
std::string canonicalValue(std::string_view value)
{
    std::string out;
    for (char c : trimSpaces(value)) {
        if (c == ' ' && !out.empty() && out.back() == ' ')
            continue;
        out.push_back(c);
    }
    return out;
}

std::vector<std::string_view> split(std::string_view text, char sep)
{
    std::vector<std::string_view> out;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(sep, start), text.size());
        out.push_back(text.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

struct AuthHeader {
    std::string accessKeyId;
    std::string scopeDate;
    std::string region;
    std::string service;
    std::string signedHeaders;
    std::string signature;
};

// "AWS4-HMAC-SHA256 Credential=AKID/20260504/us-east-1/s3/aws4_request,
//  SignedHeaders=host;x-amz-date, Signature=hex"
bool parseAuthorization(std::string_view header, AuthHeader& out)
{
    if (header.substr(0, kAlgorithm.size()) != kAlgorithm)
        return false;
    header.remove_prefix(kAlgorithm.size());
    for (std::string_view part : split(header, ',')) {
        part = trimSpaces(part);
        const std::size_t eq = part.find('=');
        const std::string_view name = part.substr(0, eq);
        const std::string_view value = eq == std::string_view::npos ? "" : part.substr(eq + 1);
        if (name == "Credential") {
            const auto scope = split(value, '/');
            if (scope.size() != 5 || scope[4] != "aws4_request")
                return false;
            out = {std::string(scope[0]), std::string(scope[1]), std::string(scope[2]),
                   std::string(scope[3]), out.signedHeaders,     out.signature};
        } else if (name == "SignedHeaders") {
            out.signedHeaders = value;
        } else if (name == "Signature") {
            out.signature = value;
        }
    }
    return !out.accessKeyId.empty() && !out.signedHeaders.empty() && !out.signature.empty();
}

SigV4Check failure(int status, std::string code, std::string message)
{
    return SigV4Check{status, std::move(code), std::move(message), {}, {}};
}

std::string canonicalHeaders(const SimRequest& request, std::string_view signedHeaders)
{
    std::string out;
    for (std::string_view name : split(signedHeaders, ';'))
        out += std::string(name) + ":" + canonicalValue(request.header(std::string(name))) + "\n";
    return out;
}

std::string signingKey(const SigV4Keys& keys, const AuthHeader& auth)
{
    std::string key = hmacSha256("AWS4" + keys.secretAccessKey, auth.scopeDate);
    key = hmacSha256(key, auth.region);
    key = hmacSha256(key, auth.service);
    return hmacSha256(key, "aws4_request");
}

// The payload hash the client declares; S3 insists on the header and checks
// a declared hash against the (here always empty) body.
SigV4Check payloadHash(const SimRequest& request, std::string& out)
{
    out = request.header("x-amz-content-sha256");
    if (out.empty())
        return failure(400, "InvalidRequest",
                       "Missing required header for this request: x-amz-content-sha256");
    if (out != "UNSIGNED-PAYLOAD" && out != sha256Hex(""))
        return failure(400, "XAmzContentSHA256Mismatch",
                       "The provided 'x-amz-content-sha256' header does not match what was "
                       "computed.");
    return {};
}

SigV4Check checkScope(const AuthHeader& auth, const SigV4Keys& keys, const std::string& date,
                      EpochSeconds now)
{
    if (auth.accessKeyId != keys.accessKeyId)
        return failure(403, "InvalidAccessKeyId",
                       "The AWS Access Key Id you provided does not exist in our records.");
    if (auth.region != keys.region)
        return failure(400, "AuthorizationHeaderMalformed",
                       "The authorization header is malformed; the region '" + auth.region
                           + "' is wrong; expecting '" + keys.region + "'");
    const EpochSeconds signedAt = parseAmzDate(date);
    if (signedAt < 0 || date.substr(0, 8) != auth.scopeDate || auth.service != keys.service)
        return failure(403, "AccessDenied", "Access Denied");
    if (signedAt < now - kMaxSkew || signedAt > now + kMaxSkew)
        return failure(403, "RequestTimeTooSkewed",
                       "The difference between the request time and the current time is too "
                       "large.");
    return {};
}

} // namespace

std::string toHex(std::string_view bytes)
{
    static constexpr char kDigits[] = "0123456789abcdef";
    std::string out;
    out.reserve(bytes.size() * 2);
    for (char c : bytes) {
        const auto u = static_cast<unsigned char>(c);
        out.push_back(kDigits[u >> 4]);
        out.push_back(kDigits[u & 0xF]);
    }
    return out;
}

std::string sha256Hex(std::string_view data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    EVP_Digest(data.data(), data.size(), digest, &length, EVP_sha256(), nullptr);
    return toHex(std::string_view(reinterpret_cast<const char*>(digest), length));
}

std::string hmacSha256(std::string_view key, std::string_view data)
{
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
         reinterpret_cast<const unsigned char*>(data.data()), data.size(), digest, &length);
    return std::string(reinterpret_cast<const char*>(digest), length);
}

std::string canonicalUri(std::string_view rawPath)
{
    return uriEncode(percentDecode(rawPath.empty() ? "/" : rawPath), true);
}

std::string canonicalQuery(std::string_view rawQuery)
{
    std::vector<std::pair<std::string, std::string>> items;
    for (std::string_view item : split(rawQuery, '&')) {
        if (item.empty())
            continue;
        const std::size_t eq = item.find('=');
        const std::string_view value = eq == std::string_view::npos ? "" : item.substr(eq + 1);
        items.emplace_back(uriEncode(percentDecode(item.substr(0, eq)), false),
                           uriEncode(percentDecode(value), false));
    }
    std::sort(items.begin(), items.end());
    std::string out;
    for (const auto& [name, value] : items)
        out += (out.empty() ? "" : "&") + name + "=" + value;
    return out;
}

SigV4Check verifySigV4(const SimRequest& request, const SigV4Keys& keys, EpochSeconds now)
{
    const std::string& authorization = request.header("authorization");
    if (authorization.empty())
        return failure(403, "AccessDenied", "Access Denied");
    AuthHeader auth;
    if (!parseAuthorization(authorization, auth))
        return failure(400, "AuthorizationHeaderMalformed",
                       "The authorization header is malformed");
    const std::string& date = request.header("x-amz-date");
    if (SigV4Check scope = checkScope(auth, keys, date, now); scope.status != 0)
        return scope;
    const auto names = split(auth.signedHeaders, ';');
    if (std::find(names.begin(), names.end(), "host") == names.end())
        return failure(403, "AccessDenied", "Access Denied");
    std::string payload;
    if (SigV4Check hash = payloadHash(request, payload); hash.status != 0)
        return hash;
    SigV4Check out;
    out.canonicalRequest = request.method + "\n" + canonicalUri(request.rawPath) + "\n"
                           + canonicalQuery(request.rawQuery) + "\n"
                           + canonicalHeaders(request, auth.signedHeaders) + "\n"
                           + auth.signedHeaders + "\n" + payload;
    out.stringToSign = std::string(kAlgorithm) + "\n" + date + "\n" + auth.scopeDate + "/"
                       + auth.region + "/" + auth.service + "/aws4_request\n"
                       + sha256Hex(out.canonicalRequest);
    const std::string expected = toHex(hmacSha256(signingKey(keys, auth), out.stringToSign));
    if (expected != auth.signature) {
        out.status = 403;
        out.code = "SignatureDoesNotMatch";
        out.message = "The request signature we calculated does not match the signature you "
                      "provided. Check your key and signing method.";
    }
    return out;
}

std::string amzDate(EpochSeconds t)
{
    const auto seconds = static_cast<std::time_t>(t);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    char buf[32];
    std::strftime(buf, sizeof buf, "%Y%m%dT%H%M%SZ", &tm);
    return buf;
}

EpochSeconds parseAmzDate(std::string_view text)
{
    std::tm tm{};
    int year = 0, month = 0;
    if (text.size() != 16
        || std::sscanf(std::string(text).c_str(), "%4d%2d%2dT%2d%2d%2dZ", &year, &month,
                       &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec)
               != 6)
        return -1;
    tm.tm_year = year - 1900;
    tm.tm_mon = month - 1;
    return static_cast<EpochSeconds>(timegm(&tm));
}

std::string signBlobQuery(std::string_view path, std::string_view key, EpochSeconds now,
                          int expiresSeconds, std::string_view region)
{
    const std::string date = amzDate(now);
    const std::string expires = std::to_string(expiresSeconds);
    const std::string signature =
        toHex(hmacSha256(key, std::string(path) + "\n" + date + "\n" + expires));
    return "X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential="
           + uriEncode("RELAYHUDBLOBSTORE/" + date.substr(0, 8) + "/" + std::string(region)
                           + "/s3/aws4_request",
                       false)
           + "&X-Amz-Date=" + date + "&X-Amz-Expires=" + expires
           + "&X-Amz-SignedHeaders=host&X-Amz-Signature=" + signature;
}

BlobAccess checkBlobQuery(const SimRequest& request, std::string_view key, EpochSeconds now)
{
    const std::string& date = request.param("X-Amz-Date");
    const std::string& expires = request.param("X-Amz-Expires");
    const std::string& signature = request.param("X-Amz-Signature");
    if (date.empty() || expires.empty() || signature.empty())
        return BlobAccess::Unsigned;
    const std::string expected =
        toHex(hmacSha256(key, request.path + "\n" + date + "\n" + expires));
    if (expected != signature)
        return BlobAccess::BadSignature;
    const EpochSeconds signedAt = parseAmzDate(date);
    const EpochSeconds lifetime = std::atoll(expires.c_str());
    return now > signedAt + lifetime ? BlobAccess::Expired : BlobAccess::Granted;
}

} // namespace relayhud::sim
