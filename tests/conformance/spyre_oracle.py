#!/usr/bin/env python3
"""spyre_oracle.py: torch-spyre's own OOT test framework as an oracle for outcome configs.

A developer tool, never run in CI. It answers "what outcome does this torch-spyre outcome
config give this instantiated test variant?" by running the framework's own code (loaded at
run time from --framework, nothing copied here) against a minimal `torch` stub:

  * oot_test_parsing.load_yaml_config     (yaml.safe_load + the pydantic models' validation)
  * oot_test_utilities._build_test_entry_map, _regex_entries_for_name,
    _select_entry_by_op_index, _select_entry_for_variant, _extract_op_name_from_method
  * oot_test_matching.extract_dtype_from_name / parse_dtype
  * OOTTestBase._should_run, and the statements of OOTTestBase.instantiate_test that build the
    candidate list and resolve the entry of one variant, both extracted from
    oot_test_base_common.py with `ast` and executed against a small fake class.

What it cannot run (it needs torch's op_db) is the generation stage, steps 1-2 of
shared/specs/spyre-config-semantics.md section 6 (supported_ops op filter, per-op dtypes). Those
are applied as the spec says, and such answers carry the NOTE
`generation-stage (not from framework code)`.

Materialise the framework from the git mirror, e.g.:
    mkdir -p /tmp/ts && git -C /work/.mirror/AdnanHoque+torch-spyre/repo \
        archive 539fd3b0 tests/oot_framework | tar -x -C /tmp/ts
then pass --framework /tmp/ts (or /tmp/ts/tests/oot_framework).

Usage:
    spyre_oracle.py --framework DIR [QUERIES.tsv]        # queries on stdin when no file
    spyre_oracle.py --framework DIR --self-check [CASES.tsv]
    spyre_oracle.py --framework DIR --validate CONFIG.yaml...

A query line is TAB-separated: config, test, op, test_type (further columns are ignored, lines
starting with # are skipped). config is a path, or a name looked up in --configs-dir. test is
`<path>::<Class>::<variant>`; op is the raw OpInfo name (or `<name>__<n>` for model ops) or `-`;
test_type is the TORCH_SPYRE_TEST_TYPE value or `-` for unset. Output per query:
    MODE<TAB>LINE<TAB>NOTE
MODE is mandatory_success, xfail, xfail_strict, skip or dropped (or ERROR); LINE is the 1-based
line of the deciding entry's list item, or `unlisted`.
"""

import argparse
import ast
import importlib
import importlib.util
import os
import re as stdre
import sys
import types
import warnings
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

GEN_NOTE = "generation-stage (not from framework code)"
DEVICE = "spyre"
TORCH_DTYPE_NAMES = (
    "float16 float32 float64 bfloat16 int8 int16 int32 int64 uint8 uint16 uint32 uint64 "
    "complex32 complex64 complex128 bool"
).split()
FRAMEWORK_MODULES = (
    "oot_test_constants",
    "oot_test_matching",
    "oot_test_utilities",
    "oot_test_config_models",
    "oot_test_parsing",
)
MODEL_OPS_TARGET = "TestSpyreModelOps::test_model_ops_db"  # as test_model_ops_v2.py spells it
DEFAULT_CONFIGS_DIR = "/work/shared/corpus/configs"


class OracleError(Exception):
    pass


# ---------------------------------------------------------------------------
# torch stub and framework loading
# ---------------------------------------------------------------------------


def install_torch_stub() -> None:
    """Just enough `torch` for the framework modules' import-time use."""
    torch = types.ModuleType("torch")

    class dtype:  # noqa: N801 - mirrors torch.dtype
        def __init__(self, name: str) -> None:
            self._name = name

        def __repr__(self) -> str:
            return "torch." + self._name

    class Tensor:  # used only in annotations
        pass

    class device:  # noqa: N801 - used only in annotations
        def __init__(self, *args: Any) -> None:
            self.args = args

    torch.dtype = dtype
    torch.Tensor = Tensor
    torch.device = device
    for name in TORCH_DTYPE_NAMES:
        setattr(torch, name, dtype(name))
    torch.half = torch.float16
    torch.float = torch.float32
    torch.double = torch.float64
    torch.long = torch.int64
    torch.int = torch.int32
    c = types.ModuleType("torch._C")
    c._get_privateuse1_backend_name = lambda: DEVICE
    torch._C = c
    sys.modules["torch"] = torch
    sys.modules["torch._C"] = c


def find_package_dir(framework: str) -> Path:
    base = Path(framework)
    for cand in (base, base / "oot_framework", base / "tests" / "oot_framework"):
        if (cand / "oot_test_base_common.py").is_file():
            return cand
    raise OracleError(f"no oot_test_base_common.py under {framework!r}")


class Framework:
    """The framework's modules plus the pieces of OOTTestBase extracted with ast."""

    def __init__(self, framework_dir: str) -> None:
        install_torch_stub()
        self.pkg_dir = find_package_dir(framework_dir)
        spec = importlib.util.spec_from_file_location(
            "oot_framework",
            self.pkg_dir / "__init__.py",
            submodule_search_locations=[str(self.pkg_dir)],
        )
        pkg = importlib.util.module_from_spec(spec)
        sys.modules["oot_framework"] = pkg
        spec.loader.exec_module(pkg)
        self.mods = {m: importlib.import_module("oot_framework." + m) for m in FRAMEWORK_MODULES}
        self.constants = self.mods["oot_test_constants"]
        self.utilities = self.mods["oot_test_utilities"]
        self.parsing = self.mods["oot_test_parsing"]
        # _select_entry_by_op_index imports this module; we provide its map (see model_ops_map).
        models = types.ModuleType("models")
        models.__path__ = []
        v2 = types.ModuleType("models.test_model_ops_v2")
        v2.model_ops_entry_by_unique_name = {}
        models.test_model_ops_v2 = v2
        sys.modules["models"] = models
        sys.modules["models.test_model_ops_v2"] = v2
        self.model_ops_module = v2
        self._extract_base_common()

    # -- ast extraction -------------------------------------------------------
    def _namespace(self, tree: ast.Module) -> Dict[str, Any]:
        """Bind the names oot_test_base_common.py imports from the loadable framework modules."""
        import typing

        ns: Dict[str, Any] = {"os": os, "__name__": "oot_oracle_extracted"}
        for n in ("Dict", "List", "Optional", "Set", "Tuple", "Any"):
            ns[n] = getattr(typing, n)
        for node in tree.body:
            if isinstance(node, ast.ImportFrom) and node.module:
                short = node.module.split(".")[-1]
                mod = self.mods.get(short)
                if mod is None:
                    continue  # patchers, common_methods_invocations: need real torch
                for alias in node.names:
                    ns[alias.asname or alias.name] = getattr(mod, alias.name)
        ns["_OOT_DEVICE_TYPE"] = DEVICE
        return ns

    @staticmethod
    def _method(cls_node: ast.ClassDef, name: str) -> ast.FunctionDef:
        for node in cls_node.body:
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return node
        raise OracleError(f"OOTTestBase.{name} not found")

    @staticmethod
    def _targets(stmt: ast.stmt) -> List[str]:
        if isinstance(stmt, ast.Assign):
            return [t.id for t in stmt.targets if isinstance(t, ast.Name)]
        if isinstance(stmt, ast.AnnAssign) and isinstance(stmt.target, ast.Name):
            return [stmt.target.id]
        return []

    def _compile_fn(self, name: str, args: List[str], body: List[ast.stmt], ret: str,
                    ns: Dict[str, Any]):
        fn = ast.FunctionDef(
            name=name,
            args=ast.arguments(posonlyargs=[], args=[ast.arg(arg=a) for a in args],
                               kwonlyargs=[], kw_defaults=[], defaults=[]),
            body=body + [ast.Return(value=ast.parse(ret, mode="eval").body)],
            decorator_list=[],
            returns=None,
            **({"type_params": []} if sys.version_info >= (3, 12) else {}),
        )
        mod = ast.Module(body=[fn], type_ignores=[])
        ast.fix_missing_locations(mod)
        exec(compile(mod, str(self.pkg_dir / "oot_test_base_common.py"), "exec"), ns)
        return ns[name]

    def _extract_base_common(self) -> None:
        path = self.pkg_dir / "oot_test_base_common.py"
        tree = ast.parse(path.read_text(), filename=str(path))
        ns = self._namespace(tree)
        cls_node = next(
            (n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "OOTTestBase"), None)
        if cls_node is None:
            raise OracleError("class OOTTestBase not found")

        should_run = self._method(cls_node, "_should_run")
        should_run.decorator_list = []
        mod = ast.Module(body=[should_run], type_ignores=[])
        exec(compile(mod, str(path), "exec"), ns)
        self.should_run = ns["_should_run"]

        inst = self._method(cls_node, "instantiate_test")
        # 1. candidate list: `all_entries_for_name = ...`, `regex_matches = ...`, `for _re in ...`
        cand_body: List[ast.stmt] = []
        for stmt in inst.body:
            if "all_entries_for_name" in self._targets(stmt) or "regex_matches" in self._targets(stmt):
                cand_body.append(stmt)
            elif isinstance(stmt, ast.For) and isinstance(stmt.target, ast.Name) \
                    and stmt.target.id == "_re":
                cand_body.append(stmt)
        if len(cand_body) != 3:
            raise OracleError("could not find the candidate-list statements of instantiate_test")
        self.candidates_fn = self._compile_fn("_oracle_candidates", ["cls", "name"], cand_body,
                                              "all_entries_for_name", ns)
        # 2. per-variant resolution and decision inside `for method_name in new_methods:`
        loop = next((s for s in inst.body if isinstance(s, ast.For)
                     and isinstance(s.target, ast.Name) and s.target.id == "method_name"), None)
        if loop is None:
            raise OracleError("per-variant loop of instantiate_test not found")
        resolve_body: List[ast.stmt] = []
        decide_stmt: Optional[ast.stmt] = None
        for stmt in loop.body:
            if "resolved_entry" in self._targets(stmt):
                resolve_body.append(stmt)
            elif isinstance(stmt, ast.If) and ast.unparse(stmt.test) == "all_entries_for_name" \
                    and resolve_body:
                resolve_body.append(stmt)
            elif isinstance(stmt, ast.Assign) and "_should_run" in ast.unparse(stmt.value):
                decide_stmt = stmt
                break
        if len(resolve_body) != 2 or decide_stmt is None:
            raise OracleError("could not find the entry resolution / _should_run call")
        self.resolve_fn = self._compile_fn(
            "_oracle_resolve", ["cls", "method_name", "all_entries_for_name"], resolve_body,
            "resolved_entry", ns)
        self.decide_fn = self._compile_fn(
            "_oracle_decide", ["cls", "method_name", "name", "generic_cls", "resolved_entry"],
            [decide_stmt], "(enabled, reason, is_xfail, is_strict)", ns)


# ---------------------------------------------------------------------------
# Config handling
# ---------------------------------------------------------------------------


class LoadedConfig:
    def __init__(self, fw: Framework, path: str) -> None:
        import yaml

        self.path = path
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            self.model = fw.parsing.load_yaml_config(path)
        self.text = Path(path).read_text()
        self.lines = self.text.splitlines()
        self.node = yaml.compose(self.text)

    # -- YAML positions --------------------------------------------------------
    @staticmethod
    def _get(mapping, key: str):
        if mapping is None or not hasattr(mapping, "value") or not isinstance(mapping.value, list):
            return None
        for k, v in mapping.value:
            if getattr(k, "value", None) == key:
                return v
        return None

    def entry_line(self, file_index: int, test_index: int) -> int:
        suite = self._get(self.node, "test_suite_config")
        files = self._get(suite, "files")
        tests = self._get(files.value[file_index], "tests")
        item = tests.value[test_index]
        line, col = item.start_mark.line, item.start_mark.column
        # The list item's '-' is normally on the mapping's first line (`- names:`).
        if "-" in self.lines[line][:col]:
            return line + 1
        for back in range(line - 1, -1, -1):
            stripped = self.lines[back].strip()
            if stripped == "-" or stripped.startswith("- ") and stripped[2:].lstrip().startswith("#"):
                return back + 1
            if stripped and not stripped.startswith("#"):
                break
        return line + 1

    # -- files section ------------------------------------------------------------
    def section(self, test_path: str) -> Tuple[int, Any]:
        want = os.path.normpath(unwrap(test_path))
        for i, fe in enumerate(self.model.files):
            rel = stdre.sub(r"\$\{[^}]+\}/?", "", fe.path)
            if os.path.normpath(rel) == want:
                return i, fe
        raise OracleError(f"no files section matches {test_path!r}")


def unwrap(test_path: str) -> str:
    p = Path(test_path)
    if p.stem.endswith("__oot_wrapper"):
        return str(p.with_name(p.stem[: -len("__oot_wrapper")] + p.suffix))
    return test_path


def split_variant(variant: str, op: str) -> Tuple[str, Optional[str]]:
    """(base method, first dtype token after the device) per spec section 1."""
    m = stdre.match(r"^(.*)_" + DEVICE + r"((?:_[A-Za-z0-9]+)*)$", variant)
    if not m:
        raise OracleError(f"variant {variant!r} has no _{DEVICE} device part")
    pre, tail = m.group(1), m.group(2)
    mark = tail.split("_")[1] if tail else None
    if op == "-":
        return pre, mark
    fmt = "_" + op.replace(".", "_")
    # rightmost `_<formatted op>` that ends the name or is followed by `_` (variant/params)
    starts = [m.start() for m in stdre.finditer("(?=" + stdre.escape(fmt) + "(?:_|$))", pre)]
    if not starts or starts[-1] == 0:
        raise OracleError(f"op {op!r} not found in {variant!r}")
    return pre[: starts[-1]], mark


# ---------------------------------------------------------------------------
# The oracle
# ---------------------------------------------------------------------------


class Oracle:
    def __init__(self, fw: Framework, configs_dir: str) -> None:
        self.fw = fw
        self.configs_dir = configs_dir
        self.cache: Dict[str, Any] = {}

    def config(self, name: str) -> LoadedConfig:
        path = name if os.path.exists(name) else os.path.join(self.configs_dir, name)
        if path not in self.cache:
            try:
                self.cache[path] = LoadedConfig(self.fw, path)
            except Exception as e:  # pydantic ValidationError, yaml errors, missing file
                self.cache[path] = OracleError(one_line(e))
        got = self.cache[path]
        if isinstance(got, Exception):
            raise got
        return got

    def model_ops_map(self, fe) -> Dict[str, Any]:
        """test_model_ops_v2._build_model_ops_db's unique_name -> entry map (all ops assumed in
        OP_REGISTRY)."""
        out: Dict[str, Any] = {}
        idx = 0
        for entry in fe.tests:
            if MODEL_OPS_TARGET not in entry.names:
                continue
            for ops_item in entry.edits.ops.include:
                out[f"{ops_item.name.replace('.', '_')}__{idx}"] = entry
                idx += 1
        return out

    def fake_class(self, cfg: LoadedConfig, fe) -> type:
        g = cfg.model.global_config
        test_entries, regex_entries = self.fw.utilities._build_test_entry_map(fe)
        op_configs = g.resolved_supported_ops_config()
        attrs = {
            "TEST_ENTRIES": test_entries,
            "REGEX_ENTRIES": regex_entries,
            "UNLISTED_TEST_MODE": fe.unlisted_test_mode,
            "SUPPORTED_OPS_CONFIG": op_configs if op_configs else {},
            "GLOBAL_SUPPORTED_DTYPES": g.resolved_supported_dtypes(),
            "GLOBAL_DTYPE_FORCE_XFAIL": g.resolved_supported_dtypes_force_xfail(),
            "_supported_ops": g.resolved_supported_ops(),
            "_should_run": classmethod(self.fw.should_run),
        }
        return type("OracleOOTTestBase", (), attrs)

    def line_of(self, cfg: LoadedConfig, file_index: int, fe, entry) -> str:
        if entry is None:
            return "unlisted"
        for j, e in enumerate(fe.tests):
            if e is entry:
                return str(cfg.entry_line(file_index, j))
        raise OracleError("resolved entry not found in its section")

    def generation_stage(self, cfg, op: str, mark: Optional[str], candidates) -> Optional[str]:
        """Spec section 6 steps 1-2; returns a drop reason or None."""
        g = cfg.model.global_config
        supported = g.resolved_supported_ops()
        if supported and op not in supported:
            return f"{op} not in supported_ops (assumes the test has at least one listed op)"
        op_cfg = (g.resolved_supported_ops_config() or {}).get(op)
        allowed = op_cfg.resolved_dtypes() if op_cfg is not None else None
        if allowed is not None and mark is not None:
            allowed = set(allowed)
            for e in candidates:
                allowed |= e.edits.dtypes.resolved_include()
            try:
                dt = self.fw.mods["oot_test_matching"].parse_dtype(mark)
            except ValueError:
                return None
            if dt not in allowed:
                return f"{mark} not in {op}'s per-op dtypes (+ candidates' include)"
        return None

    def query(self, config: str, test: str, op: str, test_type: str) -> Tuple[str, str, str]:
        cfg = self.config(config)
        parts = test.split("::")
        if len(parts) != 3:
            raise OracleError(f"test {test!r} is not <path>::<Class>::<variant>")
        path, _cls, variant = parts
        file_index, fe = cfg.section(path)
        base, mark = split_variant(variant, op)
        cls = self.fake_class(cfg, fe)
        self.fw.model_ops_module.model_ops_entry_by_unique_name = self.model_ops_map(fe)

        saved = os.environ.get("TORCH_SPYRE_TEST_TYPE")
        if test_type == "-":
            os.environ.pop("TORCH_SPYRE_TEST_TYPE", None)
        else:
            os.environ["TORCH_SPYRE_TEST_TYPE"] = test_type
        try:
            candidates = self.fw.candidates_fn(cls, base)
            entry = self.fw.resolve_fn(cls, variant, candidates)
            line = self.line_of(cfg, file_index, fe, entry)
            cand_lines = ",".join(self.line_of(cfg, file_index, fe, e) for e in candidates) or "-"
            if op != "-" and base != "test_model_ops_db":
                why = self.generation_stage(cfg, op, mark, candidates)
                if why is not None:
                    return "dropped", line, f"{GEN_NOTE}: {why}"
            enabled, reason, is_xfail, is_strict = self.fw.decide_fn(cls, variant, base, None, entry)
        finally:
            if saved is None:
                os.environ.pop("TORCH_SPYRE_TEST_TYPE", None)
            else:
                os.environ["TORCH_SPYRE_TEST_TYPE"] = saved
        if not enabled:
            mode = "skip" if reason == "Skipped by OOT config" else "dropped"
        elif is_xfail:
            mode = "xfail_strict" if is_strict else "xfail"
        else:
            mode = "mandatory_success"
        note = f"base={base} candidates={cand_lines}" + (f" reason={reason}" if reason else "")
        return mode, line, note

    def answer(self, config: str, test: str, op: str, test_type: str) -> Tuple[str, str, str]:
        try:
            return self.query(config, test, op, test_type)
        except OracleError as e:
            return "ERROR", "-", str(e)
        except Exception as e:  # e.g. regex.error from a pattern that does not compile
            return "ERROR", "-", one_line(e)

    def validate(self, path: str) -> Optional[str]:
        """None when the framework accepts the file, else the reason."""
        try:
            cfg = self.config(path)
            for fe in cfg.model.files:
                _, regex_entries = self.fw.utilities._build_test_entry_map(fe)
                self.fw.utilities._regex_entries_for_name("", regex_entries)  # compiles all
        except OracleError as e:
            return str(e)
        except Exception as e:
            return one_line(e)
        return None


def one_line(e: BaseException) -> str:
    text = f"{type(e).__name__}: {e}"
    return " | ".join(s.strip() for s in text.splitlines() if s.strip())


def read_rows(stream) -> List[List[str]]:
    rows = []
    for raw in stream:
        line = raw.rstrip("\n")
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 4:
            raise SystemExit(f"bad query line (need 4 tab-separated columns): {line!r}")
        rows.append(cols)
    return rows


def self_check(oracle: Oracle, cases: str) -> int:
    with open(cases) as f:
        rows = read_rows(f)
    bad = gen = 0
    for cols in rows:
        config, test, op, tt, mode, line = cols[:6]
        got_mode, got_line, note = oracle.answer(config, test, op, tt)
        if note.startswith(GEN_NOTE):
            gen += 1
        if (got_mode, got_line) != (mode, line):
            bad += 1
            print(f"DISAGREE\t{config}\t{test}\t{op}\t{tt}\texpected {mode} {line}\t"
                  f"oracle {got_mode} {got_line}\t{note}")
    print(f"{len(rows)} cases, {bad} disagreements, {gen} answered by the generation stage "
          f"(spec-applied, not framework code)")
    return 1 if bad else 0


def main(argv: Optional[List[str]] = None) -> int:
    here = Path(__file__).resolve().parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--framework", required=True, help="dir holding tests/oot_framework")
    ap.add_argument("--configs-dir", default=os.environ.get("SPYRE_CONFIGS_DIR", DEFAULT_CONFIGS_DIR),
                    help="where bare config names are looked up")
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--self-check", nargs="?", metavar="CASES",
                      const=str(here.parent / "data" / "config_conformance" / "cases.tsv"))
    mode.add_argument("--validate", nargs="+", metavar="CONFIG")
    ap.add_argument("queries", nargs="?", help="query TSV (default stdin)")
    args = ap.parse_args(argv)

    oracle = Oracle(Framework(args.framework), args.configs_dir)
    if args.self_check:
        return self_check(oracle, args.self_check)
    if args.validate:
        failed = 0
        for path in args.validate:
            why = oracle.validate(path)
            print(f"OK\t{path}" if why is None else f"ERROR\t{path}\t{why}")
            failed += why is not None
        return 1 if failed else 0
    stream = open(args.queries) if args.queries else sys.stdin
    with stream:
        for cols in read_rows(stream):
            print("\t".join(oracle.answer(*cols[:4])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
