// relayhud_core_tests: GoogleTest at the tests' "now" (test_world.h).
#include "test_world.h"

#include <gmock/gmock.h>

int main(int argc, char** argv)
{
    relayhud::test::pinTestClock();
    ::testing::InitGoogleMock(&argc, argv);
    return RUN_ALL_TESTS();
}
