#pragma once
// The functions of a Python test file, read well enough to agree with
// Python's own `ast` module on which exist and which changed (issue 39): no
// Python here, so a small scanner for what test files use. It reads strings
// (every prefix, triple quotes), comments, brackets and backslashes into
// logical lines, and blocks by their indentation:
//  - a function is a `def` or `async def` at module level or directly in a
//    class body, nested classes included ("TestFoo.Inner"); a def inside a
//    def, or inside an `if`/`try`/`with` block, is part of what holds it,
//    as `ast` puts it in that statement's body;
//  - its body hash covers its signature and body as tokens: comments, blank
//    lines and layout inside brackets leave it alone (as they leave `ast`),
//    a docstring, a default or an `async` changes it; its decorators are
//    hashed apart, so a changed `@dtypes(...)` says so.
// What `ast` reads the same but this scanner does not: a literal respelled
// ('a' for "a", 1_0 for 10), implicit string concatenation or parentheses
// added around an expression: such an edit shows as a change.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace relayhud::pysource {

struct PyFunction {
    std::string className; // "" at module level; "Outer.Inner" for nested classes
    std::string name;
    bool isAsync = false;
    int line = 0;                    // the `def` line, 1-based
    int endLine = 0;                 // its last line of code
    std::uint64_t bodyHash = 0;      // signature and body, without the name
    std::uint64_t decoratorHash = 0; // the decorators, in order
    // Each decorator on one line, without the `@`: "ops(op_db, dtypes=OpDTypes.any_one)".
    std::vector<std::string> decorators;

    std::string qualifiedName() const { return className.empty() ? name : className + "." + name; }
};

struct PyScan {
    std::vector<PyFunction> functions; // in source order
    std::vector<std::string> classes;  // qualified, in source order (module-level chains)
    // Lines the scanner could not read as Python it knows (an unclosed
    // string or bracket at the end): the functions before them stand.
    std::string problem;
};

PyScan scanPython(std::string_view source);

} // namespace relayhud::pysource
