// Helpers for the submit tests: parse a real command line with the real flag registration,
// render it, validate every object against the real schemas, compare with golden files.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "render/templates.h"
#include "submit/options.h"
#include "submit/plan.h"

namespace trainctl::testing {

// The --image flag of tests whose image does not matter.
inline const std::string kImage = "--image=pytorch/pytorch:2.3";

// Parses the arguments after `trainctl submit KIND` (a submit command: pytorch, mpi...) with
// the flags its kind declares, registered by the command's add_submit_flags.
submit::SubmitOptions parse_submit(const std::string& kind, const std::vector<std::string>& args);

// make_plan + build_manifests.
std::vector<nlohmann::json> render_submit(const submit::SubmitOptions& options,
                                          const std::string& ns = "default",
                                          const render::TemplateSet& templates = render::TemplateSet());

// build_manifests of a plan (after a test changed it) with the built-in templates.
std::vector<nlohmann::json> render_submit_plan(const submit::Plan& plan);

// parse_submit + render_submit + require_valid.
std::vector<nlohmann::json> submit_objects(const std::string& kind, const std::vector<std::string>& args);

// Every object passes the real CRD / OpenAPI schemas in Strict mode (Catch2 REQUIRE).
void require_valid(const std::vector<nlohmann::json>& objects);

// Compares with tests/golden/submit/NAME.yaml after parsing (key order does not matter);
// UPDATE_GOLDEN=1 rewrites the file instead.
void check_golden(const std::string& name, const std::vector<nlohmann::json>& objects);

// The first object of `kind` (e.g. "Deployment"); fails the test when there is none.
const nlohmann::json& object_of_kind(const std::vector<nlohmann::json>& objects, const std::string& kind);

// The pod spec of a replica / task: PyTorch Master|Worker, TF PS|Worker|Chief|Evaluator, MPI
// Launcher|Worker, Volcano task name, batch Job "" .
const nlohmann::json& pod_spec(const nlohmann::json& job, const std::string& replica);
const nlohmann::json& main_container(const nlohmann::json& job, const std::string& replica);
// The value of env variable NAME in a container (null when absent).
nlohmann::json env_value(const nlohmann::json& container, const std::string& name);

}  // namespace trainctl::testing
