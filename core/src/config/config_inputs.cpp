// The input specs of edits.modules.include and edits.ops.include items
// (torch-spyre/torch-spyre tests/oot_framework/oot_test_config_models.py
// @1591b63f: InputsEdits, _parse_input_arg, InputTensorSpec): what pydantic
// refuses is an error, and a module's floating tensor-spec dtypes are its
// resolved_input_dtypes.
#include "config_reader.h"

#include "relayhud/config/spyre_names.h"

#include <string>

namespace relayhud::config {

// ModulesNamedItem (oot_test_config_models.py@1591b63f): name, module_path,
// and input specs whose floating dtypes decide the module's dtype variants.
void ConfigReader::readModuleItems(YNode list, TestEntry& entry)
{
    if (!list || !list.isSequence())
        return; // readIncludeExclude has said so
    for (const YNode item : list.items()) {
        if (!item.isMap())
            continue;
        ModuleItem module{item["name"].scalar(), nodePos(item), false, {}};
        module.hasModulePath = item["module_path"] && !item["module_path"].isNull();
        std::set<std::string> dtypes;
        if (item["constructor_inputs"])
            readInputs(item["constructor_inputs"], "constructor_inputs", &dtypes);
        // `forward_inputs or sample_inputs_func`: the legacy key only without the new one.
        if (const YNode forward = item["forward_inputs"]; forward && !forward.isNull()) {
            if (forward.isSequence())
                for (const YNode call : forward.items())
                    readInputs(call, "forward_inputs", &dtypes);
            else
                readInputs(forward, "forward_inputs", &dtypes);
            if (item["sample_inputs_func"])
                readInputs(item["sample_inputs_func"], "sample_inputs_func", nullptr);
        } else if (item["sample_inputs_func"]) {
            readInputs(item["sample_inputs_func"], "sample_inputs_func", &dtypes);
        }
        module.inputDtypes.assign(dtypes.begin(), dtypes.end());
        if (module.hasModulePath)
            useFeature(FrameworkFeature::ModuleInputDtypes, item);
        entry.moduleItems.push_back(std::move(module));
    }
}

// OpsNamedItem.sample_inputs_func: the same input args as modules.
void ConfigReader::readOpItems(YNode list)
{
    if (!list || !list.isSequence())
        return;
    for (const YNode item : list.items())
        if (item.isMap() && item["sample_inputs_func"])
            readInputs(item["sample_inputs_func"], "sample_inputs_func", nullptr);
}

// InputsEdits: `args` (a list of input args) and `kwargs` (a mapping whose
// spec-shaped values are input args too, InputsEdits.resolved_kwargs).
void ConfigReader::readInputs(YNode node, std::string_view what, std::set<std::string>* dtypes)
{
    if (!node || node.isNull())
        return;
    if (!node.isMap()) {
        add(Severity::Error, node,
            std::string(what)
                + " must be a mapping with args and kwargs; torch-spyre's "
                  "framework refuses the whole file otherwise");
        return;
    }
    if (const YNode args = node["args"]; args && !args.isNull()) {
        if (!args.isSequence())
            add(Severity::Error, args, std::string(what) + ".args must be a list");
        else
            for (const YNode arg : args.items())
                readInputArg(arg, what, dtypes);
    }
    if (const YNode kwargs = node["kwargs"]; kwargs && kwargs.isMap())
        for (const auto& pair : kwargs.pairs()) {
            const YNode value = pair.second;
            // Only spec-shaped values are built; the rest pass through as values.
            if (value.isMap()
                && (value["tensor"] || value["tensor_list"] || value["cache"]
                    || value["module_path"] || value["config_path"] || value["model_id"]))
                readInputArg(value, what, dtypes);
        }
}

// _parse_input_arg: the first key of tensor, tensor_list, cache, module_path,
// config_path/model_id, value, py decides the kind; none fails the file.
// Only tensor and tensor_list specs count for dtypes (_dtypes_from_input_arg).
void ConfigReader::readInputArg(YNode arg, std::string_view what, std::set<std::string>* dtypes)
{
    if (!arg.isMap()) {
        add(Severity::Error, arg,
            "each " + std::string(what)
                + " argument must be a mapping; torch-spyre's framework refuses the whole file");
        return;
    }
    if (arg["tensor"]) {
        readTensorSpec(arg["tensor"], what, dtypes);
    } else if (const YNode list = arg["tensor_list"]) {
        if (!list.isSequence())
            add(Severity::Error, list, "tensor_list must be a list of tensor specs");
        else
            for (const YNode spec : list.items())
                readTensorSpec(spec, what, dtypes);
    } else if (const YNode cache = arg["cache"]) {
        useFeature(FrameworkFeature::InputArgKinds, arg, "cache");
        if (!cache.isMap() || !cache["cache_path"] || !cache["layer_idx"] || !cache["key"]
            || !cache["value"]) {
            add(Severity::Error, cache,
                "a cache argument needs cache_path, layer_idx, key and value; torch-spyre's "
                "framework refuses the whole file otherwise");
            return;
        }
        readTensorSpec(cache["key"], what, nullptr);
        readTensorSpec(cache["value"], what, nullptr);
    } else if (arg["module_path"]) {
        useFeature(FrameworkFeature::InputArgKinds, arg, "module_path");
    } else if (arg["config_path"] || arg["model_id"]) {
        useFeature(FrameworkFeature::InputArgKinds, arg,
                   arg["model_id"] ? "model_id" : "config_path");
    } else if (!arg["value"] && !arg["py"]) {
        add(Severity::Error, arg,
            "an input argument needs one of tensor, tensor_list, cache, module_path, "
            "config_path, model_id, value or py; torch-spyre's framework refuses the whole "
            "file otherwise");
    }
}

// InputTensorSpec forbids unknown keys and needs a shape and a known dtype
// ("torch." prefix allowed).
void ConfigReader::readTensorSpec(YNode spec, std::string_view what, std::set<std::string>* dtypes)
{
    if (!checkMap(spec, std::string(what) + " tensor spec",
                  {"shape", "dtype", "device", "init", "init_args", "stride", "storage_offset",
                   "device_layout"},
                  Severity::Error))
        return;
    if (!spec["shape"] || !spec["dtype"]) {
        add(Severity::Error, spec, "a tensor spec needs shape and dtype");
        return;
    }
    std::string_view dtype = spec["dtype"].scalar();
    if (dtype.rfind("torch.", 0) == 0)
        dtype.remove_prefix(6);
    if (!isConfigDtypeName(dtype)) {
        checkDtype(std::string(dtype), spec["dtype"]);
        return;
    }
    const std::string_view canonical = canonicalDtype(dtype);
    if (dtypes
        && (canonical == "float16" || canonical == "float32" || canonical == "float64"
            || canonical == "bfloat16"))
        dtypes->insert(std::string(canonical));
}

} // namespace relayhud::config
