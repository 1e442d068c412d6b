// meta.k8s.io/v1 Table output with the columns kube-apiserver's printers produce.
#include "kubesim/rest.h"

namespace kubesim {

namespace {

using Clock = std::chrono::system_clock;

json col(const std::string& name, const std::string& type = "string", int priority = 0,
         const std::string& format = "") {
  return {{"name", name}, {"type", type}, {"format", format}, {"description", ""}, {"priority", priority}};
}

std::string age_of(const json& obj, Clock::time_point now) {
  auto t = parse_rfc3339(obj["metadata"].value("creationTimestamp", ""));
  if (!t) return "<unknown>";
  return human_age(now - *t);
}

std::string str(const json& obj, const std::string& path, const std::string& dflt = "<none>") {
  std::string v = field_value(obj, path);
  return v.empty() ? dflt : v;
}

json pod_cells(const json& pod, Clock::time_point now) {
  const json& st = pod.contains("status") ? pod["status"] : json::object();
  size_t total = pod.contains("spec") && pod["spec"].contains("containers") ? pod["spec"]["containers"].size() : 0;
  size_t ready = 0;
  int64_t restarts = 0;
  std::string reason = st.value("reason", "");
  if (reason.empty()) reason = st.value("phase", "Pending");
  std::optional<Clock::time_point> last_restart;
  for (const auto& cs : st.value("containerStatuses", json::array())) {
    if (cs.value("ready", false)) ++ready;
    restarts += cs.value("restartCount", 0);
    const json& state = cs.contains("state") ? cs["state"] : json::object();
    if (state.contains("waiting") && !state["waiting"].value("reason", "").empty())
      reason = state["waiting"]["reason"];
    else if (state.contains("terminated")) {
      std::string r = state["terminated"].value("reason", "");
      reason = !r.empty() ? r : "ExitCode:" + std::to_string(state["terminated"].value("exitCode", 0));
    }
    if (cs.contains("lastState") && cs["lastState"].contains("terminated"))
      last_restart = parse_rfc3339(cs["lastState"]["terminated"].value("finishedAt", ""));
  }
  if (reason == "Running" && ready < total && st.contains("conditions")) {
    for (const auto& c : st["conditions"])
      if (c.value("type", "") == "Ready" && c.value("status", "") == "True") reason = "Running";
  }
  // printPod (k8s.io/kubernetes pkg/printers/internalversion/printers.go): a pod being
  // deleted is Terminating unless its phase is terminal already.
  const std::string phase = st.value("phase", "");
  if (pod["metadata"].contains("deletionTimestamp") && phase != "Succeeded" && phase != "Failed")
    reason = "Terminating";
  json restarts_cell = restarts;
  if (last_restart)
    restarts_cell = std::to_string(restarts) + " (" + human_age(now - *last_restart) + " ago)";
  return json::array({pod["metadata"].value("name", ""), std::to_string(ready) + "/" + std::to_string(total), reason,
                      restarts_cell, age_of(pod, now), str(pod, "status.podIP"), str(pod, "spec.nodeName"),
                      str(pod, "status.nominatedNodeName"), "<none>"});
}

json node_cells(const json& node, Clock::time_point now) {
  std::string status = "Unknown";
  for (const auto& c : node.value("status", json::object()).value("conditions", json::array()))
    if (c.value("type", "") == "Ready") status = c.value("status", "") == "True" ? "Ready" : "NotReady";
  if (node.value("spec", json::object()).value("unschedulable", false)) status += ",SchedulingDisabled";
  std::string roles;
  const json labels = node["metadata"].value("labels", json::object());
  for (const auto& [k, v] : labels.items()) {
    const std::string pfx = "node-role.kubernetes.io/";
    if (k.rfind(pfx, 0) == 0 && k.size() > pfx.size()) roles += (roles.empty() ? "" : ",") + k.substr(pfx.size());
  }
  std::string internal = "<none>", external = "<none>";
  for (const auto& a : node.value("status", json::object()).value("addresses", json::array())) {
    if (a.value("type", "") == "InternalIP") internal = a.value("address", "");
    if (a.value("type", "") == "ExternalIP") external = a.value("address", "");
  }
  return json::array({node["metadata"].value("name", ""), status, roles.empty() ? "<none>" : roles, age_of(node, now),
                      str(node, "status.nodeInfo.kubeletVersion", ""), internal, external,
                      str(node, "status.nodeInfo.osImage", "<unknown>"),
                      str(node, "status.nodeInfo.kernelVersion", "<unknown>"),
                      str(node, "status.nodeInfo.containerRuntimeVersion", "<unknown>")});
}

std::string last_condition(const json& obj) {
  const json& conds = obj.value("status", json::object()).value("conditions", json::array());
  return conds.empty() ? "" : conds.back().value("type", "");
}

}  // namespace

std::string human_age(Clock::duration d) {
  auto secs = std::chrono::duration_cast<std::chrono::seconds>(d).count();
  if (secs < -1) return "<invalid>";
  if (secs < 0) return "0s";
  auto s = [](int64_t v) { return std::to_string(v); };
  if (secs < 120) return s(secs) + "s";
  int64_t minutes = secs / 60, hours = secs / 3600, days = hours / 24, years = days / 365;
  if (minutes < 10) return secs % 60 == 0 ? s(minutes) + "m" : s(minutes) + "m" + s(secs % 60) + "s";
  if (minutes < 180) return s(minutes) + "m";
  if (hours < 8) return minutes % 60 == 0 ? s(hours) + "h" : s(hours) + "h" + s(minutes % 60) + "m";
  if (hours < 48) return s(hours) + "h";
  if (hours < 24 * 8) return hours % 24 == 0 ? s(days) + "d" : s(days) + "d" + s(hours % 24) + "h";
  if (hours < 24 * 365 * 2) return s(days) + "d";
  if (hours < 24 * 365 * 8) return days % 365 == 0 ? s(years) + "y" : s(years) + "y" + s(days % 365) + "d";
  return s(years) + "y";
}

bool wants_table(const httplib::Request& http) {
  std::string accept = http.get_header_value("Accept");
  return accept.find("as=Table") != std::string::npos;
}

std::string table_for(const ResourceType& rt, const Store::ListResult& list, bool full_object, Clock::time_point now) {
  json cols;
  std::function<json(const json&)> cells;
  const bool core = rt.group.empty();
  if (core && rt.kind == "Pod") {
    cols = {col("Name", "string", 0, "name"), col("Ready"), col("Status"), col("Restarts", "string"), col("Age"),
            col("IP", "string", 1), col("Node", "string", 1), col("Nominated Node", "string", 1),
            col("Readiness Gates", "string", 1)};
    cells = [&](const json& o) { return pod_cells(o, now); };
  } else if (core && rt.kind == "Node") {
    cols = {col("Name", "string", 0, "name"), col("Status"), col("Roles"), col("Age"), col("Version"),
            col("Internal-IP", "string", 1), col("External-IP", "string", 1), col("OS-Image", "string", 1),
            col("Kernel-Version", "string", 1), col("Container-Runtime", "string", 1)};
    cells = [&](const json& o) { return node_cells(o, now); };
  } else if (core && rt.kind == "Namespace") {
    cols = {col("Name", "string", 0, "name"), col("Status"), col("Age")};
    cells = [&](const json& o) {
      return json::array({o["metadata"].value("name", ""), str(o, "status.phase", "Active"), age_of(o, now)});
    };
  } else if (core && rt.kind == "ConfigMap") {
    cols = {col("Name", "string", 0, "name"), col("Data", "integer"), col("Age")};
    cells = [&](const json& o) {
      size_t n = o.value("data", json::object()).size() + o.value("binaryData", json::object()).size();
      return json::array({o["metadata"].value("name", ""), n, age_of(o, now)});
    };
  } else if (rt.group == "kubeflow.org" && (rt.kind == "PyTorchJob" || rt.kind == "TFJob")) {
    cols = {col("Name", "string", 0, "name"), col("State"), col("Age", "date")};
    cells = [&](const json& o) { return json::array({o["metadata"].value("name", ""), last_condition(o), age_of(o, now)}); };
  } else if (rt.group == "trainer.kubeflow.org" && rt.kind == "TrainJob") {
    // The CRD's additionalPrinterColumns (kubeflow/trainer v2.3.0 trainjob_types.go): State is
    // .status.conditions[-1:].type, the last condition's type (no cell without conditions).
    cols = {col("Name", "string", 0, "name"), col("State"), col("Age", "date")};
    cols[1]["description"] = "Custom resource definition column (in JSONPath format): .status.conditions[-1:].type";
    cols[2]["description"] = "Custom resource definition column (in JSONPath format): .metadata.creationTimestamp";
    cells = [&](const json& o) {
      const std::string state = last_condition(o);
      return json::array({o["metadata"].value("name", ""), state.empty() ? json() : json(state), age_of(o, now)});
    };
  } else if (rt.group == "jobset.x-k8s.io" && rt.kind == "JobSet") {
    // jobset v0.12.0 api/jobset/v1alpha2/jobset_types.go printcolumns; a missing value is no cell.
    cols = {col("Name", "string", 0, "name"), col("TerminalState"), col("Restarts"), col("Completed"),
            col("Suspended"), col("Age", "date")};
    cols[1]["description"] = "Final state of JobSet";
    cols[2]["description"] = "Number of restarts";
    cols[3]["description"] = "Custom resource definition column (in JSONPath format): .status.conditions[?(@.type==\"Completed\")].status";
    cols[4]["description"] = "JobSet suspended";
    cols[5]["description"] = "Time this JobSet was created";
    cells = [&](const json& o) {
      const json st = o.value("status", json::object());
      json completed;
      for (const auto& c : st.value("conditions", json::array()))
        if (c.value("type", "") == "Completed") completed = c.value("status", "");
      const json spec = o.value("spec", json::object());
      return json::array({o["metadata"].value("name", ""),
                          st.contains("terminalState") ? st["terminalState"] : json(),
                          st.contains("restarts") ? json(st["restarts"].dump()) : json(), completed,
                          spec.contains("suspend") ? json(spec["suspend"].dump()) : json(), age_of(o, now)});
    };
  } else if (rt.group == "batch.volcano.sh" && rt.kind == "Job") {
    cols = {col("Name", "string", 0, "name"), col("STATUS"), col("minAvailable", "integer"), col("RUNNINGS", "integer"),
            col("AGE", "date"), col("QUEUE", "string", 1)};
    cells = [&](const json& o) {
      const json& st = o.value("status", json::object());
      return json::array({o["metadata"].value("name", ""), field_value(o, "status.state.phase"),
                          st.contains("minAvailable") ? st["minAvailable"] : json(),
                          st.contains("running") ? st["running"] : json(), age_of(o, now),
                          field_value(o, "spec.queue")});
    };
  } else if (rt.group == "apiextensions.k8s.io" && rt.kind == "CustomResourceDefinition") {
    // kube-apiserver's default table convertor for CRDs: NAME, CREATED AT.
    cols = {col("Name", "string", 0, "name"), col("Created At", "date")};
    cells = [&](const json& o) {
      return json::array({o["metadata"].value("name", ""), o["metadata"].value("creationTimestamp", "")});
    };
  } else {
    cols = {col("Name", "string", 0, "name"), col("Age", rt.group.find('.') != std::string::npos ? "date" : "string")};
    cells = [&](const json& o) { return json::array({o["metadata"].value("name", ""), age_of(o, now)}); };
  }
  json rows = json::array();
  for (const auto& item : list.items) {
    json row = {{"cells", cells(*item)}};
    if (full_object) {
      row["object"] = *item;
    } else {
      row["object"] = {{"kind", "PartialObjectMetadata"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", (*item)["metadata"]}};
    }
    rows.push_back(std::move(row));
  }
  json meta = {{"resourceVersion", std::to_string(list.resource_version)}};
  if (!list.continue_token.empty()) meta["continue"] = list.continue_token;
  if (list.remaining) meta["remainingItemCount"] = *list.remaining;
  json t = {{"kind", "Table"}, {"apiVersion", "meta.k8s.io/v1"}, {"metadata", meta}, {"columnDefinitions", cols},
            {"rows", rows}};
  return t.dump();
}

}  // namespace kubesim
