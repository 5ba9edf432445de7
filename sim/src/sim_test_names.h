#pragma once
// The vocabulary of the simulated test universe: real PyTorch (and vLLM) test
// files, classes, methods, OpInfo op names and dtypes, grouped into the
// suites that CI matrix configs run.
#include <cstdint>
#include <string_view>
#include <vector>

namespace relayhud::sim {

using Names = std::vector<std::string_view>;

// How a family's test names are formed (PyTorch's instantiate_device_type_tests
// and @ops, or plain parametrization).
enum class NameShape : std::uint8_t {
    OpDtype, // Class<DEV>::method_<op>_<device>_<dtype>
    Op,      // Class<DEV>::method_<op>_<device>
    Dtype,   // Class<DEV>::method_<device>_<dtype>
    Device,  // Class<DEV>::method_<device>
    Plain,   // Class::method[_<first>[_<second>]]   (not device-generic)
    Bracket, // [Class::]method[<first>[-<second>]]  (pytest.mark.parametrize ids)
};

struct TestFamily {
    std::string_view file;      // "test_ops.py", as the node id names it
    std::string_view testClass; // generic class for device shapes; "" for module-level functions
    NameShape shape = NameShape::Plain;
    Names methods;
    const Names* first = nullptr;  // ops (OpDtype, Op) or the first parameter list
    const Names* second = nullptr; // dtypes (OpDtype, Dtype) or the second parameter list
    Names modules;                 // per method: the nn module it exercises, or empty
    int firstLine = 100;           // line of the first method in the file
};

enum class Suite : std::uint8_t {
    Core,        // upstream op and tensor tests (test_ops.py, test_torch.py, ...)
    Compile,     // inductor and dynamo
    Distributed, // c10d and DTensor
    VllmCorrectness,
    VllmEntrypoints,
    VllmModels,
};

Suite suiteOfConfig(std::string_view config);
const std::vector<TestFamily>& familiesOf(Suite suite);
// The suites a config draws from, most specific first: when a job asks for
// more cases than its own suite holds, the next one supplies the rest.
std::vector<Suite> suiteTiers(std::string_view config);

} // namespace relayhud::sim
