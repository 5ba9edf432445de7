// Base names are checked against real `Class::method` entries of torch-spyre's
// outcome configs (shared/corpus/configs), instantiated the way PyTorch's
// instantiate_device_type_tests names them.
#include "relayhud/junit/test_identity.h"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

using namespace relayhud;

namespace {

TestMarks marks(const std::vector<std::string>& ops, const std::vector<std::string>& dtypes)
{
    TestMarks m;
    for (const std::string& op : ops)
        m.items.push_back({MarkKind::Op, op});
    for (const std::string& dtype : dtypes)
        m.items.push_back({MarkKind::Dtype, dtype});
    return m;
}

std::string configText(const std::string& name)
{
    std::ifstream in(std::string(RELAYHUD_CORPUS_DIR) + "/configs/" + name);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

// True when the YAML has a list item "- <name>", alone or before a comment.
bool listsName(const std::string& yaml, const std::string& name)
{
    const std::string item = "- " + name;
    for (std::size_t at = yaml.find(item); at != std::string::npos; at = yaml.find(item, at + 1)) {
        const std::size_t end = at + item.size();
        if (end == yaml.size() || yaml[end] == '\n' || yaml[end] == ' ' || yaml[end] == '\r')
            return true;
    }
    return false;
}

struct Instantiated {
    std::string config;    // corpus config that lists the base name
    std::string baseName;  // as the config lists it
    std::string className; // as a report shows it
    std::string method;
    TestMarks marks;
};

const std::vector<Instantiated>& realNames()
{
    static const std::vector<Instantiated> names = {
        {"tests__configs__upstream_tests__test_binary_ufuncs_config.yaml",
         "TestBinaryUfuncs::test_contig_vs_transposed", "TestBinaryUfuncsPRIVATEUSE1",
         "test_contig_vs_transposed_add_spyre_float16", marks({"add"}, {"float16"})},
        {"tests__configs__upstream_tests__test_binary_ufuncs_config.yaml",
         "TestBinaryUfuncs::test_contig_vs_transposed", "TestBinaryUfuncsPRIVATEUSE1",
         "test_contig_vs_transposed_mul_spyre_bfloat16", marks({"mul"}, {"bfloat16"})},
        {"tests__configs__upstream_tests__test_view_ops_config.yaml",
         "TestOldViewOps::test_transposes_errors", "TestOldViewOpsPRIVATEUSE1",
         "test_transposes_errors_spyre_int64", marks({}, {"int64"})},
        {"tests__configs__upstream_tests__test_view_ops_config.yaml", "TestViewOps::test_conj_self",
         "TestViewOpsPRIVATEUSE1", "test_conj_self_spyre_bfloat16", marks({}, {"bfloat16"})},
        {"tests__configs__upstream_tests__test_view_ops_config.yaml",
         "TestViewOps::test_unbind",
         "TestViewOpsPRIVATEUSE1",
         "test_unbind_spyre",
         {}},
        // The base name itself ends in '_': only the device token goes.
        {"tests__configs__upstream_tests__test_view_ops_config.yaml",
         "TestOldViewOps::test_memory_format_resize_",
         "TestOldViewOpsPRIVATEUSE1",
         "test_memory_format_resize__spyre",
         {}},
        // A base name that ends in a dtype keeps it.
        {"tests__configs__upstream_tests_beta__test_torch.yaml",
         "TestDevicePrecision::test_index_add_bfloat16",
         "TestDevicePrecisionPRIVATEUSE1",
         "test_index_add_bfloat16_spyre",
         {}},
        {"tests__configs__upstream_tests_beta__test_unary_ufuncs.yaml",
         "TestUnaryUfuncs::test_nan_to_num_bfloat16",
         "TestUnaryUfuncsPRIVATEUSE1",
         "test_nan_to_num_bfloat16_spyre",
         {}},
        // "_cuda_" inside the base name is not the device token.
        {"tests__configs__upstream_tests_beta__test_torch.yaml",
         "TestTorchDeviceType::test_addcmul_cuda_errors_with_cpu_scalars",
         "TestTorchDeviceTypePRIVATEUSE1",
         "test_addcmul_cuda_errors_with_cpu_scalars_spyre",
         {}},
        {"tests__configs__upstream_tests_beta__test_torch.yaml",
         "TestTorchDeviceType::test__local_scalar_dense_with_empty_tensor",
         "TestTorchDeviceTypePRIVATEUSE1", "test__local_scalar_dense_with_empty_tensor_spyre_bool",
         marks({}, {"bool"})},
        // OpInfo names with dots are written with '_' in both the method and the mark.
        {"tests__configs__upstream_tests_beta__test_unary_ufuncs.yaml",
         "TestUnaryUfuncs::test_reference_numerics_normal", "TestUnaryUfuncsPRIVATEUSE1",
         "test_reference_numerics_normal_special_i0e_spyre_float32",
         marks({"special_i0e"}, {"float32"})},
        {"tests__configs__upstream_tests_beta__test_unary_ufuncs.yaml",
         "TestUnaryUfuncs::test_float_domains", "TestUnaryUfuncsPRIVATEUSE1",
         "test_float_domains_acos_spyre_float16", marks({"acos"}, {"float16"})},
        // Not device-generic: TestTorch has no device suffix, so "_cpu" and
        // "_float16" belong to the base name.
        {"tests__configs__upstream_tests_beta__test_torch.yaml",
         "TestTorch::test_generator_cpu",
         "TestTorch",
         "test_generator_cpu",
         {}},
        {"tests__configs__upstream_tests_beta__test_torch.yaml",
         "TestTorch::test_copy_float16",
         "TestTorch",
         "test_copy_float16",
         {}},
    };
    return names;
}

} // namespace

TEST(TestIdentityBaseName, RealConfigNamesComeBackFromTheirInstantiations)
{
    for (const Instantiated& n : realNames()) {
        SCOPED_TRACE(n.className + "::" + n.method);
        // The expected name is really in that config, not made up here.
        EXPECT_TRUE(listsName(configText(n.config), n.baseName))
            << n.baseName << " not in " << n.config;
        EXPECT_EQ(baseTestName(n.className, n.method, n.marks), n.baseName);
    }
}

TEST(TestIdentityBaseName, DomainExamples)
{
    EXPECT_EQ(baseTestName("TestCommonPRIVATEUSE1", "test_compare_cpu_add_spyre_float16",
                           marks({"add"}, {"float16"})),
              "TestCommon::test_compare_cpu");
    EXPECT_EQ(baseTestName("TestBinaryUfuncsPRIVATEUSE1", "test___xor___not_implemented_spyre_int8",
                           marks({}, {"int8"})),
              "TestBinaryUfuncs::test___xor___not_implemented");
}

TEST(TestIdentityBaseName, WithoutMarksTheDeviceAndKnownDtypesGo)
{
    EXPECT_EQ(baseTestName("TestViewOpsPRIVATEUSE1", "test_conj_self_spyre_float16", {}),
              "TestViewOps::test_conj_self");
    EXPECT_EQ(baseTestName("TestFooCUDA", "test_bar_cuda_float8_e4m3fn", {}), "TestFoo::test_bar");
    // A tuple of dtypes puts several after the device.
    EXPECT_EQ(baseTestName("TestFooCPU", "test_bar_cpu_float32_complex64", {}),
              "TestFoo::test_bar");
    // Without an op mark the op suffix cannot be told from the base name.
    EXPECT_EQ(baseTestName("TestCommonPRIVATEUSE1", "test_compare_cpu_add_spyre_float16", {}),
              "TestCommon::test_compare_cpu_add");
}

TEST(TestIdentityBaseName, OpVariantsAndDunderOps)
{
    EXPECT_EQ(baseTestName("TestBinaryUfuncsPRIVATEUSE1",
                           "test_contig_vs_transposed_div_floor_rounding_spyre_float16",
                           marks({"div"}, {"float16"})),
              "TestBinaryUfuncs::test_contig_vs_transposed");
    EXPECT_EQ(baseTestName("TestCommonPRIVATEUSE1", "test_compare_cpu___rsub___spyre_float16",
                           marks({"rsub"}, {"float16"})),
              "TestCommon::test_compare_cpu");
    // A mark written with the OpInfo's dots is matched as its method form.
    EXPECT_EQ(baseTestName("TestUnaryUfuncsCUDA",
                           "test_reference_numerics_normal_nn_functional_relu_cuda_float32",
                           marks({"nn.functional.relu"}, {"float32"})),
              "TestUnaryUfuncs::test_reference_numerics_normal");
    // The op's name elsewhere in the base name is left alone.
    EXPECT_EQ(baseTestName("TestCommonPRIVATEUSE1", "test_add_out_add_spyre_float16",
                           marks({"add"}, {"float16"})),
              "TestCommon::test_add_out");
}

TEST(TestIdentityBaseName, DeviceNamesFollowTheClassSuffix)
{
    BaseNameOptions ascend;
    ascend.privateUse1Device = "npu";
    EXPECT_EQ(baseTestName("TestViewOpsPRIVATEUSE1", "test_unbind_npu", {}, ascend),
              "TestViewOps::test_unbind");
    // The "spyre" token means nothing for an npu backend.
    EXPECT_EQ(baseTestName("TestViewOpsPRIVATEUSE1", "test_unbind_spyre", {}, ascend),
              "TestViewOpsPRIVATEUSE1::test_unbind_spyre");
    EXPECT_EQ(baseTestName("TestViewOpsXPU", "test_unbind_xpu", {}), "TestViewOps::test_unbind");
    EXPECT_EQ(baseTestName("TestViewOpsMETA", "test_unbind_meta", {}), "TestViewOps::test_unbind");
    // A backend with a test base of its own names the class after its device.
    EXPECT_EQ(baseTestName("TestViewOpsSPYRE", "test_unbind_spyre", {}),
              "TestViewOps::test_unbind");
    // test_mps.py's TestMPS is no instantiation: its methods carry no "_mps".
    EXPECT_EQ(baseTestName("TestMPS", "test_exp", {}), "TestMPS::test_exp");
    EXPECT_EQ(baseTestName("", "test_always_pass", {}), "test_always_pass");
}

TEST(TestIdentityBaseName, ClassDeviceSplitsTheSuffix)
{
    std::string_view generic;
    EXPECT_EQ(classDevice("TestBinaryUfuncsPRIVATEUSE1", {}, &generic), "spyre");
    EXPECT_EQ(generic, "TestBinaryUfuncs");
    EXPECT_EQ(classDevice("TestNNDeviceTypeCUDA", {}, &generic), "cuda");
    EXPECT_EQ(generic, "TestNNDeviceType");
    EXPECT_EQ(classDevice("TestTorch", {}, &generic), "");
    EXPECT_EQ(generic, "TestTorch");
    EXPECT_TRUE(isTorchDtypeName("float8_e5m2fnuz"));
    EXPECT_FALSE(isTorchDtypeName("float"));
}

TEST(TestIdentityLocate, ModuleAndClassFromClassname)
{
    const TestLocation ops = locateTest("test_ops.TestCommonPRIVATEUSE1", "");
    EXPECT_EQ(ops.file, "test_ops.py");
    EXPECT_EQ(ops.className, "TestCommonPRIVATEUSE1");
    const TestLocation numpy = locateTest("numpy.core.tests.test_umath.TestConstants", "");
    EXPECT_EQ(numpy.file, "numpy/core/tests/test_umath.py");
    EXPECT_EQ(numpy.className, "TestConstants");
    // A module-level test function: the classname is only the module.
    const TestLocation function = locateTest("tests.test_lib", "");
    EXPECT_EQ(function.file, "tests/test_lib.py");
    EXPECT_EQ(function.className, "");
    const TestLocation nested = locateTest("test_x.TestOuter.TestInner", "");
    EXPECT_EQ(nested.className, "TestOuter::TestInner");
}

TEST(TestIdentityLocate, FileAttributeSettlesTheSplitOnlyWhenItIsTheModule)
{
    // A lower-case class is only recognisable through the file attribute.
    const TestLocation lower = locateTest("test.test_spark.sparkTests", "test/test_spark.py");
    EXPECT_EQ(lower.file, "test/test_spark.py");
    EXPECT_EQ(lower.className, "sparkTests");
    // A file attribute naming where an inherited method is defined does not
    // move the test out of the module it was collected from.
    const TestLocation inherited =
        locateTest("test.integration.test_elastic_spark_tensorflow.ElasticSparkTensorflowTests",
                   "../usr/local/lib/python3.6/dist-packages/mock/mock.py");
    EXPECT_EQ(inherited.file, "test/integration/test_elastic_spark_tensorflow.py");
    EXPECT_EQ(inherited.className, "ElasticSparkTensorflowTests");
    const TestLocation onlyFile = locateTest("", "test/test_foo.py");
    EXPECT_EQ(onlyFile.file, "test/test_foo.py");
}

TEST(TestIdentityLocate, IdentityIsTheNodeId)
{
    EXPECT_EQ(
        testIdentity("test_ops.py", "TestCommonPRIVATEUSE1", "test_compare_cpu_add_spyre_float16"),
        "test_ops.py::TestCommonPRIVATEUSE1::test_compare_cpu_add_spyre_float16");
    EXPECT_EQ(testIdentity("tests/test_lib.py", "", "test_parameterized[param1]"),
              "tests/test_lib.py::test_parameterized[param1]");
}
