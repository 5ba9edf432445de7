// Spec section 5.2-6 for one variant (torch-spyre tests/oot_framework/ @539fd3b0).
#include "resolver_steps.h"

#include <algorithm>

namespace relayhud::config {
namespace {

bool containsDtype(const std::vector<std::string>& names, std::string_view dtype)
{
    return std::any_of(names.begin(), names.end(),
                       [dtype](const std::string& n) { return canonicalDtype(n) == dtype; });
}

std::string joined(const std::vector<std::string>& names)
{
    std::string out;
    for (const std::string& name : names)
        out += (out.empty() ? "" : ", ") + name;
    return out;
}

// The last supported_ops item of that name: the framework builds a dict by
// name (oot_test_config_models.py resolved_supported_ops_config). A mark
// meets it through the sanitised spelling.
const NamedOption* supportedOp(const Resolver::Globals& globals, std::string_view name,
                               bool sanitized)
{
    if (!sanitized) {
        const auto it = globals.opsByName.find(name);
        return it == globals.opsByName.end() ? nullptr : it->second;
    }
    const auto it = isPlainOp(name) ? globals.opsBySanitized.find(name)
                                    : globals.opsBySanitized.find(sanitizedOp(name));
    return it == globals.opsBySanitized.end() ? nullptr : it->second;
}

} // namespace

ResolveSteps::ResolveSteps(const OutcomeConfig& config, const Resolver::Globals& globals,
                           std::size_t fileIndex, const VariantQuery& query,
                           const ResolveContext& context, bool explain, Resolution& out)
    : m_config(config), m_globals(globals), m_file(config.files[fileIndex]), m_query(query),
      m_context(context), m_explain(explain),
      m_variant(parseVariantName(query.method, query.ops, context.device)), m_out(out)
{
    m_out.fileIndex = fileIndex;
    m_out.baseMethod = std::move(m_variant.base); // base() reads it from there
    m_out.op = m_variant.op;
    if (const auto dtype = dtypeFromVariantName(query.method))
        m_out.dtype = std::string(*dtype);
}

void ResolveSteps::useUntrimmedBase()
{
    m_out.baseMethod = m_variant.untrimmedBase;
    m_frameworkOp.reset();
}

// The sentences cost more than the decision: made only when explaining.
template <typename Make>
void ResolveSteps::step(Make&& make)
{
    if (m_explain)
        m_out.steps.push_back(make());
}

void ResolveSteps::note(std::string text)
{
    step([&] { return std::string("note: " + text); });
    m_out.notes.push_back(std::move(text));
}

void ResolveSteps::drop(DropStep step, std::string reason)
{
    m_out.outcome = Outcome::Dropped;
    m_out.droppedBy = step;
    this->step([&] { return "dropped: " + reason; });
    m_out.dropReason = std::move(reason);
}

const std::optional<std::string>& ResolveSteps::frameworkOp()
{
    if (!m_frameworkOp)
        m_frameworkOp = frameworkOpName(m_query.method, m_out.baseMethod, m_context.device);
    return *m_frameworkOp;
}

const TestEntry* ResolveSteps::entry() const
{
    return m_out.entryIndex ? &m_file.tests[*m_out.entryIndex] : nullptr;
}

std::string ResolveSteps::entryAt(std::size_t entry) const
{
    return "the entry at " + lineText(m_file.tests[entry].pos);
}

void ResolveSteps::run(const std::vector<Candidate>& candidates, const Resolver::Section& section)
{
    if (m_explain) {
        std::string where = "file section " + m_file.path + " (" + lineText(m_file.pos) + ")";
        if (!m_query.file.empty() && unwrapOotPath(m_query.file) != m_query.file)
            where += ", " + m_query.file + " being run_test.sh's wrapper of it";
        step([&] { return std::string(where); });
        std::string base = "base method " + m_out.baseMethod;
        if (!m_variant.op.empty())
            base += " (op " + m_variant.op + " cut from the name)";
        base +=
            m_out.dtype ? "; dtype read from the name: " + *m_out.dtype : "; no dtype in the name";
        step([&] { return std::string(base); });
        for (const std::string& bad : section.invalid)
            note("torch-spyre's framework fails collecting this file: " + bad);
    }
    choose(candidates, section);
    m_out.finalMode = m_out.configMode;
    m_out.outcome = outcomeOf(m_out.configMode);
    if (generated(candidates, section) && moduleDtypeGenerated() && labelsKeep() && dtypeKeeps()
        && opKeeps()) {
        forceXfail();
        m_out.outcome = outcomeOf(m_out.finalMode);
        step([&] {
            return std::string(m_out.finalMode == Mode::Skip
                                   ? std::string("mode skip: deleted before collection")
                                   : std::string("runs as ") + modeName(m_out.finalMode));
        });
    }
}

// Spec 5: one candidate decides alone; with several, the dtype-aware passes
// of _select_entry_for_variant (oot_test_utilities.py:344-393). Before them,
// a test_model_ops_db variant is looked up by its op (321-341).
void ResolveSteps::choose(const std::vector<Candidate>& candidates,
                          const Resolver::Section& section)
{
    if (m_explain)
        explainCandidates(candidates);
    if (candidates.empty()) {
        m_out.decision = Decision::Unlisted;
        m_out.configMode = m_file.effectiveUnlistedMode();
        step([&] {
            return std::string(std::string("no candidate: unlisted_test_mode ")
                               + modeName(m_out.configMode)
                               + (m_file.unlistedMode ? " (" + lineText(m_file.pos) + " section)"
                                                      : " (not set: the framework's default)"));
        });
        return;
    }
    if (decidedByModelOp(section))
        return;
    std::string why;
    const Candidate& chosen = pick(candidates, section, why);
    m_out.decision = chosen.regex ? Decision::Regex : Decision::Exact;
    m_out.entryIndex = chosen.entry;
    m_out.nameIndex = chosen.name;
    m_out.configMode = m_file.tests[chosen.entry].effectiveMode();
    const TestEntry& decider = m_file.tests[chosen.entry];
    step([&] {
        return std::string("decides: " + entryAt(chosen.entry) + " (" + why + "), mode "
                           + (decider.mode ? std::string(modeName(*decider.mode)) + " ("
                                                 + lineText(decider.modePos) + ")"
                                           : std::string("mandatory_success (no mode key)")));
    });
}

void ResolveSteps::explainCandidates(const std::vector<Candidate>& candidates)
{
    for (const Candidate& c : candidates) {
        const NameItem& item = m_file.tests[c.entry].names[c.name];
        step([&] {
            return std::string(
                std::string(c.regex ? "candidate (regex fullmatches): '" : "candidate (exact): '")
                + item.name + "' at " + lineText(item.pos) + ", " + entryAt(c.entry) + ", mode "
                + modeName(m_file.tests[c.entry].effectiveMode()));
        });
    }
}

// A model op listed in an entry's edits.ops.include: that entry decides.
bool ResolveSteps::decidedByModelOp(const Resolver::Section& section)
{
    if (!m_variant.modelOps)
        return false;
    const auto it = section.modelOps.find(m_variant.modelOpsKey);
    if (it == section.modelOps.end())
        return false;
    m_out.decision = Decision::OpIndex;
    m_out.entryIndex = it->second;
    m_out.configMode = m_file.tests[it->second].effectiveMode();
    step([&] {
        return std::string("model op " + m_variant.modelOpsKey + " is an edits.ops.include item of "
                           + entryAt(it->second) + ": that entry decides");
    });
    return true;
}

// Among several candidates: the first whose dtypes hold the variant's, else
// the first with no dtype filter, else the first; `why` says which (when
// explaining).
const Candidate& ResolveSteps::pick(const std::vector<Candidate>& candidates,
                                    const Resolver::Section& section, std::string& why) const
{
    const auto because = [&](const Candidate& c, std::string text) -> const Candidate& {
        if (m_explain)
            why = std::move(text);
        return c;
    };
    if (candidates.size() == 1)
        return because(candidates.front(), "the only candidate");
    if (m_out.dtype)
        for (const Candidate& c : candidates)
            if (const auto& set = section.entryDtypes[c.entry];
                set && std::find(set->begin(), set->end(), *m_out.dtype) != set->end())
                return because(c, "the first candidate whose dtypes (" + joined(*set) + ") include "
                                      + *m_out.dtype);
    for (const Candidate& c : candidates)
        if (!section.entryDtypes[c.entry])
            return because(c, "the first candidate with no dtype filter");
    return because(candidates.front(),
                   m_out.dtype ? "no candidate's dtypes hold " + *m_out.dtype
                                     + " and each filters dtypes: the first candidate"
                               : std::string("no dtype in the name, and each candidate filters "
                                             "dtypes: the first candidate"));
}

// Spec 6.1-6.2: what @ops generates at all (oot_upstream_patcher.py:301-433,
// oot_test_parsing.py:290-317). A reported variant was generated, so for it
// these are notes.
bool ResolveSteps::generated(const std::vector<Candidate>& candidates,
                             const Resolver::Section& section)
{
    const GlobalSection& global = m_config.global;
    if (m_variant.op.empty() || global.supportedOps.empty())
        return true;
    DropStep step = DropStep::None;
    const NamedOption* listed = supportedOp(m_globals, m_variant.op, true);
    if (!listed) {
        // _OOTOpListPatcher keeps every op when none of the test's is listed;
        // test_model_ops_db's ops are the generated "<name>__<n>" of this section.
        bool anyListed = !m_variant.modelOps;
        for (const auto& [key, entryIndex] : section.modelOps)
            anyListed = anyListed || supportedOp(m_globals, key, true) != nullptr;
        if (anyListed)
            step = DropStep::SupportedOps;
    } else if (!listed->dtypes.empty() && m_out.dtype) {
        // The op's dtypes and those its candidate entries include.
        bool allowed = containsDtype(listed->dtypes, *m_out.dtype);
        for (const Candidate& c : candidates)
            allowed = allowed || containsDtype(m_file.tests[c.entry].dtypes.include, *m_out.dtype);
        if (!allowed)
            step = DropStep::OpDtypes;
    }
    if (step == DropStep::None)
        return true;
    // The sentence costs more than the decision: made only when it is kept.
    auto why = [&] {
        if (step == DropStep::SupportedOps)
            return "op " + m_variant.op
                   + " is not in global supported_ops (assuming the test has at least one "
                     "listed op; the framework keeps all of them otherwise)";
        std::vector<std::string> dtypes = listed->dtypes;
        for (const Candidate& c : candidates)
            for (const std::string& d : m_file.tests[c.entry].dtypes.include)
                dtypes.push_back(d);
        return "supported_ops gives op " + listed->name + " the dtypes " + joined(dtypes) + " ("
               + lineText(listed->pos) + "), not " + *m_out.dtype;
    };
    if (m_query.observed) {
        if (m_explain)
            note("the report has it although " + why());
        return true;
    }
    drop(step, "not generated: " + why());
    return false;
}

// An @modules variant of a module an entry of the section registers
// (edits.modules.include with a module_path; names starting "nn." are
// module_db's own, which the framework does not register again) is generated
// only in that module's dtypes: its tensor specs' floating dtypes in later
// frameworks, float32 and float16 up to 2026-07-01. The variant names the
// module as `_<name with . as _>_<device>`.
bool ResolveSteps::moduleDtypeGenerated()
{
    if (!m_out.dtype)
        return true;
    const std::string device = "_" + m_context.device;
    for (const TestEntry& e : m_file.tests)
        for (const ModuleItem& item : e.moduleItems) {
            if (!item.hasModulePath || item.name.empty() || item.name.rfind("nn.", 0) == 0)
                continue;
            std::string formatted = item.name;
            std::replace(formatted.begin(), formatted.end(), '.', '_');
            const std::string key = "_" + formatted + device;
            const std::size_t at = m_query.method.find(key);
            const std::size_t after = at + key.size();
            if (at == std::string::npos
                || (after < m_query.method.size() && m_query.method[after] != '_'))
                continue;
            const std::vector<std::string> dtypes =
                registeredModuleDtypes(item, m_context.frameworkAsOf);
            if (std::find(dtypes.begin(), dtypes.end(), *m_out.dtype) != dtypes.end())
                return true;
            const std::string why =
                "module " + item.name + " (" + lineText(item.pos) + ") is generated only in "
                + joined(dtypes)
                + (item.inputDtypes.empty()
                           || !frameworkHas(m_context.frameworkAsOf,
                                            FrameworkFeature::ModuleInputDtypes)
                       ? std::string()
                       : std::string(", the floating dtypes of its tensor specs"))
                + ", not " + *m_out.dtype;
            if (m_query.observed) {
                note("the report has it although " + why);
                return true;
            }
            drop(DropStep::ModuleDtypes, "not generated: " + why);
            return false;
        }
    return true;
}

// Spec 6.3 (oot_test_base_common.py:374-387).
bool ResolveSteps::labelsKeep()
{
    const TestEntry* decider = entry();
    if (!decider || decider->labels.empty())
        return true;
    if (!frameworkHas(m_context.frameworkAsOf, FrameworkFeature::Labels)) {
        note("the entry's labels (" + joined(decider->labels)
             + ") do not apply: labels exist only in the "
             + frameworkVersionText(FrameworkFeature::Labels) + ", and the framework as of "
             + m_context.frameworkAsOf->iso + " ignores the key");
        return true;
    }
    const std::string type = m_context.testType.value_or("full");
    if (type.empty() || type == "full" || type.rfind("suite_", 0) == 0
        || std::find(decider->labels.begin(), decider->labels.end(), type)
               != decider->labels.end()) {
        step([&] {
            return std::string("labels " + joined(decider->labels) + " allow TORCH_SPYRE_TEST_TYPE="
                               + (m_context.testType ? type : "(unset: full)"));
        });
        return true;
    }
    drop(DropStep::Labels, "TORCH_SPYRE_TEST_TYPE=" + type + " is not among the entry's labels ("
                               + joined(decider->labels) + ")");
    return false;
}

// Spec 6.4 (oot_test_base_common.py:389-414).
bool ResolveSteps::dtypeKeeps()
{
    if (!m_out.dtype)
        return true;
    const std::string& dtype = *m_out.dtype;
    const TestEntry* decider = entry();
    if (decider && containsDtype(decider->dtypes.exclude, dtype)) {
        drop(DropStep::Dtype, "dtype " + dtype + " is excluded by " + entryAt(*m_out.entryIndex));
        return false;
    }
    if (decider && containsDtype(decider->dtypes.include, dtype)) {
        step([&] {
            return std::string("dtype " + dtype + " is in the entry's edits.dtypes.include");
        });
        return true;
    }
    if (m_globals.dtypes.empty())
        return true;
    if (std::find(m_globals.dtypes.begin(), m_globals.dtypes.end(), dtype)
        != m_globals.dtypes.end()) {
        step([&] { return std::string("dtype " + dtype + " is in global supported_dtypes"); });
        return true;
    }
    drop(DropStep::Dtype, "dtype " + dtype + " is neither in global supported_dtypes"
                              + (decider ? std::string(" nor in the entry's edits.dtypes.include")
                                         : std::string(" (an unlisted test sees only those)")));
    return false;
}

// Spec 6.5 (oot_test_base_common.py:419-433): by name or "<name>_" prefix.
bool ResolveSteps::opKeeps()
{
    const TestEntry* decider = entry();
    if (!decider || decider->ops.exclude.empty() || !frameworkOp())
        return true;
    const std::string& op = *frameworkOp();
    for (const std::string& excluded : decider->ops.exclude)
        if (op == excluded || op.rfind(excluded + "_", 0) == 0) {
            if (!frameworkHas(m_context.frameworkAsOf, FrameworkFeature::OpsExcludeRule)) {
                note("op " + op + " is in the entry's edits.ops.exclude (" + excluded + "), but "
                     + std::string(kOpsExcludeNotEnforced) + ": the framework as of "
                     + m_context.frameworkAsOf->iso + " runs it");
                return true;
            }
            drop(DropStep::OpExclude, "op " + op + " is excluded by " + entryAt(*m_out.entryIndex)
                                          + " (edits.ops.exclude " + excluded + ")");
            if (!m_context.frameworkAsOf)
                step([&] {
                    return "note: " + std::string(kOpsExcludeNotEnforced)
                           + ": a run on an older framework ran this variant";
                });
            return false;
        }
    step([&] { return std::string("op " + op + " is not in the entry's edits.ops.exclude"); });
    return true;
}

// Spec 6.6-6.7 (oot_test_base_common.py:435-446): only mandatory_success
// changes, to xfail.
void ResolveSteps::forceXfail()
{
    if (m_out.finalMode != Mode::MandatorySuccess)
        return;
    const NamedOption* opOption = nullptr;
    if (m_globals.anyOpForcesXfail && frameworkOp())
        opOption = supportedOp(m_globals, *frameworkOp(), false);
    if (opOption && opOption->forceXfail) {
        m_out.finalMode = Mode::Xfail;
        step([&] {
            return std::string("force_xfail on op " + opOption->name + " ("
                               + lineText(opOption->pos) + ") turns mandatory_success into xfail");
        });
        return;
    }
    if (!m_out.dtype
        || std::find(m_globals.forceXfailDtypes.begin(), m_globals.forceXfailDtypes.end(),
                     *m_out.dtype)
               == m_globals.forceXfailDtypes.end())
        return;
    for (const NamedOption& option : m_config.global.supportedDtypes)
        if (option.forceXfail && canonicalDtype(option.name) == *m_out.dtype) {
            m_out.finalMode = Mode::Xfail;
            step([&] {
                return std::string("force_xfail on dtype " + option.name + " ("
                                   + lineText(option.pos) + ") turns mandatory_success into xfail");
            });
            return;
        }
}

} // namespace relayhud::config
