#pragma once
// What a PyTorch bump changed in the test methods of some files (issue 39):
// each file's functions at two revisions (pysource/python_scan.h), compared
// by file, class and name, then by body. The rules, the same as
// tests/data/upgrade/ast_delta.py applies to Python's own `ast`:
//  1. the same file, class and name at both: `changed` when its body or its
//     decorators differ (DETAIL "body", "decorators" or "body, decorators");
//  2. of those left, one gone and one new in the same file and class with the
//     same body: `renamed` (DETAIL the new name);
//  3. then one gone and one new with the same name and body elsewhere (another
//     class or file): `moved` (DETAIL "FILE::CLASS" of the new place);
//  4. what is left: `removed` at the old revision, `added` at the new.
// Pairs are taken in source order, each function at most once.
#include "relayhud/pysource/python_scan.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::upgrade {

enum class ChangeKind { Added, Removed, Renamed, Changed, Moved };

std::string_view changeKindName(ChangeKind kind); // "added", ... as the TSV writes it

struct MethodChange {
    ChangeKind kind = ChangeKind::Changed;
    std::string file; // from the PyTorch root; the old place for removed, renamed, moved
    std::string className;
    std::string method;
    std::string detail;
    int line = 0; // at the revision the row names (the new one for added)
};

// A file's functions at one revision; a file missing there is absent.
using ScannedFiles = std::map<std::string, pysource::PyScan>;

// Sorted by file, class, method and kind.
std::vector<MethodChange> compareMethods(const ScannedFiles& before, const ScannedFiles& after);

} // namespace relayhud::upgrade
