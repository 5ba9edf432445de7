// The upgrade review's first parts (issue 39): the Python scanner lists the
// functions ast lists, the method delta of two revisions agrees exactly with
// the same rules run on Python's own ast (tests/data/upgrade/ast_delta.py),
// and a git checkout is read at two revisions through libgit2. The files are
// shaped like PyTorch's test files: classes, @ops/@dtypes methods, nested
// helpers, instantiate_device_type_tests, strings and comments that look like
// code.
#include "relayhud/config/outcome_config.h"
#include "relayhud/git/git_repository.h"
#include "relayhud/pysource/opinfo_scan.h"
#include "relayhud/pysource/python_scan.h"
#include "relayhud/upgrade/method_delta.h"
#include "relayhud/upgrade/upgrade_review.h"

#include "test_files.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <string>

using namespace relayhud;
using relayhud::pysource::PyFunction;
using relayhud::pysource::scanPython;
using relayhud::test::TempDir;

namespace {

// test/test_ops.py at the old revision.
constexpr const char* kOpsBefore = R"PY(# Owner(s): ["module: unknown"]
import torch
from torch.testing._internal.common_device_type import (
    instantiate_device_type_tests, ops, OpDTypes,
)

HELP = """
def not_a_function(self):
    pass
"""

def helper(x):  # a module-level function is a function too
    def inner():
        return x
    return inner


class TestCommon(TestCase):
    exact_dtype = True

    @ops(op_db, dtypes=OpDTypes.any_one)
    def test_compare_cpu(self, device, dtype, op):
        """Compares with the CPU."""
        samples = op.sample_inputs(device, dtype)
        for s in samples:
            self.assertEqual(op(s.input), op(s.input.cpu()))

    @dtypes(torch.float32,
            torch.float16)  # a decorator over two lines
    def test_dtypes(self, device, dtype):
        x = torch.ones(3, device=device,
                       dtype=dtype)
        self.assertEqual(x.sum().item(), 3)

    if TEST_CUDA:
        def test_cuda_only(self, device):  # inside an if: ast puts it there
            pass

    def test_to_rename(self, device):
        t = 'def fake(self): \' still a string'
        return t

    def test_to_move(self, device):
        return device * 2

    def test_gone(self, device):
        pass

    async def test_async(self, device):
        await something()

    class Inner:
        def test_inner(self):
            return 1


class TestOther(TestCase):
    def test_stays(self):
        x = [1,
             2,  # a comment inside brackets
             3]
        return x


instantiate_device_type_tests(TestCommon, globals())
)PY";

// The same file at the new revision: test_compare_cpu's body changed, the
// dtypes decorator changed, test_to_rename renamed, test_to_move moved to
// TestOther, test_gone removed, test_new added, test_stays reformatted only.
constexpr const char* kOpsAfter = R"PY(# Owner(s): ["module: unknown"]
import torch
from torch.testing._internal.common_device_type import (
    instantiate_device_type_tests, ops, OpDTypes,
)

HELP = """
def not_a_function(self):
    pass
"""

def helper(x):
    # only comments changed here
    def inner():
        return x
    return inner


class TestCommon(TestCase):
    exact_dtype = True

    @ops(op_db, dtypes=OpDTypes.any_one)
    def test_compare_cpu(self, device, dtype, op):
        """Compares with the CPU, exactly."""
        samples = op.sample_inputs(device, dtype)
        for s in samples:
            self.assertEqual(op(s.input), op(s.input.cpu()))

    @dtypes(torch.float32, torch.bfloat16)
    def test_dtypes(self, device, dtype):
        x = torch.ones(3, device=device, dtype=dtype)
        self.assertEqual(x.sum().item(), 3)

    if TEST_CUDA:
        def test_cuda_only(self, device):
            return None

    def test_renamed(self, device):
        t = 'def fake(self): \' still a string'
        return t

    async def test_async(self, device):
        await something()

    def test_new(self, device):
        return device

    class Inner:
        def test_inner(self):
            return 1


class TestOther(TestCase):
    def test_stays(self):
        x = [1, 2, 3]
        return x

    def test_to_move(self, device):
        return device * 2


instantiate_device_type_tests(TestCommon, globals())
)PY";

// test/test_view_ops.py: a method moves in from test_ops.py's TestCommon to
// another file; one whose body changes in the same move is a removal and an
// addition.
constexpr const char* kViewsBefore = R"PY(class TestViewOps(TestCase):
    def test_view(self, device):
        return torch.ones(2).view(1, 2)

    def test_moved_and_changed(self, device):
        return 1
)PY";
constexpr const char* kViewsAfter = R"PY(class TestViewOps(TestCase):
    def test_view(self, device):
        return torch.ones(2).view(1, 2)
)PY";
constexpr const char* kShapeAfter = R"PY(class TestShapeOps(TestCase):
    def test_view(self, device):
        return torch.ones(2).view(1, 2)

    def test_moved_and_changed(self, device):
        return 2
)PY";

const PyFunction* find(const pysource::PyScan& scan, const std::string& qualified)
{
    for (const PyFunction& f : scan.functions)
        if (f.qualifiedName() == qualified)
            return &f;
    return nullptr;
}

std::string tsv(const std::vector<upgrade::MethodChange>& changes)
{
    std::string out;
    for (const upgrade::MethodChange& c : changes)
        out += std::string(upgrade::changeKindName(c.kind)) + "\t" + c.file + "\t" + c.className
               + "\t" + c.method + "\t" + c.detail + "\n";
    return out;
}

// What a shell command printed; its exit status in `status`.
std::string capture(const std::string& command, int& status)
{
    std::string out;
    FILE* pipe = ::popen(command.c_str(), "r");
    if (!pipe) {
        status = -1;
        return out;
    }
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        out.append(buffer, n);
    status = ::pclose(pipe);
    return out;
}

upgrade::ScannedFiles scanned(std::initializer_list<std::pair<std::string, const char*>> files)
{
    upgrade::ScannedFiles out;
    for (const auto& [path, text] : files)
        out[path] = scanPython(text);
    return out;
}

} // namespace

TEST(PythonScan, ListsTheFunctionsAstListsWithTheirClasses)
{
    const pysource::PyScan scan = scanPython(kOpsBefore);
    EXPECT_EQ(scan.problem, "");
    std::vector<std::string> names;
    for (const PyFunction& f : scan.functions)
        names.push_back(f.qualifiedName());
    // Not inner (nested in a def), not test_cuda_only (in an if), not
    // not_a_function (in a string).
    EXPECT_EQ(names,
              (std::vector<std::string>{
                  "helper", "TestCommon.test_compare_cpu", "TestCommon.test_dtypes",
                  "TestCommon.test_to_rename", "TestCommon.test_to_move", "TestCommon.test_gone",
                  "TestCommon.test_async", "TestCommon.Inner.test_inner", "TestOther.test_stays"}));
    EXPECT_EQ(scan.classes,
              (std::vector<std::string>{"TestCommon", "TestCommon.Inner", "TestOther"}));
}

TEST(PythonScan, GivesLinesDecoratorsAndAsync)
{
    const pysource::PyScan scan = scanPython(kOpsBefore);
    const PyFunction* compare = find(scan, "TestCommon.test_compare_cpu");
    ASSERT_NE(compare, nullptr);
    EXPECT_EQ(compare->line, 22);
    EXPECT_EQ(compare->endLine, 26);
    EXPECT_EQ(compare->decorators,
              (std::vector<std::string>{"ops(op_db, dtypes=OpDTypes.any_one)"}));
    const PyFunction* dtypes = find(scan, "TestCommon.test_dtypes");
    ASSERT_NE(dtypes, nullptr);
    EXPECT_EQ(dtypes->decorators,
              (std::vector<std::string>{"dtypes(torch.float32, torch.float16)"}));
    EXPECT_EQ(dtypes->line, 30) << "the def's line, not its first decorator's";
    EXPECT_EQ(dtypes->endLine, 33);
    const PyFunction* async = find(scan, "TestCommon.test_async");
    ASSERT_NE(async, nullptr);
    EXPECT_TRUE(async->isAsync);
    EXPECT_FALSE(compare->isAsync);
}

TEST(PythonScan, CommentsAndLayoutInBracketsLeaveTheBodyAlone)
{
    const pysource::PyScan before = scanPython(kOpsBefore);
    const pysource::PyScan after = scanPython(kOpsAfter);
    EXPECT_EQ(find(before, "helper")->bodyHash, find(after, "helper")->bodyHash);
    EXPECT_EQ(find(before, "TestOther.test_stays")->bodyHash,
              find(after, "TestOther.test_stays")->bodyHash);
    EXPECT_NE(find(before, "TestCommon.test_compare_cpu")->bodyHash,
              find(after, "TestCommon.test_compare_cpu")->bodyHash)
        << "a docstring is part of the body";
    EXPECT_NE(find(before, "TestCommon.test_dtypes")->decoratorHash,
              find(after, "TestCommon.test_dtypes")->decoratorHash);
    EXPECT_EQ(find(before, "TestCommon.test_dtypes")->bodyHash,
              find(after, "TestCommon.test_dtypes")->bodyHash);
}

TEST(PythonScan, BrokenSourceSaysWhereAndKeepsWhatCameBefore)
{
    const pysource::PyScan scan =
        scanPython("class T:\n    def test_a(self):\n        pass\n\n    def test_b(self):\n"
                   "        s = \"\"\"never closed\n");
    EXPECT_EQ(scan.problem, "line 6: a string is never closed");
    ASSERT_FALSE(scan.functions.empty());
    EXPECT_EQ(scan.functions.front().qualifiedName(), "T.test_a");
    EXPECT_EQ(scanPython("x = 1\ndef f(:\n    x = (1,\n").problem,
              "line 2: a bracket is never closed"); // where it opened
    EXPECT_TRUE(scanPython("").functions.empty());
    EXPECT_EQ(scanPython("\xff\xfe def \x01(").problem, "line 1: a bracket is never closed");
}

TEST(MethodDelta, ListsEveryKindOfChange)
{
    const auto before =
        scanned({{"test/test_ops.py", kOpsBefore}, {"test/test_view_ops.py", kViewsBefore}});
    const auto after = scanned({{"test/test_ops.py", kOpsAfter},
                                {"test/test_view_ops.py", kViewsAfter},
                                {"test/test_shape_ops.py", kShapeAfter}});
    EXPECT_EQ(tsv(upgrade::compareMethods(before, after)),
              "changed\ttest/test_ops.py\tTestCommon\ttest_compare_cpu\tbody\n"
              "changed\ttest/test_ops.py\tTestCommon\ttest_dtypes\tdecorators\n"
              "removed\ttest/test_ops.py\tTestCommon\ttest_gone\t\n"
              "added\ttest/test_ops.py\tTestCommon\ttest_new\t\n"
              "moved\ttest/test_ops.py\tTestCommon\ttest_to_move\ttest/test_ops.py::TestOther\n"
              "renamed\ttest/test_ops.py\tTestCommon\ttest_to_rename\ttest_renamed\n"
              "added\ttest/test_shape_ops.py\tTestShapeOps\ttest_moved_and_changed\t\n"
              "added\ttest/test_shape_ops.py\tTestShapeOps\ttest_view\t\n"
              "removed\ttest/test_view_ops.py\tTestViewOps\ttest_moved_and_changed\t\n");
}

TEST(MethodDelta, AgreesWithPythonsAstExactly)
{
    int version = 0;
    capture("python3 --version > /dev/null 2>&1", version);
    if (version != 0)
        GTEST_SKIP() << "no python3 (packaging/install-deps.sh installs it)";
    TempDir dir;
    const std::map<std::string, std::pair<const char*, const char*>> files = {
        {"test/test_ops.py", {kOpsBefore, kOpsAfter}},
        {"test/test_view_ops.py", {kViewsBefore, kViewsAfter}},
        {"test/test_shape_ops.py", {nullptr, kShapeAfter}}};
    upgrade::ScannedFiles before, after;
    for (const auto& [path, texts] : files) {
        for (const auto& [side, text] : {std::pair{"old", texts.first}, {"new", texts.second}}) {
            if (!text)
                continue;
            std::filesystem::create_directories((dir / side / path).parent_path());
            test::writeFile(dir / side / path, text);
            (std::string(side) == "old" ? before : after)[path] = scanPython(text);
        }
    }
    int status = 0;
    const std::string reference =
        capture("python3 '" RELAYHUD_TEST_DATA_DIR "/upgrade/ast_delta.py' '" + dir.path("old")
                    + "' '" + dir.path("new") + "'",
                status);
    ASSERT_EQ(status, 0) << reference;
    EXPECT_FALSE(reference.empty());
    EXPECT_EQ(tsv(upgrade::compareMethods(before, after)), reference);
}

TEST(GitRepository, ReadsFilesAndFoldersAtEachRevision)
{
    TempDir dir;
    const std::string repo = dir.path("pytorch");
    std::filesystem::create_directories(dir / "pytorch" / "test");
    const std::string git = "git -C '" + repo + "' -c user.name=t -c user.email=t@example.com ";
    ASSERT_EQ(std::system((git + "init -q").c_str()), 0);
    test::writeFile(dir / "pytorch" / "test" / "test_ops.py", kOpsBefore);
    ASSERT_EQ(std::system(
                  (git + "add -A && " + git + "commit -qm one && " + git + "tag v2.13.0").c_str()),
              0);
    test::writeFile(dir / "pytorch" / "test" / "test_ops.py", kOpsAfter);
    test::writeFile(dir / "pytorch" / "test" / "test_shape_ops.py", kShapeAfter);
    ASSERT_EQ(std::system((git + "add -A && " + git + "commit -qm two").c_str()), 0);

    auto opened = git::GitRepository::open(repo + "/test"); // found upwards
    ASSERT_TRUE(opened) << opened.message();
    const git::GitRepository& r = *opened;
    auto from = r.resolve("v2.13.0");
    auto to = r.resolve("HEAD");
    ASSERT_TRUE(from && to) << from.message() << to.message();
    EXPECT_EQ(from->size(), 40U);
    EXPECT_NE(*from, *to);
    EXPECT_EQ(*r.resolve(to->substr(0, 10)), *to) << "a short SHA";
    EXPECT_FALSE(r.resolve("v9.9.9"));
    EXPECT_NE(r.resolve("v9.9.9").message().find("no revision 'v9.9.9'"), std::string::npos);

    auto old = r.readFile(*from, "test/test_ops.py");
    ASSERT_TRUE(old && *old);
    EXPECT_EQ(**old, kOpsBefore);
    EXPECT_EQ(**r.readFile(*to, "test/test_ops.py"), kOpsAfter);
    EXPECT_FALSE(*r.readFile(*from, "test/test_shape_ops.py")) << "not there yet";
    EXPECT_FALSE(*r.readFile(*from, "test")) << "a folder is no file";
    EXPECT_EQ(*r.listFiles(*from, "test"), (std::vector<std::string>{"test/test_ops.py"}));
    EXPECT_EQ(*r.listFiles(*to, "test/"),
              (std::vector<std::string>{"test/test_ops.py", "test/test_shape_ops.py"}));
    EXPECT_TRUE(r.listFiles(*to, "no/such")->empty());
    EXPECT_FALSE(r.readFile("0123456789012345678901234567890123456789", "test/test_ops.py"));
    EXPECT_FALSE(git::GitRepository::open(dir.path("not-a-repo")));
}

namespace {

// torch/testing/_internal/common_methods_invocations.py at both revisions:
// abs's dtypes and skips change, add only its comment and layout, relu's
// inplace variant its decorators; gone_op is removed.
constexpr const char* kOpDbBefore = R"PY(op_db: List[OpInfo] = [
    UnaryUfuncInfo('abs',
                   dtypes=all_types_and(torch.half),
                   skips=(
                       DecorateInfo(unittest.expectedFailure, 'TestCommon', 'test_out'),
                   ),
                   sample_inputs_func=sample_inputs_abs),
    OpInfo('add',
           # the binary add
           dtypes=all_types_and(torch.bool),
           sample_inputs_func=sample_inputs_add),
    OpInfo('nn.functional.relu',
           variant_test_name='inplace',
           dtypes=floating_types(),
           decorators=(onlyCPU,)),
    OpInfo('gone_op', dtypes=floating_types()),
]
)PY";
constexpr const char* kOpDbAfter = R"PY(op_db: List[OpInfo] = [
    UnaryUfuncInfo('abs',
                   dtypes=all_types_and(torch.half, torch.bfloat16),
                   skips=(),
                   sample_inputs_func=sample_inputs_abs),
    OpInfo('add',
           # a comment that moved
           dtypes=all_types_and(torch.bool), sample_inputs_func=sample_inputs_add),
    OpInfo('nn.functional.relu',
           variant_test_name='inplace',
           dtypes=floating_types(),
           decorators=(onlyCPU, onlyNativeDeviceTypes)),
]
)PY";
// opinfo/definitions/linalg.py: det's sample inputs change.
constexpr const char* kLinalgBefore =
    "op_db = [\n    OpInfo('linalg.det', dtypes=floating_types(), "
    "sample_inputs_func=sample_det),\n]\n";
constexpr const char* kLinalgAfter = "op_db = [\n    OpInfo('linalg.det', dtypes=floating_types(), "
                                     "sample_inputs_func=sample_det_v2),\n]\n";

// A checkout with two commits and a tag, built with git's own command line
// (the product reads it through libgit2 only).
struct Checkout {
    TempDir dir;
    std::string path = dir.path("pytorch");
    bool ok = false;

    Checkout()
    {
        std::filesystem::create_directories(dir / "pytorch" / "test");
        const auto internal = dir / "pytorch" / "torch" / "testing" / "_internal";
        std::filesystem::create_directories(internal / "opinfo" / "definitions");
        test::writeFile(internal / "common_methods_invocations.py", kOpDbBefore);
        test::writeFile(internal / "opinfo" / "definitions" / "linalg.py", kLinalgBefore);
        const std::string git = "git -C '" + path + "' -c user.name=t -c user.email=t@example.com ";
        test::writeFile(dir / "pytorch" / "test" / "test_ops.py", kOpsBefore);
        test::writeFile(dir / "pytorch" / "test" / "test_view_ops.py", kViewsBefore);
        ok = std::system((git + "init -q && " + git + "add -A && " + git + "commit -qm one && "
                          + git + "tag v2.13.0")
                             .c_str())
             == 0;
        test::writeFile(dir / "pytorch" / "test" / "test_ops.py", kOpsAfter);
        test::writeFile(dir / "pytorch" / "test" / "test_view_ops.py", kViewsAfter);
        test::writeFile(internal / "common_methods_invocations.py", kOpDbAfter);
        test::writeFile(internal / "opinfo" / "definitions" / "linalg.py", kLinalgAfter);
        ok = ok
             && std::system(
                    (git + "add -A && " + git + "commit -qm two && " + git + "tag v2.14.0").c_str())
                    == 0;
    }
};

constexpr const char* kConfig = R"(test_suite_config:
  files:
    - path: ${TORCH_ROOT}/test/test_ops.py
      unlisted_test_mode: xfail
      tests:
        - names:
            - TestCommon::test_compare_cpu
            - TestCommon::test_to_rename
            - TestCommon::test_gone
            - TestOther::test_to_move
            - test_dtypes
            - TestCommon::test_(never|nothing).*
          mode: xfail_strict
    - path: ${TORCH_ROOT}/test/test_missing.py
      tests:
        - names:
            - TestMissing::test_a
    - path: ${TORCH_DEVICE_ROOT}/tests/test_spyre_only.py
      tests:
        - names:
            - TestSpyre::test_own
  global:
    supported_ops:
      - name: abs
      - name: add
)";

} // namespace

TEST(OpInfoScan, ReadsEachEntrysNameVariantAndFields)
{
    const auto entries = pysource::scanOpInfos(kOpDbBefore);
    ASSERT_EQ(entries.size(), 4U) << "DecorateInfo is no entry";
    EXPECT_EQ(entries[0].kind, "UnaryUfuncInfo");
    EXPECT_EQ(entries[0].key(), "abs");
    EXPECT_EQ(entries[0].line, 2);
    EXPECT_EQ(entries[2].key(), "nn.functional.relu.inplace");
    std::vector<std::string> fields;
    for (const auto& [field, hash] : entries[0].fields)
        fields.push_back(field);
    EXPECT_EQ(fields, (std::vector<std::string>{"#1", "dtypes", "sample_inputs_func", "skips"}));
    EXPECT_EQ(entries[3].key(), "gone_op");
    const auto after = pysource::scanOpInfos(kOpDbAfter);
    ASSERT_EQ(after.size(), 3U);
    EXPECT_EQ(entries[1].fields, after[1].fields) << "a comment and layout change nothing";
    EXPECT_NE(entries[0].fields.at("dtypes"), after[0].fields.at("dtypes"));
    EXPECT_EQ(pysource::opInfoFieldFamily("dtypesIfCUDA"), "dtypes");
    EXPECT_EQ(pysource::opInfoFieldFamily("backward_dtypes"), "dtypes");
    EXPECT_EQ(pysource::opInfoFieldFamily("xfails"), "skips");
    EXPECT_EQ(pysource::opInfoFieldFamily("reference_inputs_func"), "sample inputs");
    EXPECT_EQ(pysource::opInfoFieldFamily("supports_out"), "supports_out");
    EXPECT_TRUE(pysource::scanOpInfos("x = OpInfo(name)\nDecorateInfo('a')\n").empty());
}

TEST(UpgradeReview, ListsTheConfigsFilesChangesAndStaleEntries)
{
    Checkout checkout;
    ASSERT_TRUE(checkout.ok);
    auto repo = git::GitRepository::open(checkout.path);
    ASSERT_TRUE(repo) << repo.message();
    auto parsed = config::parseOutcomeConfig(kConfig);
    ASSERT_TRUE(parsed) << parsed.message();
    ASSERT_FALSE(parsed->hasErrors());
    const std::vector<upgrade::ReviewConfig> configs = {{"spyre.yaml", parsed->config}};
    auto review = upgrade::reviewUpgrade(*repo, "v2.13.0", "v2.14.0", configs);
    ASSERT_TRUE(review) << review.message();
    EXPECT_EQ(review->files, (std::vector<std::string>{"test/test_ops.py"}))
        << "test_view_ops.py is no config's; the backend's own tree is not PyTorch's";
    EXPECT_EQ(review->absent, (std::vector<std::string>{"test/test_missing.py"}));
    EXPECT_TRUE(review->problems.empty());
    // TestOther::test_to_move is fine: the class part is never checked; the
    // regex fullmatches no method.
    EXPECT_EQ(upgrade::reviewTsv(*review),
              "changed\ttest/test_ops.py\tTestCommon\ttest_compare_cpu\tbody\n"
              "changed\ttest/test_ops.py\tTestCommon\ttest_dtypes\tdecorators\n"
              "removed\ttest/test_ops.py\tTestCommon\ttest_gone\t\n"
              "added\ttest/test_ops.py\tTestCommon\ttest_new\t\n"
              "moved\ttest/test_ops.py\tTestCommon\ttest_to_move\ttest/test_ops.py::TestOther\n"
              "renamed\ttest/test_ops.py\tTestCommon\ttest_to_rename\ttest_renamed\n"
              "stale\ttest/test_ops.py\tTestCommon\ttest_to_rename\tspyre.yaml:8: "
              "TestCommon::test_to_rename (renamed to test_renamed)\n"
              "stale\ttest/test_ops.py\tTestCommon\ttest_gone\tspyre.yaml:9: TestCommon::test_gone "
              "(removed)\n"
              "stale\ttest/test_ops.py\tTestCommon\ttest_(never|nothing).*\tspyre.yaml:12: "
              "TestCommon::test_(never|nothing).*\n"
              "opinfo\ttorch/testing/_internal/common_methods_invocations.py\t\tabs\t"
              "changed: dtypes, skips; supported op: its variants *_abs_spyre_* change\n"
              "opinfo\ttorch/testing/_internal/common_methods_invocations.py\t\tgone_op\tremoved\n"
              "opinfo\ttorch/testing/_internal/opinfo/definitions/linalg.py\t\tlinalg.det\t"
              "changed: sample inputs\n"
              "opinfo\ttorch/testing/_internal/common_methods_invocations.py\t\t"
              "nn.functional.relu.inplace\tchanged: decorators\n");
    const std::string text = upgrade::reviewText(*review);
    EXPECT_NE(text.find("6 changed methods in 1 file (1 added, 1 removed, 1 renamed, 2 changed, "
                        "1 moved); 1 now falls to the default; 3 stale entries"),
              std::string::npos)
        << text;
    // Each change's outcome at both revisions, by the framework's candidates.
    ASSERT_EQ(review->outcomes.size(), review->changes.size());
    EXPECT_EQ(review->fallToDefault, 1U);
    const auto outcomeOf = [&](const std::string& method) {
        for (std::size_t i = 0; i < review->changes.size(); ++i)
            if (review->changes[i].method == method)
                return review->outcomes[i];
        ADD_FAILURE() << method;
        return upgrade::ChangeOutcomes{};
    };
    const upgrade::ChangeOutcomes renamed = outcomeOf("test_to_rename");
    ASSERT_EQ(renamed.before.size(), 1U);
    ASSERT_EQ(renamed.after.size(), 1U);
    EXPECT_EQ(renamed.before[0].text, "xfail_strict (line 8)");
    EXPECT_EQ(renamed.after[0].text, "xfail (the file's default)");
    EXPECT_TRUE(renamed.fallsToDefault);
    const upgrade::ChangeOutcomes moved = outcomeOf("test_to_move");
    EXPECT_EQ(moved.after.at(0).text, "xfail_strict (line 10)")
        << "TestOther::test_to_move lists it in any class";
    EXPECT_FALSE(moved.fallsToDefault);
    EXPECT_TRUE(outcomeOf("test_new").before.empty());
    EXPECT_TRUE(outcomeOf("test_gone").after.empty());
    EXPECT_NE(text.find("not at either revision: test/test_missing.py"), std::string::npos);

    EXPECT_FALSE(upgrade::reviewUpgrade(*repo, "v2.13.0", "v9.0.0", configs));
    auto same = upgrade::reviewUpgrade(*repo, "v2.14.0", "HEAD", configs);
    ASSERT_TRUE(same);
    EXPECT_TRUE(same->changes.empty()) << "the same commit";
}
