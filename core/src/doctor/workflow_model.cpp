// Reading a workflow's YAML into the doctor's model (workflow_model.h).
#include "doctor/workflow_model.h"

#include "relayhud/yaml/yaml_tree.h"

namespace relayhud::doctor {
namespace {

using yaml::YNode;

std::size_t lineOf(YNode node) { return node ? node.line() + 1 : 0; }

Text textOf(YNode node)
{
    if (!node)
        return {};
    return {node.scalar(), lineOf(node)};
}

// `permissions:` as a scalar (write-all, read-all) or a map of scopes.
Permissions readPermissions(YNode node, std::size_t keyLine)
{
    Permissions out;
    if (!node)
        return out;
    out.present = true;
    out.line = keyLine;
    if (node.isScalar())
        out.idTokenWrite = node.scalar() == "write-all";
    else if (node.isMap())
        out.idTokenWrite = node["id-token"].scalar() == "write";
    return out;
}

// `concurrency:` as a group string or a map with `group`.
Text readConcurrency(YNode node)
{
    if (!node)
        return {};
    if (node.isMap()) {
        Text group = textOf(node["group"]);
        if (!group.present())
            group.line = lineOf(node);
        return group;
    }
    return textOf(node);
}

// The legs a literal matrix makes: the product of its lists (include and
// exclude aside), or the include list alone; 1 when an expression builds it.
std::size_t matrixLegs(YNode matrix)
{
    if (!matrix.isMap())
        return 1;
    std::size_t legs = 1;
    bool lists = false;
    for (const auto& [key, value] : matrix.pairs()) {
        if (key.scalar() == "include" || key.scalar() == "exclude" || !value.isSequence())
            continue;
        lists = true;
        legs *= std::max<std::size_t>(value.items().size(), 1);
    }
    if (const YNode include = matrix["include"]; include.isSequence() && !lists)
        legs = std::max<std::size_t>(include.items().size(), 1);
    return legs;
}

Step readStep(YNode node)
{
    Step step;
    step.line = lineOf(node);
    step.id = node["id"].scalar();
    step.name = node["name"].scalar();
    step.uses = textOf(node["uses"]);
    step.run = textOf(node["run"]);
    step.condition = textOf(node["if"]);
    step.continueOnError = node["continue-on-error"].scalar() == "true";
    if (const YNode with = node["with"]; with.isMap())
        for (const auto& [key, value] : with.pairs())
            step.with.emplace(key.scalar(), Text{value.scalar(), lineOf(value)});
    return step;
}

Job readJob(const std::string& key, YNode keyNode, YNode node)
{
    Job job;
    job.key = key;
    job.line = lineOf(keyNode);
    for (const auto& [k, v] : node.pairs())
        if (k.scalar() == "permissions")
            job.permissions = readPermissions(v, lineOf(k));
    job.timeoutMinutes = textOf(node["timeout-minutes"]);
    job.concurrency = readConcurrency(node["concurrency"]);
    job.usesWorkflow = textOf(node["uses"]);
    if (const YNode matrix = node["strategy"]["matrix"]) {
        job.matrix = true;
        job.matrixLine = lineOf(matrix);
        job.matrixLegs = matrixLegs(matrix);
    }
    if (const YNode steps = node["steps"]; steps.isSequence())
        for (const YNode step : steps.items())
            if (step.isMap())
                job.steps.push_back(readStep(step));
    return job;
}

void readTriggers(YNode key, YNode on, Workflow& out)
{
    out.onLine = lineOf(key);
    auto trigger = [&](const std::string& name, YNode keyNode, YNode value) {
        if (name == "schedule")
            out.schedule = true;
        else if (name == "workflow_call")
            out.workflowCall = true;
        else if (name == "repository_dispatch") {
            out.repositoryDispatch = true;
            out.dispatchLine = lineOf(keyNode);
            if (const YNode types = value["types"]) {
                out.dispatchTypesGiven = true;
                if (types.isSequence())
                    for (const YNode type : types.items())
                        out.dispatchTypes.push_back(textOf(type));
                else
                    out.dispatchTypes.push_back(textOf(types));
            }
        }
    };
    if (on.isScalar())
        trigger(on.scalar(), on, {});
    else if (on.isSequence())
        for (const YNode item : on.items())
            trigger(item.scalar(), item, {});
    else if (on.isMap())
        for (const auto& [name, value] : on.pairs())
            trigger(name.scalar(), name, value);
}

} // namespace

bool Step::isCallback() const
{
    const std::string_view used = uses.value;
    return used.starts_with(kCallbackAction) && used.size() > kCallbackAction.size()
           && used[kCallbackAction.size()] == '@';
}

std::string Step::callbackRef() const { return uses.value.substr(kCallbackAction.size() + 1); }

const Text* Step::input(std::string_view key) const
{
    const auto it = with.find(key);
    return it == with.end() || it->second.value.empty() ? nullptr : &it->second;
}

std::string Step::status() const
{
    const Text* status = input("status");
    return status ? status->value : std::string();
}

bool Step::selfReport() const { return input("event-type") != nullptr; }

std::string Step::label() const
{
    if (!name.empty())
        return "'" + name + "'";
    if (!id.empty())
        return "step " + id;
    return "the step at line " + std::to_string(line);
}

Result<Workflow> readWorkflow(std::string_view text)
{
    auto doc = yaml::parseYaml(text);
    if (!doc)
        return doc.error();
    const YNode root = doc->root();
    if (!root.isMap())
        return makeError("not a workflow: the document is not a YAML map");
    Workflow out;
    out.name = root["name"].scalar();
    bool hasOn = false;
    for (const auto& [key, value] : root.pairs()) {
        const std::string& name = key.scalar();
        // YAML 1.1 readers take a bare `on` for true; GitHub reads the key.
        if (name == "on" || name == "true") {
            hasOn = true;
            readTriggers(key, value, out);
        } else if (name == "permissions") {
            out.permissions = readPermissions(value, lineOf(key));
        } else if (name == "concurrency") {
            out.concurrency = readConcurrency(value);
        }
    }
    const YNode jobs = root["jobs"];
    if (!hasOn || !jobs.isMap())
        return makeError("not a workflow: it has no `on:` triggers or no `jobs:` map");
    for (const auto& [key, value] : jobs.pairs())
        if (value.isMap())
            out.jobs.push_back(readJob(key.scalar(), key, value));
    return out;
}

} // namespace relayhud::doctor
