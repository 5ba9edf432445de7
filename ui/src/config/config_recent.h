#pragma once
// The cache's recent tests a config listing stands for: what the editor's
// history strips show and what a promotion is checked against.
#include "relayhud/config/resolver.h"
#include "relayhud/store/recent_results.h"

#include <string_view>
#include <vector>

namespace relayhud::ui {

// The method a stored test's base name holds ("TestX::test_y" -> "test_y").
std::string_view methodOf(std::string_view baseName);

// The recent tests a name stands for: same files entry, and the method
// equal to its method part (or fullmatched by it, for a regex), whatever
// the class: the framework never checks the class part.
std::vector<std::size_t> testsNamedBy(const RecentResults& recent, const config::Resolver& resolver,
                                      std::size_t section, std::size_t entry, std::size_t name);

// The recent tests of one method in one files entry (a test revealed under
// a regex listing moves alone, with its method's variants).
std::vector<std::size_t> testsOfMethod(const RecentResults& recent,
                                       const config::Resolver& resolver, std::size_t section,
                                       std::string_view method);

} // namespace relayhud::ui
