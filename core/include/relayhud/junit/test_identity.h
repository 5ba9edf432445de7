#pragma once
// Naming a test: pytest's node id (what a report shows) and the upstream base
// name (what a torch-spyre outcome config lists). The outcome-config editor
// uses the same functions to map a report's test back to its config entry.
#include "relayhud/model/test_result.h"

#include <string>
#include <string_view>

namespace relayhud {

struct TestLocation {
    std::string file;      // "numpy/core/tests/test_umath.py"
    std::string className; // "TestX"; "TestOuter::TestInner" for nested classes; "" for a function
};

// Splits pytest's `classname` attribute back into the module file and the
// class. pytest builds classname from the node id ("test/test_x.py::TestX" ->
// "test.test_x.TestX"), so the leading components up to the first one that
// starts with an upper-case letter (pytest's `python_classes = Test*`) are the
// module. When the `file` attribute names that same module it settles the split
// exactly; when it names another file (the file that *defines* an inherited or
// decorated method, e.g. a mock.py) it is ignored, since the node id, which
// identity must follow, names the module the test was collected from.
TestLocation locateTest(std::string_view classname, std::string_view fileAttribute);

// "file::Class::name", skipping empty parts: pytest's node id.
std::string testIdentity(std::string_view file, std::string_view className, std::string_view name);
// The same into `out`, reusing its buffer (a reader refilling one case).
void assignTestIdentity(std::string& out, std::string_view file, std::string_view className,
                        std::string_view name);

struct BaseNameOptions {
    // The name PyTorch's instantiate_device_type_tests puts in method names for
    // a PRIVATEUSE1 class: the backend's registered device name.
    std::string privateUse1Device = "spyre";
};

// The upstream base name `Class::method` (or `method` without a class) of an
// instantiated device-generic test. PyTorch names an instantiated test
//   class:  <GenericClass><DEVICE>          DEVICE = CPU, CUDA, PRIVATEUSE1, ...
//   method: <base>[_<op>][_<param>...]_<device>[_<dtype>...]
// so the algorithm is:
//  1. Take the class suffix DEVICE from the known upper-case device types (and
//     the upper-cased privateUse1Device) and map it to the lower-case device
//     name used in method names (PRIVATEUSE1 -> privateUse1Device).
//  2. Find `_<device>` in the method, rightmost first, where it ends the name or
//     is followed only by `_<dtype>` tokens (torch dtype names plus the case's
//     dtype marks). No such token means the class is not an instantiation
//     (TestMPS, TestTorch): the name is returned unchanged.
//  3. Cut the method there, and drop the class suffix.
//  4. With op marks, also cut `_<op>` (and an OpInfo variant after it) from
//     the end of what is left; torch-spyre writes op marks with non-alphanumerics
//     as '_' and outer '_' trimmed, so `__rsub__` is marked `rsub`.
// Parametrize suffixes other than op, device and dtype stay in the base name.
std::string baseTestName(std::string_view className, std::string_view method,
                         const TestMarks& marks, const BaseNameOptions& options = {});
// The same into `out`, reusing its buffer.
void assignBaseTestName(std::string& out, std::string_view className, std::string_view method,
                        const TestMarks& marks, const BaseNameOptions& options = {});

// The lower-case device of an instantiated class name ("TestFooCUDA" -> "cuda",
// "TestFooPRIVATEUSE1" -> options.privateUse1Device), "" when none; with
// `genericClass` set to the class without that suffix. The result views
// `options` or static storage.
std::string_view classDevice(std::string_view className, const BaseNameOptions& options,
                             std::string_view* genericClass = nullptr);

// Where "_<device>" starts in an instantiated method name: the rightmost one
// that ends the name or is followed only by `_<dtype>` tokens (torch's dtype
// names and the case's dtype marks); npos when there is none.
std::size_t deviceTokenAt(std::string_view method, std::string_view device,
                          const TestMarks& marks = {});

// An op as torch-spyre's op__ marks write it: every character but
// [A-Za-z0-9] as '_', outer '_' trimmed ("nn.functional.relu" ->
// "nn_functional_relu", "__rsub__" -> "rsub").
std::string markedOp(std::string_view op);

// A torch dtype as PyTorch spells it in test names ("float16", "bool",
// "float8_e4m3fn"; str(torch.half) without "torch.").
bool isTorchDtypeName(std::string_view name);

} // namespace relayhud
