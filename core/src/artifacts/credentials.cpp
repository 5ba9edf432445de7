// Credentials::fromEnvironment (artifacts/artifact_store.h).
#include "relayhud/artifacts/artifact_store.h"

#include <cstdlib>

namespace relayhud {
namespace {

// A variable's value without surrounding whitespace: a token pasted from a
// file often ends with a newline, which would break the header it goes in.
std::string variable(const char* name)
{
    const char* value = std::getenv(name);
    if (!value)
        return {};
    const std::string text(value);
    const auto first = text.find_first_not_of(" \t\r\n");
    if (first == std::string::npos)
        return {};
    return text.substr(first, text.find_last_not_of(" \t\r\n") - first + 1);
}

} // namespace

Credentials Credentials::fromEnvironment()
{
    Credentials credentials;
    credentials.githubToken = variable("GITHUB_TOKEN");
    if (credentials.githubToken.empty())
        credentials.githubToken = variable("GH_TOKEN");
    credentials.s3AccessKeyId = variable("AWS_ACCESS_KEY_ID");
    credentials.s3SecretAccessKey = variable("AWS_SECRET_ACCESS_KEY");
    credentials.s3SessionToken = variable("AWS_SESSION_TOKEN");
    return credentials;
}

} // namespace relayhud
