#include "sim_github.h"

#include "sim_github_pulls.h"
#include "sim_pulls.h"
#include "sim_sigv4.h"
#include "sim_text.h"
#include "sim_workflows.h"

#include <algorithm>
#include <cctype>
#include <charconv>

namespace relayhud::sim {
namespace {

constexpr std::string_view kApiPrefix = "/api/v3";
constexpr const char* kDocs = "https://docs.github.com/rest";

ApiResponse githubError(int status, const std::string& message, const std::string& docs = kDocs)
{
    const Json body{
        {"message", message}, {"documentation_url", docs}, {"status", std::to_string(status)}};
    return ApiResponse{status, body.dump(), kJsonContentType, {}};
}

ApiResponse notFound() { return githubError(404, "Not Found"); }

ApiResponse ok(const Json& body) { return ApiResponse{200, body.dump(), kJsonContentType, {}}; }

ApiResponse redirect(const std::string& location)
{
    return ApiResponse{302, {}, "text/html;charset=utf-8", {{"Location", location}}};
}

std::vector<std::string> segments(std::string_view path)
{
    std::vector<std::string> out;
    std::size_t start = 0;
    while (start < path.size()) {
        const std::size_t end = std::min(path.find('/', start), path.size());
        if (end > start)
            out.emplace_back(path.substr(start, end - start));
        start = end + 1;
    }
    return out;
}

std::int64_t positive(const std::string& text)
{
    std::int64_t value = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
    return ec == std::errc() && end == text.data() + text.size() && value > 0 ? value : 0;
}

struct Page {
    std::size_t perPage = 30;
    std::size_t page = 1;
};

Page pageOf(const SimRequest& request)
{
    Page out;
    if (const std::int64_t per = positive(request.param("per_page")))
        out.perPage = static_cast<std::size_t>(std::min<std::int64_t>(per, 100));
    if (const std::int64_t page = positive(request.param("page")))
        out.page = static_cast<std::size_t>(page);
    return out;
}

std::string pageUrl(const std::string& base, const SimRequest& request, std::size_t page)
{
    std::string query;
    auto params = request.params;
    params["page"] = std::to_string(page);
    for (const auto& [name, value] : params)
        query +=
            (query.empty() ? "?" : "&") + uriEncode(name, false) + "=" + uriEncode(value, false);
    return base + request.path + query;
}

// GitHub's Link header: next and last, then prev and first past page 1.
void paginate(ApiResponse& out, const std::string& base, const SimRequest& request,
              const Page& page, std::size_t total)
{
    const std::size_t last = std::max<std::size_t>(1, (total + page.perPage - 1) / page.perPage);
    std::vector<std::string> links;
    if (page.page < last) {
        links.push_back("<" + pageUrl(base, request, page.page + 1) + ">; rel=\"next\"");
        links.push_back("<" + pageUrl(base, request, last) + ">; rel=\"last\"");
    }
    if (page.page > 1) {
        links.push_back("<" + pageUrl(base, request, std::min(page.page - 1, last))
                        + ">; rel=\"prev\"");
        links.push_back("<" + pageUrl(base, request, 1) + ">; rel=\"first\"");
    }
    std::string header;
    for (const std::string& link : links)
        header += (header.empty() ? "" : ", ") + link;
    if (!header.empty())
        out.headers.emplace_back("Link", header);
}

template <class T>
std::vector<T> slice(const std::vector<T>& items, const Page& page)
{
    const std::size_t from = std::min(items.size(), (page.page - 1) * page.perPage);
    const std::size_t to = std::min(items.size(), from + page.perPage);
    return std::vector<T>(items.begin() + static_cast<std::ptrdiff_t>(from),
                          items.begin() + static_cast<std::ptrdiff_t>(to));
}

bool matchesRunFilters(const SimRequest& request, const Json& run)
{
    const std::string& event = request.param("event");
    const std::string& status = request.param("status");
    const std::string& sha = request.param("head_sha");
    if (!event.empty() && run["event"] != event)
        return false;
    // created=>=YYYY-MM-DD (or >YYYY-MM-DD), GitHub's date qualifier
    // (docs.github.com/rest/actions/workflow-runs#list-workflow-runs-for-a-repository).
    const std::string& created = request.param("created");
    if (created.starts_with(">")) {
        const std::string day = created.substr(created.starts_with(">=") ? 2 : 1);
        if (run["created_at"].get<std::string>().substr(0, 10) < day)
            return false;
    }
    if (!sha.empty() && run["head_sha"] != sha)
        return false;
    if (status.empty())
        return true;
    static const std::vector<std::string> kStatuses = {"completed", "in_progress", "queued",
                                                       "requested", "waiting",     "pending"};
    if (std::find(kStatuses.begin(), kStatuses.end(), status) != kStatuses.end())
        return run["status"] == status;
    return run["conclusion"] == status;
}

} // namespace

std::string blobSigningKey(const SimStoreSettings& settings)
{
    return hmacSha256(settings.s3SecretAccessKey, "relayhud-sim blob URLs " + settings.githubToken);
}

GitHubApi::GitHubApi(const SimDataset& data, const ArtifactIndex& index, BlobStore& blobs,
                     const SimStoreSettings& settings, const SimClock& clock,
                     const std::string& baseUrl)
    : m_data(data), m_index(index), m_blobs(blobs), m_settings(settings), m_clock(clock),
      m_clockAtStart(clock.now()), m_baseUrl(baseUrl)
{
    m_token.limit = settings.githubRateLimit;
    m_anonymous.limit = settings.githubAnonymousRateLimit;
}

GitHubContext GitHubApi::context() const
{
    return GitHubContext{m_data, m_index, m_baseUrl + std::string(kApiPrefix)};
}

GitHubApi::Auth GitHubApi::authOf(const SimRequest& request) const
{
    const std::string& header = request.header("authorization");
    if (header.empty())
        return Auth::None;
    const std::size_t space = header.find(' ');
    std::string scheme = header.substr(0, space);
    std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const std::string token = space == std::string::npos ? "" : header.substr(space + 1);
    const bool known = scheme == "bearer" || scheme == "token";
    return known && token == m_settings.githubToken ? Auth::Valid : Auth::Invalid;
}

GitHubApi::Window& GitHubApi::window(Auth auth)
{
    Window& w = auth == Auth::Valid ? m_token : m_anonymous;
    if (m_clock.now() >= w.reset) { // a new hour starts at the first request after the last
        w.used = 0;
        w.reset = m_clock.now() + 3600;
    }
    return w;
}

void GitHubApi::addRateHeaders(ApiResponse& out, const Window& w) const
{
    out.headers.emplace_back("X-RateLimit-Limit", std::to_string(w.limit));
    out.headers.emplace_back("X-RateLimit-Remaining",
                             std::to_string(std::max(0, w.limit - w.used)));
    out.headers.emplace_back("X-RateLimit-Reset", std::to_string(w.reset));
    out.headers.emplace_back("X-RateLimit-Used", std::to_string(w.used));
    out.headers.emplace_back("X-RateLimit-Resource", "core");
    out.headers.emplace_back("X-GitHub-Media-Type", "github.v3; format=json");
}

ApiResponse GitHubApi::handle(const SimRequest& request)
{
    const Auth auth = authOf(request);
    if (auth == Auth::Invalid)
        return githubError(401, "Bad credentials");
    if (request.path == std::string(kApiPrefix) + "/rate_limit")
        return rateLimit(auth);
    {
        std::lock_guard lock(m_mutex);
        const Window& w = window(auth);
        if (w.used >= w.limit) {
            ApiResponse out = githubError(
                403,
                auth == Auth::Valid ? "API rate limit exceeded for installation."
                                    : "API rate limit exceeded for 127.0.0.1. (But here's "
                                      "the good news: Authenticated requests get a higher "
                                      "rate limit. Check out the documentation for more "
                                      "details.)",
                "https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api");
            addRateHeaders(out, w);
            return out;
        }
    }
    ApiResponse out = route(request, auth);
    bool notModified = false;
    if (out.status == 200) {
        const std::string etag = quotedHash(out.body);
        out.headers.emplace_back("ETag", etag);
        notModified = matchesEtag(request.header("if-none-match"), etag);
        if (notModified) {
            out.status = 304;
            out.body.clear();
        }
    }
    std::lock_guard lock(m_mutex);
    Window& w = window(auth);
    if (!notModified) // a conditional request answered 304 is free
        ++w.used;
    addRateHeaders(out, w);
    return out;
}

ApiResponse GitHubApi::rateLimit(Auth auth)
{
    std::lock_guard lock(m_mutex);
    const Window& w = window(auth);
    const Json core{{"limit", w.limit},
                    {"used", w.used},
                    {"remaining", std::max(0, w.limit - w.used)},
                    {"reset", w.reset}};
    ApiResponse out = ok(Json{{"resources", Json{{"core", core}}}, {"rate", core}});
    addRateHeaders(out, w);
    return out;
}

EpochSeconds GitHubApi::worldNow() const
{
    return m_data.config.now + std::max<EpochSeconds>(0, m_clock.now() - m_clockAtStart);
}

ApiResponse GitHubApi::route(const SimRequest& request, Auth auth)
{
    const auto parts = segments(std::string_view(request.path).substr(kApiPrefix.size()));
    if (parts.size() == 5 && parts[0] == "repos" && parts[1] + "/" + parts[2] == kUpstreamRepo
        && parts[3] == "pulls")
        return pullRoute(parts[4]);
    if (parts.size() >= 4 && parts[0] == "repos" && parts[3] == "contents") {
        const std::string repo = parts[1] + "/" + parts[2];
        if (!m_index.backend(repo))
            return notFound();
        return contentsRoute(request, repo,
                             std::vector<std::string>(parts.begin() + 4, parts.end()));
    }
    if (parts.size() < 4 || parts[0] != "repos" || parts[3] != "actions")
        return notFound();
    const std::string repo = parts[1] + "/" + parts[2];
    if (!m_index.backend(repo))
        return notFound();
    return repoRoute(request, repo, std::vector<std::string>(parts.begin() + 4, parts.end()), auth);
}

// GET /repos/{owner}/{repo}/contents/{path}: a folder is a JSON array of its
// entries, a file a JSON object with its bytes in base64 (lines of 60
// characters), or the bytes themselves with Accept: application/vnd.github.raw
// (docs.github.com/rest/repos/contents#get-repository-content). Only
// .github/workflows exists here.
ApiResponse GitHubApi::contentsRoute(const SimRequest& request, const std::string& repo,
                                     const std::vector<std::string>& path) const
{
    const std::vector<SimWorkflowFile> files =
        workflowFiles(*m_index.backend(repo), m_data.stories);
    const std::string api = m_baseUrl + std::string(kApiPrefix) + "/repos/" + repo + "/contents/";
    const std::string web = "https://github.com/" + repo;
    const auto entry = [&](const SimWorkflowFile& file) {
        const std::string where = ".github/workflows/" + file.name;
        const std::string sha = gitBlobSha(file.text);
        return Json{
            {"name", file.name},
            {"path", where},
            {"sha", sha},
            {"size", file.text.size()},
            {"url", api + where + "?ref=main"},
            {"html_url", web + "/blob/main/" + where},
            {"git_url",
             m_baseUrl + std::string(kApiPrefix) + "/repos/" + repo + "/git/blobs/" + sha},
            {"download_url", "https://raw.githubusercontent.com/" + repo + "/main/" + where},
            {"type", "file"}};
    };
    const bool folder = path.size() == 2 && path[0] == ".github" && path[1] == "workflows";
    if (folder && !files.empty()) {
        Json list = Json::array();
        for (const SimWorkflowFile& file : files)
            list.push_back(entry(file));
        return ok(list);
    }
    if (path.size() == 3 && path[0] == ".github" && path[1] == "workflows")
        for (const SimWorkflowFile& file : files) {
            if (file.name != path[2])
                continue;
            if (request.header("accept").find("application/vnd.github.raw") != std::string::npos)
                return ApiResponse{200, file.text, "application/vnd.github.raw", {}};
            Json json = entry(file);
            std::string lines;
            const std::string encoded = base64(file.text);
            for (std::size_t at = 0; at < encoded.size(); at += 60)
                lines += encoded.substr(at, 60) + "\n";
            json["content"] = lines;
            json["encoding"] = "base64";
            return ok(json);
        }
    return githubError(404, "Not Found",
                       "https://docs.github.com/rest/repos/contents#get-repository-content");
}

ApiResponse GitHubApi::pullRoute(const std::string& number) const
{
    const SimPullRequest* pr = findPull(m_data.pulls, PrNumber{positive(number)});
    if (!pr)
        return githubError(404, "Not Found", kPullDocs);
    return ok(pullRequestJson(*pr, m_baseUrl + std::string(kApiPrefix), m_data.config.now));
}

ApiResponse GitHubApi::repoRoute(const SimRequest& request, const std::string& repo,
                                 const std::vector<std::string>& rest, Auth auth)
{
    if (rest.size() == 1 && rest[0] == "runs")
        return listRuns(request, repo);
    if (rest.size() >= 2 && rest[0] == "runs")
        if (const ChildRun* child = m_index.childRun(repo, rest[1])) {
            if (rest.size() == 2)
                return ok(childRunJson(context(), *child));
            if (rest.size() == 3 && rest[2] == "artifacts")
                return listArtifacts(request, repo, child->runId);
            return notFound();
        }
    if (rest.size() >= 2 && rest[0] == "runs") {
        const WorkflowRun* run = m_index.run(repo, rest[1]);
        return run ? runRoute(request, *run, std::vector<std::string>(rest.begin() + 2, rest.end()))
                   : notFound();
    }
    if (!rest.empty() && rest[0] == "artifacts")
        return artifactRoute(repo, rest, auth);
    if (!rest.empty() && rest[0] == "jobs")
        return jobRoute(repo, rest, auth);
    return notFound();
}

ApiResponse GitHubApi::listRuns(const SimRequest& request, const std::string& repo)
{
    const GitHubContext ctx = context();
    std::vector<Json> runs;
    for (const WorkflowRun* run : m_index.runsOf(repo)) {
        Json json = workflowRunJson(ctx, *run, run->latestAttempt);
        if (matchesRunFilters(request, json))
            runs.push_back(std::move(json));
    }
    for (const ChildRun& child : m_index.childRuns()) {
        if (child.repo != repo || child.createdAt > worldNow())
            continue;
        Json json = childRunJson(ctx, child);
        if (matchesRunFilters(request, json))
            runs.push_back(std::move(json));
    }
    std::stable_sort(runs.begin(), runs.end(), [](const Json& a, const Json& b) {
        return a["created_at"].get<std::string>() > b["created_at"].get<std::string>();
    });
    const Page page = pageOf(request);
    ApiResponse out = ok(Json{{"total_count", runs.size()}, {"workflow_runs", slice(runs, page)}});
    paginate(out, m_baseUrl, request, page, runs.size());
    return out;
}

ApiResponse GitHubApi::runRoute(const SimRequest& request, const WorkflowRun& run,
                                const std::vector<std::string>& rest)
{
    if (rest.empty())
        return ok(workflowRunJson(context(), run, run.latestAttempt));
    if (rest[0] == "attempts" && rest.size() >= 2) {
        const auto attempt = static_cast<int>(positive(rest[1]));
        if (attempt == 0 || attempt > run.latestAttempt)
            return notFound();
        if (rest.size() == 2)
            return ok(workflowRunJson(context(), run, attempt));
        if (rest.size() == 3 && rest[2] == "jobs")
            return listJobs(request, run, attempt, false);
        return notFound();
    }
    if (rest.size() == 1 && rest[0] == "jobs")
        return listJobs(request, run, 0, request.param("filter") == "all");
    if (rest.size() == 1 && rest[0] == "artifacts")
        return listArtifacts(request, run.repo, run.runId);
    return notFound();
}

// attempt 0: every job's latest execution (or every execution with `all`).
ApiResponse GitHubApi::listJobs(const SimRequest& request, const WorkflowRun& run, int attempt,
                                bool all)
{
    std::vector<const SimRow*> rows;
    for (const SimRow* row : run.rows) {
        const bool latest = std::none_of(run.rows.begin(), run.rows.end(), [row](const SimRow* o) {
            return o->run.jobName == row->run.jobName && o->run.runAttempt > row->run.runAttempt;
        });
        if (attempt > 0 ? row->run.runAttempt == attempt : all || latest)
            rows.push_back(row);
    }
    const Page page = pageOf(request);
    Json jobs = Json::array();
    for (const SimRow* row : slice(rows, page))
        jobs.push_back(jobJson(context(), *row));
    ApiResponse out = ok(Json{{"total_count", rows.size()}, {"jobs", jobs}});
    paginate(out, m_baseUrl, request, page, rows.size());
    return out;
}

// An artifact is listed once it was uploaded (torch-spyre's merged reports
// come after the completed callback: real-backends.md 3.2).
ApiResponse GitHubApi::listArtifacts(const SimRequest& request, const std::string& repo,
                                     const std::string& runId)
{
    const GitHubContext ctx = context();
    const std::string& name = request.param("name");
    const EpochSeconds now = worldNow();
    std::vector<Json> artifacts;
    const auto all = m_index.artifactsOfRun(repo, runId);
    for (auto it = all.rbegin(); it != all.rend(); ++it) { // newest first
        const GitHubArtifact& a = **it;
        if (a.createdAt > now || (!name.empty() && a.name != name))
            continue;
        const BlobMeta zip = m_blobs.githubArtifactMeta(a);
        artifacts.push_back(githubArtifactJson(ctx, a, zip.size, zip.sha256));
    }
    const Page page = pageOf(request);
    ApiResponse out =
        ok(Json{{"total_count", artifacts.size()}, {"artifacts", slice(artifacts, page)}});
    paginate(out, m_baseUrl, request, page, artifacts.size());
    return out;
}

ApiResponse GitHubApi::artifactRoute(const std::string& repo, const std::vector<std::string>& rest,
                                     Auth auth)
{
    const std::int64_t id = rest.size() >= 2 ? positive(rest[1]) : 0;
    const GitHubArtifact* artifact = id ? m_index.githubArtifact(id) : nullptr;
    if (!artifact || artifact->row->run.downstreamRepo != repo || rest.size() > 3
        || artifact->createdAt > worldNow())
        return notFound();
    if (rest.size() == 2) {
        const BlobMeta zip = m_blobs.githubArtifactMeta(*artifact);
        return ok(githubArtifactJson(context(), *artifact, zip.size, zip.sha256));
    }
    if (rest[2] != "zip")
        return notFound();
    if (auth != Auth::Valid)
        return githubError(401, "Requires authentication",
                           "https://docs.github.com/rest/actions/artifacts#download-an-artifact");
    if (artifact->expiresAt <= m_data.config.now)
        return githubError(410, "Artifact has expired",
                           "https://docs.github.com/rest/actions/artifacts#download-an-artifact");
    return redirect(signedBlobUrl("/blob/artifacts/" + std::to_string(id) + ".zip"));
}

ApiResponse GitHubApi::jobRoute(const std::string& repo, const std::vector<std::string>& rest,
                                Auth auth)
{
    const SimRow* row = rest.size() >= 2 ? m_index.job(rest[1]) : nullptr;
    if (!row || row->run.downstreamRepo != repo || rest.size() > 3)
        return notFound();
    if (rest.size() == 2)
        return ok(jobJson(context(), *row));
    if (rest[2] != "logs")
        return notFound();
    if (auth != Auth::Valid)
        return githubError(401, "Requires authentication",
                           "https://docs.github.com/rest/actions/"
                           "workflow-jobs#download-job-logs-for-a-workflow-run");
    if (row->run.reported.status != RunStatus::Completed)
        return notFound(); // logs exist once the job is done
    return redirect(signedBlobUrl("/blob/logs/" + row->run.checkRunId.value + ".txt"));
}

std::string GitHubApi::signedBlobUrl(const std::string& path) const
{
    return m_baseUrl + path + "?"
           + signBlobQuery(path, blobSigningKey(m_settings), m_clock.now(),
                           m_settings.signedUrlSeconds, m_settings.s3Region);
}

} // namespace relayhud::sim
