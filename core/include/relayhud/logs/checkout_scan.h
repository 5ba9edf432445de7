#pragma once
// What a GitHub Actions job log says its checkouts checked out.
//
// actions/checkout names the repository first, `Syncing repository:
// OWNER/NAME` (src/git-source-provider.ts, getSource), and once the ref is
// checked out (and submodules fetched) logs the commit with a git command it
// does not silence (src/git-command-manager.ts, log1: silent only without a
// format), so the runner echoes the command and git prints the SHA on the
// next line:
//   v2/v3: [command]/usr/bin/git log -1 --format='%H'   then  'c8ab2e8b...'
//          (the corpus's raw-logs/error_log1.txt, lines 1023-1024, a real
//          pytorch/pytorch job log)
//   v4+:   [command]/usr/bin/git log -1 --format=%H     then  c8ab2e8b...
//          (actions/checkout @0109144c: git.log1('--format=%H'))
// When git is missing the action downloads a tarball over the REST API and
// logs no commit: such a log shows no checkout, and nothing is guessed.
//
// torch-spyre checks PyTorch out with its own action (.github/actions/
// checkout-pytorch/action.yml @4ef5062f; ../shared/specs/real-backends.md
// 3.5), which echoes at the start of lines `FETCH_REF <ref>` (the `sha`
// input, or `release/X.Y`), `PYTORCH_REPO_URL <url>`, then after the fetch
// and checkout `git log -1 --oneline`'s `<abbreviated sha> <subject>`, then
// `TORCH_ROOT <path>`. A SHA ref is the commit (unless git printed another);
// a branch resolves only through git's abbreviation, and to no commit when
// the log never shows it (LogCheckout::sha ""). Everything between FETCH_REF
// and TORCH_ROOT is read (at most 100,000 lines).
//
// The scan reads the file in blocks (memory is one block whatever the log's
// size or its longest line), looks only at lines holding one of the
// markers (and inside a checkout-pytorch step at every line), and numbers lines as the log viewer
// does (line_scan.h: "\n",
// "\r\n" and a lone "\r" each end one).
#include "relayhud/model/log_checkout.h"
#include "relayhud/util/result.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::logs {

// A hostile log could repeat the markers a million times; real jobs check out
// a handful of repositories.
inline constexpr std::size_t kMaxLogCheckouts = 256;

// Every checkout the log at `path` reports, in log order (at most
// kMaxLogCheckouts). An error when the file cannot be read or is not a
// regular file.
Result<std::vector<LogCheckout>> scanCheckouts(const std::string& path);

// The same over a log in memory.
std::vector<LogCheckout> scanCheckoutsIn(std::string_view log);

} // namespace relayhud::logs
