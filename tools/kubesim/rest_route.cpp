// Request routing: parses /api and /apis paths and dispatches by verb.
#include "kubesim/rest.h"

#include "yaml/read.h"

namespace kubesim {

namespace {

std::vector<std::string> split_path(const std::string& p) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start < p.size()) {
    size_t s = p.find('/', start);
    if (s == std::string::npos) s = p.size();
    if (s > start) out.push_back(p.substr(start, s - start));
    start = s + 1;
  }
  return out;
}

StatusError no_resource() {
  return StatusError(404, "NotFound", "the server could not find the requested resource", json::object());
}

// Fills path from the segments after /api/v1 or /apis/G/V.
void parse_rest(ApiPath& path, std::vector<std::string> segs) {
  if (segs.empty()) {
    path.group_version_only = true;
    return;
  }
  if (segs[0] == "namespaces" && segs.size() >= 3 && !(segs.size() == 3 && (segs[2] == "status" || segs[2] == "finalize"))) {
    path.has_ns = true;
    path.ns = segs[1];
    segs.erase(segs.begin(), segs.begin() + 2);
  }
  if (segs.size() > 3) throw no_resource();
  path.plural = segs[0];
  if (segs.size() > 1) path.name = segs[1];
  if (segs.size() > 2) path.sub = segs[2];
}

}  // namespace

void send_json(httplib::Response& res, int code, const std::string& body) {
  res.status = code;
  res.set_content(body, "application/json");
}

void send_status(httplib::Response& res, const StatusError& e) {
  send_json(res, e.code, e.to_status().dump());
}

StatusError bad_request(const std::string& message) { return StatusError(400, "BadRequest", message); }

// apierrors.NewInvalid names the kind qualified by its group (GroupKind.String()):
// `TrainJob.trainer.kubeflow.org "x" is invalid`, `Job.batch "x" is invalid`, `Pod "x" is invalid`.
StatusError invalid(const ResourceType& rt, const std::string& name, const json& causes) {
  std::string msg = (rt.group.empty() ? rt.kind : rt.kind + "." + rt.group) + " \"" + name + "\" is invalid: ";
  if (causes.size() == 1) {
    msg += causes[0].value("field", "") + ": " + causes[0].value("message", "");
  } else {
    msg += "[";
    for (size_t i = 0; i < causes.size(); ++i)
      msg += (i ? ", " : "") + causes[i].value("field", "") + ": " + causes[i].value("message", "");
    msg += "]";
  }
  json d = {{"name", name}};
  if (!rt.group.empty()) d["group"] = rt.group;
  d["kind"] = rt.kind;
  d["causes"] = causes;
  return StatusError(422, "Invalid", msg, d);
}

StatusError method_not_allowed() {
  return StatusError(405, "MethodNotAllowed", "the server does not allow this method on the requested resource",
                     json::object());
}

json parse_body(const std::string& body, const std::string& content_type) {
  if (content_type.find("yaml") == std::string::npos) {
    auto j = json::parse(body, nullptr, false);
    if (!j.is_discarded()) return j;
  }
  // kube-apiserver decodes a YAML body as kubectl reads YAML (sigs.k8s.io/yaml YAMLToJSON,
  // apimachinery pkg/runtime/serializer/json yaml mode): plain 0x10 is 16, yes is true.
  try {
    return trainctl::yaml::parse(body, "");
  } catch (const trainctl::yaml::ParseError& e) {
    throw bad_request(std::string("error decoding request body: ") + e.what());
  }
}

std::optional<ApiPath> parse_api_path(const std::string& path) {
  try {
    auto segs = split_path(path);
    ApiPath p;
    if (segs.size() >= 2 && segs[0] == "api") {
      p.version = segs[1];
      parse_rest(p, std::vector<std::string>(segs.begin() + 2, segs.end()));
    } else if (segs.size() >= 3 && segs[0] == "apis") {
      p.group = segs[1];
      p.version = segs[2];
      parse_rest(p, std::vector<std::string>(segs.begin() + 3, segs.end()));
    } else {
      return std::nullopt;
    }
    return p;
  } catch (const StatusError&) {
    return std::nullopt;
  }
}

Api::Api(Store& store, LogStore& logs, Validator validator, std::chrono::milliseconds bookmark_interval)
    : m_store(store),
      m_logs(logs),
      m_validator(std::move(validator)),
      m_bookmark_interval(bookmark_interval) {}

void Api::handle(ApiRequest& req) {
  try {
    auto parsed = parse_api_path(req.http.path);
    if (!parsed || (parsed->group.empty() && parsed->version != "v1")) throw no_resource();
    req.path = *parsed;
    ApiPath& p = req.path;
    if (p.group_version_only) {
      if (req.http.method != "GET") throw method_not_allowed();
      resource_list(req);
      return;
    }
    p.rt = m_store.find(p.group, p.version, p.plural);
    if (!p.rt) throw no_resource();
    if (p.has_ns && !p.rt->namespaced) throw no_resource();
    route(req);
  } catch (const StatusError& e) {
    send_status(req.res, e);
  } catch (const json::exception& e) {
    send_status(req.res, bad_request(e.what()));
  }
}

void Api::route(ApiRequest& req) {
  const ApiPath& p = req.path;
  const std::string& m = req.http.method;
  bool collection = p.name.empty();
  // A resource that serves only some verbs has no handler here: a SelfSubjectAccessReview's
  // create is answered before (access_review.h), any other method is not allowed.
  if (!p.rt->verbs.empty()) throw method_not_allowed();
  if (!p.sub.empty()) {
    bool known = p.sub == "status" ? p.rt->status_subresource : (p.sub == "log" && p.rt->kind == "Pod" && p.rt->group.empty());
    if (!known) throw no_resource();
  }
  if (p.rt->namespaced && !p.has_ns && !collection) throw no_resource();
  if (collection) {
    if (m == "GET") {
      if (req.flag("watch")) do_watch(req);
      else do_list(req);
    } else if (m == "POST") {
      if (p.rt->namespaced && !p.has_ns) throw no_resource();
      do_create(req);
    } else if (m == "DELETE") {
      do_delete_collection(req);
    } else {
      throw method_not_allowed();
    }
    return;
  }
  if (p.sub == "log") {
    if (m != "GET") throw method_not_allowed();
    do_logs(req);
    return;
  }
  if (m == "GET") do_get(req);
  else if (m == "PUT") do_update(req);
  else if (m == "PATCH") do_patch(req);
  else if (m == "DELETE" && p.sub.empty()) do_delete(req);
  else throw method_not_allowed();
}

}  // namespace kubesim
