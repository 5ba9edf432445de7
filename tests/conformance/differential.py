#!/usr/bin/env python3
"""differential.py: RelayHUD's resolver against torch-spyre's framework on real configs.

A developer tool, never run in CI (it needs a torch-spyre checkout and Python's pyyaml, regex
and pydantic 2). For every config under --configs (all of torch-spyre's tests/configs, say) it
builds report-shaped variants of every method the configs name, plus strings that the regex
names match and near misses, each with dtypes, ops and test types, asks
`relayhud-cli config explain CONFIG --stdin` and spyre_oracle.py (the framework's own code) the
same questions, and reports every disagreement of mode or deciding line.

    mkdir -p /tmp/ts && git -C TORCH_SPYRE_GIT archive 539fd3b0 tests | tar -x -C /tmp/ts
    tests/conformance/differential.py --cli build/dev/app/relayhud-cli \
        --framework /tmp/ts --configs /tmp/ts/tests/configs [--limit-per-config N]
"""

import argparse
import os
import random
import re
import sre_constants
import sre_parse
import subprocess
import sys
from pathlib import Path

import yaml

HERE = Path(__file__).resolve().parent
DTYPES = ["", "float16", "float32", "bfloat16", "int64", "bool", "complex64"]
TOKEN = re.compile(r"^\$\{[A-Z_]+\}/")
REGEX_CHARS = set("\\.^$*+?{}[]|()")


def sample(pattern, rng, count=4):
    """Strings a Python regex fullmatches, drawn from its parse tree."""
    try:
        tree = sre_parse.parse(pattern)
    except Exception:
        return []

    def draw(items, depth=0):
        out = ""
        for op, av in items:
            if op == sre_constants.LITERAL:
                out += chr(av)
            elif op == sre_constants.ANY:
                out += rng.choice("abcxyz_019")
            elif op == sre_constants.IN:
                choices = []
                for kind, val in av:
                    if kind == sre_constants.LITERAL:
                        choices.append(chr(val))
                    elif kind == sre_constants.RANGE:
                        choices.extend(chr(c) for c in range(val[0], min(val[1], val[0] + 5) + 1))
                    elif kind == sre_constants.NEGATE:
                        choices = ["q"]
                        break
                out += rng.choice(choices or ["a"])
            elif op == sre_constants.BRANCH:
                out += draw(rng.choice(av[1]), depth + 1)
            elif op == sre_constants.SUBPATTERN:
                out += draw(av[-1], depth + 1)
            elif op in (sre_constants.MAX_REPEAT, sre_constants.MIN_REPEAT):
                lo, hi, body = av
                hi = min(hi, lo + 3)
                for _ in range(rng.randint(lo, hi)):
                    out += draw(body, depth + 1)
            elif op in (sre_constants.AT,):
                pass
            else:
                return None
        return out

    out = set()
    for _ in range(count * 3):
        s = draw(list(tree))
        if s is not None and re.fullmatch(pattern, s):
            out.add(s)
        if len(out) >= count:
            break
    return sorted(out)


def sections(config_path):
    doc = yaml.safe_load(Path(config_path).read_text()) or {}
    suite = doc.get("test_suite_config") or {}
    for f in suite.get("files") or []:
        path = f.get("path") or ""
        names = []
        for entry in f.get("tests") or []:
            ns = entry.get("names") or []
            names.extend([ns] if isinstance(ns, str) else ns)
        labels = set()
        for entry in f.get("tests") or []:
            labels.update(entry.get("labels") or [])
        yield path, names, labels
    g = suite.get("global") or {}
    return g


def ops_of(config_path):
    doc = yaml.safe_load(Path(config_path).read_text()) or {}
    suite = doc.get("test_suite_config") or {}
    ops = set()
    for item in ((suite.get("global") or {}).get("supported_ops") or []):
        ops.add(item if isinstance(item, str) else item.get("name", ""))
    for f in suite.get("files") or []:
        for entry in f.get("tests") or []:
            for item in (((entry.get("edits") or {}).get("ops") or {}).get("exclude") or []):
                ops.add(item.get("name", "") if isinstance(item, dict) else item)
    return sorted(o for o in ops if o)


def queries_for(config_path, rng, limit):
    out = []
    ops = ops_of(config_path)
    for path, names, labels in sections(config_path):
        rel = TOKEN.sub("", path)
        wrapper = rel[:-3] + "__oot_wrapper.py" if rel.endswith(".py") else rel
        methods = set()
        for name in names:
            cls, _, method = name.rpartition("::")
            if any(c in REGEX_CHARS for c in method):
                for s in sample(method, rng):
                    methods.add(s)
                    methods.add(s + "_x")
            else:
                methods.add(method)
                methods.add(method + "_extra")
        methods.add("test_never_listed_anywhere")
        for method in sorted(methods):
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", method):
                continue
            for dtype in DTYPES:
                variant = method + "_spyre" + ("_" + dtype if dtype else "")
                file = wrapper if rng.random() < 0.2 else rel
                out.append((f"{file}::TestXPRIVATEUSE1::{variant}", "-", "-"))
            if ops and method.startswith("test_"):
                op = rng.choice(ops)
                formatted = op.replace(".", "_")
                out.append((f"{rel}::TestXPRIVATEUSE1::{method}_{formatted}_spyre_float16", op, "-"))
            for label in sorted(labels)[:2] + ["trunk"]:
                out.append((f"{rel}::TestXPRIVATEUSE1::{method}_spyre", "-", label))
    rng.shuffle(out)
    return out[:limit] if limit else out


def run_cli(cli, config, queries):
    text = "".join(f"{t}\t{op}\t{tt}\n" for t, op, tt in queries)
    res = subprocess.run([cli, "config", "explain", str(config), "--stdin"], input=text,
                         capture_output=True, text=True)
    rows = {}
    for line in res.stdout.splitlines():
        parts = line.split("\t")
        rows.setdefault(parts[0], []).append(parts[1:3])
    return rows, res.stderr


def run_oracle(framework, config, queries):
    text = "".join(f"{config}\t{t}\t{op}\t{tt}\n" for t, op, tt in queries)
    res = subprocess.run([sys.executable, str(HERE / "spyre_oracle.py"), "--framework", framework],
                         input=text, capture_output=True, text=True)
    return [line.split("\t")[:3] for line in res.stdout.splitlines()], res.stderr


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cli", required=True)
    ap.add_argument("--framework", required=True)
    ap.add_argument("--configs", required=True)
    ap.add_argument("--limit-per-config", type=int, default=0)
    ap.add_argument("--seed", type=int, default=14)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    total = agree = 0
    worst = []
    for config in sorted(Path(args.configs).rglob("*.yaml")):
        queries = queries_for(config, rng, args.limit_per_config)
        if not queries:
            continue
        oracle, oerr = run_oracle(args.framework, config, queries)
        if len(oracle) != len(queries):
            print(f"{config}: oracle answered {len(oracle)} of {len(queries)}: {oerr[-300:]}")
            continue
        ours, _ = run_cli(args.cli, config, queries)
        seen = {}
        for (test, op, tt), (mode, line, note) in zip(queries, oracle):
            k = seen.get(test, 0)
            seen[test] = k + 1
            got = ours.get(test, [])
            mine = got[k] if k < len(got) else ["missing", "-"]
            total += 1
            if mode == "ERROR" and mine[0] == "error":
                agree += 1
                continue
            if [mode, line] == mine[:2]:
                agree += 1
            else:
                worst.append((config.name, test, op, tt, mode, line, mine, note))
    print(f"{agree} of {total} agree ({100.0 * agree / max(total, 1):.2f}%)")
    for row in worst[:60]:
        print("DIFF", *row, sep="\t")
    return 0 if agree == total else 1


if __name__ == "__main__":
    sys.exit(main())
