#include "relayhud/junit/test_identity.h"

#include <algorithm>
#include <vector>

namespace relayhud {
namespace {

std::vector<std::string_view> splitDots(std::string_view text)
{
    std::vector<std::string_view> parts;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t dot = std::min(text.find('.', start), text.size());
        parts.push_back(text.substr(start, dot - start));
        start = dot + 1;
    }
    return parts;
}

std::string join(const std::vector<std::string_view>& parts, std::size_t from, std::size_t to,
                 std::string_view separator)
{
    std::string out;
    for (std::size_t i = from; i < to; ++i) {
        if (i > from)
            out += separator;
        out += parts[i];
    }
    return out;
}

bool startsUpper(std::string_view part)
{
    return !part.empty() && part[0] >= 'A' && part[0] <= 'Z';
}

// "test/test_x.py" -> "test.test_x": the form the file takes inside classname.
std::string dottedModule(std::string_view file)
{
    if (file.size() > 3 && file.substr(file.size() - 3) == ".py")
        file.remove_suffix(3);
    std::string out(file);
    for (char& c : out) {
        if (c == '/' || c == '\\')
            c = '.';
    }
    return out;
}

// The split the `file` attribute proves, when it names the classname's module.
bool splitByFileAttribute(std::string_view classname, std::string_view fileAttribute,
                          TestLocation& location)
{
    const std::string module = dottedModule(fileAttribute);
    if (module.empty() || classname.substr(0, module.size()) != module)
        return false;
    if (classname.size() == module.size()) {
        location = {std::string(fileAttribute), {}};
        return true;
    }
    if (classname[module.size()] != '.')
        return false;
    const auto classes = splitDots(classname.substr(module.size() + 1));
    location = {std::string(fileAttribute), join(classes, 0, classes.size(), "::")};
    return true;
}

} // namespace

TestLocation locateTest(std::string_view classname, std::string_view fileAttribute)
{
    if (classname.empty())
        return {std::string(fileAttribute), {}};
    TestLocation location;
    if (!fileAttribute.empty() && splitByFileAttribute(classname, fileAttribute, location))
        return location;
    const auto parts = splitDots(classname);
    std::size_t firstClass = 0;
    while (firstClass < parts.size() && !startsUpper(parts[firstClass]))
        ++firstClass;
    location.className = join(parts, firstClass, parts.size(), "::");
    location.file =
        firstClass == 0 ? std::string(fileAttribute) : join(parts, 0, firstClass, "/") + ".py";
    return location;
}

void assignTestIdentity(std::string& out, std::string_view file, std::string_view className,
                        std::string_view name)
{
    out.clear();
    out.reserve(file.size() + className.size() + name.size() + 4);
    for (std::string_view part : {file, className, name}) {
        if (part.empty())
            continue;
        if (!out.empty())
            out += "::";
        out += part;
    }
}

std::string testIdentity(std::string_view file, std::string_view className, std::string_view name)
{
    std::string out;
    assignTestIdentity(out, file, className, name);
    return out;
}

} // namespace relayhud
