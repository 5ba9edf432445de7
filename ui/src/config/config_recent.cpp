#include "config/config_recent.h"

namespace relayhud::ui {

namespace {

bool inSection(const config::Resolver& resolver, const RecentTest& test, std::size_t section)
{
    const Result<std::size_t> file = resolver.sectionFor(test.file);
    return file && *file == section;
}

} // namespace

std::string_view methodOf(std::string_view baseName)
{
    const std::size_t sep = baseName.rfind("::");
    return sep == std::string_view::npos ? baseName : baseName.substr(sep + 2);
}

std::vector<std::size_t> testsNamedBy(const RecentResults& recent, const config::Resolver& resolver,
                                      std::size_t section, std::size_t entry, std::size_t name)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < recent.tests.size(); ++i) {
        const RecentTest& test = recent.tests[i];
        if (resolver.nameMatches(section, entry, name, methodOf(test.baseName))
            && inSection(resolver, test, section))
            out.push_back(i);
    }
    return out;
}

std::vector<std::size_t> testsOfMethod(const RecentResults& recent,
                                       const config::Resolver& resolver, std::size_t section,
                                       std::string_view method)
{
    std::vector<std::size_t> out;
    for (std::size_t i = 0; i < recent.tests.size(); ++i)
        if (methodOf(recent.tests[i].baseName) == method
            && inSection(resolver, recent.tests[i], section))
            out.push_back(i);
    return out;
}

} // namespace relayhud::ui
