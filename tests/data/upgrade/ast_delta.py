#!/usr/bin/env python3
"""The method delta of two trees of Python files, by Python's own ast: the
reference RelayHUD's scanner (core/pysource) and compareMethods
(core/upgrade/method_delta.h) must agree with exactly (tests/core/
upgrade_test.cpp). The same rules as method_delta.h:

A function is a FunctionDef or AsyncFunctionDef in a module's body or
directly in the body of a class that is itself in the module's body or
directly in such a class ("Outer.Inner"). Its body identity is its ast.dump
with the name and decorators left out; its decorators' identity the dumps of
its decorator list.
  1. same file, class and name: "changed" when body or decorators differ;
  2. then a gone and a new one in the same file and class with the same body:
     "renamed", DETAIL the new name;
  3. then the same name and body elsewhere: "moved", DETAIL "FILE::CLASS";
  4. the rest "removed" / "added".

usage: ast_delta.py OLD_DIR NEW_DIR   (prints KIND FILE CLASS METHOD DETAIL, TSV)
"""
import ast
import os
import sys


def functions(tree):
    out = []

    def walk(body, classes):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                out.append((".".join(classes), node))
            elif isinstance(node, ast.ClassDef):
                walk(node.body, classes + [node.name])

    walk(tree.body, [])
    return out


def identity(node):
    kind = "async" if isinstance(node, ast.AsyncFunctionDef) else "def"
    decorators = [ast.dump(d) for d in node.decorator_list]
    name = node.name
    node.name = ""
    node.decorator_list = []
    body = kind + ast.dump(node)
    node.name = name
    return body, "\n".join(decorators)


def scan(root):
    placed = []
    for base, _, files in sorted(os.walk(root)):
        for name in sorted(files):
            path = os.path.join(base, name)
            rel = os.path.relpath(path, root)
            with open(path, encoding="utf-8") as f:
                tree = ast.parse(f.read())
            for cls, node in functions(tree):
                body, decorators = identity(node)
                placed.append({"file": rel, "cls": cls, "name": node.name, "line": node.lineno,
                               "body": body, "dec": decorators, "used": False})
    placed.sort(key=lambda p: (p["file"], p["line"]))
    return placed


def main(old_dir, new_dir):
    old, new = scan(old_dir), scan(new_dir)
    out = []
    same_place = lambda o, n: o["file"] == n["file"] and o["cls"] == n["cls"]
    for o in old:
        for n in new:
            if n["used"] or not same_place(o, n) or o["name"] != n["name"]:
                continue
            o["used"] = n["used"] = True
            body, dec = o["body"] != n["body"], o["dec"] != n["dec"]
            if body or dec:
                detail = "body, decorators" if body and dec else "body" if body else "decorators"
                out.append(("changed", n["file"], n["cls"], n["name"], detail))
            break
    for kind, match in (("renamed", same_place),
                        ("moved", lambda o, n: o["name"] == n["name"] and not same_place(o, n))):
        for o in old:
            if o["used"]:
                continue
            for n in new:
                if n["used"] or o["body"] != n["body"] or not match(o, n):
                    continue
                o["used"] = n["used"] = True
                detail = n["name"] if kind == "renamed" else n["file"] + "::" + n["cls"]
                out.append((kind, o["file"], o["cls"], o["name"], detail))
                break
    out += [("removed", o["file"], o["cls"], o["name"], "") for o in old if not o["used"]]
    out += [("added", n["file"], n["cls"], n["name"], "") for n in new if not n["used"]]
    order = ["added", "removed", "renamed", "changed", "moved"]
    out.sort(key=lambda r: (r[1], r[2], r[3], order.index(r[0])))
    for row in out:
        print("\t".join(row))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
