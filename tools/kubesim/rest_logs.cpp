// pods/log: container, follow, tailLines, sinceSeconds, sinceTime, timestamps, previous,
// limitBytes, with kubelet's wording for the errors.
#include "kubesim/rest.h"
#include "kubesim/watch.h"

namespace kubesim {

namespace {

int64_t int_param(ApiRequest& req, const std::string& name, int64_t dflt) {
  std::string v = req.param(name);
  if (v.empty()) return dflt;
  try {
    return std::stoll(v);
  } catch (...) {
    throw bad_request("invalid " + name + ": " + v);
  }
}

std::string names_list(const json& containers) {
  std::string s = "[";
  for (size_t i = 0; i < containers.size(); ++i) s += (i ? " " : "") + containers[i].value("name", "");
  return s + "]";
}

}  // namespace

void Api::do_logs(ApiRequest& req) {
  const ApiPath& p = req.path;
  auto pod = m_store.get_shared(*p.rt, p.ns, p.name);
  if (!pod) throw not_found(*p.rt, p.name);
  const json& spec = (*pod)["spec"];
  json containers = spec.value("containers", json::array());
  json inits = spec.value("initContainers", json::array());
  std::string container = req.param("container");
  if (container.empty()) {
    if (containers.size() == 1) {
      container = containers[0].value("name", "");
    } else {
      std::string msg = "a container name must be specified for pod " + p.name + ", choose one of: " + names_list(containers);
      if (!inits.empty()) msg += " or one of the init containers: " + names_list(inits);
      throw bad_request(msg);
    }
  }
  bool known = false;
  for (const auto* list : {&containers, &inits})
    for (const auto& c : *list)
      if (c.value("name", "") == container) known = true;
  if (!known) throw bad_request("container " + container + " is not valid for pod " + p.name);
  bool previous = req.flag("previous");
  if (!previous && !m_logs.exists(p.ns, p.name, container)) {
    std::string reason = "ContainerCreating";
    for (const char* key : {"containerStatuses", "initContainerStatuses"})
      for (const auto& cs : (*pod).value("status", json::object()).value(key, json::array()))
        if (cs.value("name", "") == container && cs.contains("state") && cs["state"].contains("waiting"))
          reason = cs["state"]["waiting"].value("reason", reason);
    if (pod->value("status", json::object()).value("phase", "Pending") == "Pending" &&
        !(*pod)["spec"].contains("nodeName"))
      reason = "ContainerCreating";
    throw bad_request("container \"" + container + "\" in pod \"" + p.name + "\" is waiting to start: " + reason);
  }
  if (previous && m_logs.previous_lines(p.ns, p.name, container).empty())
    throw bad_request("previous terminated container \"" + container + "\" in pod \"" + p.name + "\" not found");

  bool timestamps = req.flag("timestamps");
  bool follow = req.flag("follow") && !previous;
  int64_t tail = int_param(req, "tailLines", -1);
  int64_t since_seconds = int_param(req, "sinceSeconds", -1);
  int64_t limit_bytes = int_param(req, "limitBytes", -1);
  if (since_seconds == 0 || limit_bytes == 0 || tail < -1)
    throw invalid(ResourceType{"", "v1", "PodLogOptions", "", "", true, {}, {}, false}, "",
                  json::array({{{"reason", "FieldValueInvalid"}, {"message", "Invalid value: must be greater than 0"},
                                {"field", since_seconds == 0 ? "sinceSeconds" : limit_bytes == 0 ? "limitBytes" : "tailLines"}}}));
  std::optional<std::chrono::system_clock::time_point> since;
  if (since_seconds > 0) since = m_store.now() - std::chrono::seconds(since_seconds);
  if (!req.param("sinceTime").empty()) {
    since = parse_rfc3339(req.param("sinceTime"));
    if (!since) throw bad_request("invalid sinceTime: " + req.param("sinceTime"));
  }
  // The kubelet writes timestamps with a fraction of nine digits, trailing zeros kept
  // (pkg/kubelet/kuberuntime/logs/logs.go: timeFormatOut = RFC3339NanoFixed).
  auto render = [timestamps](const LogLine& l) {
    return (timestamps ? format_rfc3339_nano(l.time) + " " : std::string()) + l.text + "\n";
  };
  // Following the whole log needs no snapshot: the stream starts at line 0 and sends lines
  // as it reads them, so the first block leaves at once however long the log is.
  const bool whole = follow && !since && tail < 0 && limit_bytes < 0;
  size_t next = 0;
  std::string head;
  if (!whole) {
    auto lines = previous ? m_logs.previous_lines(p.ns, p.name, container) : m_logs.lines(p.ns, p.name, container);
    next = lines.size();
    std::vector<LogLine> selected;
    for (const auto& l : lines)
      if (!since || l.time >= *since) selected.push_back(l);
    if (tail >= 0 && selected.size() > static_cast<size_t>(tail))
      selected.erase(selected.begin(), selected.end() - tail);
    for (const auto& l : selected) head += render(l);
    if (limit_bytes > 0 && head.size() > static_cast<size_t>(limit_bytes))
      head.resize(static_cast<size_t>(limit_bytes));
  }
  if (!follow) {
    req.res.status = 200;
    req.res.set_content(head, "text/plain");
    return;
  }
  disable_compression(req.http);
  int fd = request_socket(req.http);
  int cut_after = req.fault && req.fault->action == "cut" ? std::max(req.fault->lines, 0) : -1;
  LogStore* logs = &m_logs;
  const std::atomic<bool>* stopping = &m_stopping;
  std::string ns = p.ns, name = p.name;
  req.res.status = 200;
  // Lines go out in blocks of up to 64 KiB, as kube-apiserver copies a kubelet's log stream:
  // what is there is sent together, and a block is flushed as soon as no further line is
  // waiting (or before a cut), so a follower sees each line without delay.
  req.res.set_chunked_content_provider("text/plain", [=](size_t, httplib::DataSink& sink) {
    constexpr size_t kBlock = 64 * 1024;
    int sent = 0;
    std::string block;
    bool ok = true;
    auto flush = [&] {
      if (!block.empty() && ok && !sink.write(block.data(), block.size())) ok = false;
      block.clear();
      return ok;
    };
    auto add = [&](std::string_view line) {
      if (cut_after >= 0 && sent >= cut_after) {
        flush();
        return ok = false;
      }
      block.append(line);
      ++sent;
      return block.size() < kBlock || flush();
    };
    size_t start = 0;
    while (start < head.size()) {
      size_t nl = head.find('\n', start);
      size_t end = nl == std::string::npos ? head.size() : nl + 1;
      if (!add(std::string_view(head).substr(start, end - start))) return false;
      start = end;
    }
    logs->follow(ns, name, container, next, [&](const LogLine& l) { return add(render(l)); },
                 [&] { return !flush() || stopping->load() || peer_closed(fd); });
    if (!flush()) return false;
    sink.done();
    return true;
  });
}

}  // namespace kubesim
