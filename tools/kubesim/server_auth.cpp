#include "kubesim/server_auth.h"

#include <openssl/ssl.h>
#include <openssl/x509.h>

#include <memory>
#include <thread>

#include "kubesim/gpu_exporter.h"
#include "kubesim/access_review.h"
#include "kubesim/kueue_visibility.h"
#include "kubesim/node_evict.h"
#include "kubesim/service_proxy.h"
#include "kubesim/watch.h"

namespace kubesim {

namespace {

std::vector<std::string> name_entries(X509_NAME* name, int nid) {
  std::vector<std::string> out;
  int idx = -1;
  while ((idx = X509_NAME_get_index_by_NID(name, nid, idx)) >= 0) {
    ASN1_STRING* s = X509_NAME_ENTRY_get_data(X509_NAME_get_entry(name, idx));
    unsigned char* utf8 = nullptr;
    int n = ASN1_STRING_to_UTF8(&utf8, s);
    if (n >= 0) out.emplace_back(reinterpret_cast<char*>(utf8), static_cast<size_t>(n));
    OPENSSL_free(utf8);
  }
  return out;
}

bool constant_time_equal(const std::string& a, const std::string& b) {
  if (a.size() != b.size()) return false;
  unsigned char d = 0;
  for (size_t i = 0; i < a.size(); ++i) d |= static_cast<unsigned char>(a[i] ^ b[i]);
  return d == 0;
}

void send_fault(httplib::Response& res, const FaultRule& rule) {
  std::string msg = rule.message;
  if (msg.empty()) msg = rule.status == 429 ? "Too many requests, please try again later." : "fault injected by kubesim";
  StatusError e(rule.status, fault_reason(rule.status), msg, json::object());
  if (rule.retry_after >= 0) {
    res.set_header("Retry-After", std::to_string(rule.retry_after));
    e.details["retryAfterSeconds"] = rule.retry_after;
  }
  send_status(res, e);
}

// Answers of a misbehaving proxy or server that do not depend on the request.
bool send_broken_answer(httplib::Response& res, const FaultRule& rule) {
  if (rule.action == "malformed") {
    res.status = 200;
    res.set_content(malformed_body(), "application/json");
    return true;
  }
  if (rule.action == "html") {
    res.status = rule.status;
    res.set_content(proxy_error_page(rule.status), "text/html");
    return true;
  }
  return false;
}

// The real answer cut short: the full Content-Length is announced, part of the body is sent,
// then the connection is closed. Streams (no body yet) are left alone: "cut" is for them.
void truncate_answer(httplib::Response& res, const FaultRule& rule) {
  if (res.body.empty() || res.content_provider_) return;
  auto body = std::make_shared<std::string>(std::move(res.body));
  res.body.clear();
  std::string type = res.get_header_value("Content-Type");
  res.headers.erase("Content-Type");
  size_t keep = truncated_size(rule, body->size());
  res.set_content_provider(body->size(), type, [body, keep](size_t offset, size_t, httplib::DataSink& sink) {
    if (offset < keep) sink.write(body->data() + offset, keep - offset);
    return false;  // stop here: httplib closes the connection
  });
}

StatusError unauthorized() { return StatusError(401, "Unauthorized", "Unauthorized", json::object()); }

StatusError forbidden(const UserInfo& user, const std::string& verb, const ApiPath& p) {
  std::string res = p.plural + (p.sub.empty() ? "" : "/" + p.sub);
  std::string qualified = p.group.empty() ? p.plural : p.plural + "." + p.group;
  std::string msg = qualified + (p.name.empty() ? "" : " \"" + p.name + "\"") + " is forbidden: User \"" + user.name +
                    "\" cannot " + verb + " resource \"" + res + "\" in API group \"" + p.group + "\"" +
                    (p.has_ns ? " in the namespace \"" + p.ns + "\"" : " at the cluster scope");
  json d = json::object();
  if (!p.name.empty()) d["name"] = p.name;
  if (!p.group.empty()) d["group"] = p.group;
  d["kind"] = p.plural;
  return StatusError(403, "Forbidden", msg, d);
}

void admin(FaultInjector& faults, const httplib::Request& req, httplib::Response& res) {
  if (req.path != "/kubesim/faults") {
    send_status(res, StatusError(404, "NotFound", "the server could not find the requested resource", json::object()));
    return;
  }
  try {
    if (req.method == "GET") {
      send_json(res, 200, faults.to_json().dump());
    } else if (req.method == "DELETE") {
      faults.clear();
      send_json(res, 200, faults.to_json().dump());
    } else if (req.method == "POST" || req.method == "PUT") {
      auto rules = FaultInjector::parse(parse_body(req.body, req.get_header_value("Content-Type")));
      if (req.method == "PUT") faults.set(std::move(rules));
      else faults.add(std::move(rules));
      send_json(res, 200, faults.to_json().dump());
    } else {
      send_status(res, method_not_allowed());
    }
  } catch (const std::invalid_argument& e) {
    send_status(res, bad_request(e.what()));
  }
}

// POST /kubesim/nodes/NAME/evict (node_evict.h).
void node_admin(Store& store, const httplib::Request& req, httplib::Response& res) {
  const std::string prefix = "/kubesim/nodes/", suffix = "/evict";
  const std::string& path = req.path;
  const bool shaped = path.size() > prefix.size() + suffix.size() &&
                      path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
  const std::string node =
      shaped ? path.substr(prefix.size(), path.size() - prefix.size() - suffix.size()) : "";
  if (node.empty() || node.find('/') != std::string::npos) {
    send_status(res, StatusError(404, "NotFound", "the server could not find the requested resource",
                                 json::object()));
    return;
  }
  if (req.method != "POST") {
    send_status(res, method_not_allowed());
    return;
  }
  send_json(res, 200, evict_node_pods(store, node).dump());
}

// Simulated time (the Simulation's clock), else the real time, in Unix milliseconds.
int64_t sim_now_ms(const ServerOptions& opts) {
  const auto now = opts.clock ? opts.clock() : std::chrono::system_clock::now();
  return std::chrono::duration_cast<std::chrono::milliseconds>(now.time_since_epoch()).count();
}

}  // namespace

std::optional<UserInfo> authenticate(const httplib::Request& req, const ServerOptions& opts) {
  std::string auth = req.get_header_value("Authorization");
  if (auth.rfind("Bearer ", 0) == 0) {
    std::string token = auth.substr(7);
    for (const auto& t : opts.tokens)
      if (constant_time_equal(t, token)) return UserInfo{"admin", {"system:masters", "system:authenticated"}};
    for (const auto& t : opts.token_users)
      if (constant_time_equal(t.token, token)) return t.user;
    return std::nullopt;  // a wrong token is rejected even when a certificate is present
  }
  if (req.ssl) {
    X509* cert = SSL_get0_peer_certificate(req.ssl);
    if (cert && SSL_get_verify_result(req.ssl) == X509_V_OK) {
      X509_NAME* subject = X509_get_subject_name(cert);
      auto cn = name_entries(subject, NID_commonName);
      if (!cn.empty()) {
        UserInfo u{cn[0], name_entries(subject, NID_organizationName)};
        u.groups.push_back("system:authenticated");
        return u;
      }
    }
  }
  return std::nullopt;
}

std::string request_verb(const httplib::Request& req, const ApiPath& p) {
  const std::string& m = req.method;
  if (m == "GET") {
    if (!p.name.empty()) return "get";
    return req.has_param("watch") && (req.get_param_value("watch") == "true" || req.get_param_value("watch") == "1")
               ? "watch" : "list";
  }
  if (m == "POST") return "create";
  if (m == "PUT") return "update";
  if (m == "PATCH") return "patch";
  if (m == "DELETE") return p.name.empty() ? "deletecollection" : "delete";
  return "get";
}

AuthAttributes request_attributes(const httplib::Request& req, const ApiPath& p) {
  AuthAttributes a;
  a.verb = request_verb(req, p);
  a.group = p.group;
  a.resource = p.plural;
  a.subresource = p.sub;
  a.name = p.name;
  a.namespace_ = p.has_ns ? p.ns : (p.group.empty() && p.plural == "namespaces" ? p.name : "");
  return a;
}

void dispatch(Server& server, Api& api, const ServerOptions& opts, const httplib::Request& req,
              httplib::Response& res) {
  const std::string& path = req.path;
  if (path == "/healthz" || path == "/livez" || path == "/readyz") {
    res.set_content("ok", "text/plain");
    return;
  }
  std::optional<UserInfo> user;
  if (opts.auth) {
    user = authenticate(req, opts);
    if (!user) throw unauthorized();
  } else {
    user = UserInfo{"admin", {"system:masters"}};
  }
  if (path.rfind("/kubesim/nodes/", 0) == 0) {
    node_admin(server.store(), req, res);
    return;
  }
  if (path.rfind("/kubesim/exporters/", 0) == 0) {
    serve_gpu_exporters(server.store(), sim_now_ms(opts), req, res);
    return;
  }
  if (path == "/kubesim/page-ahead" && req.method == "GET") {
    // What the pages computed ahead came to (page_ahead.h), for bench/page_ahead.sh.
    const PageAhead::Stats s = api.page_ahead_stats();
    send_json(res, 200,
              json{{"computed", s.computed}, {"served", s.served}, {"stale", s.stale}, {"unasked", s.unasked},
                   {"skipped", s.skipped}}
                  .dump());
    return;
  }
  if (path.rfind("/kubesim/", 0) == 0) {
    admin(server.faults(), req, res);
    return;
  }
  const size_t q = req.target.find('?');
  std::optional<FaultRule> fault =
      server.faults().decide(req.method, path, q == std::string::npos ? "" : req.target.substr(q + 1));
  if (fault) {
    if (fault->action == "status") {
      send_fault(res, *fault);
      return;
    }
    if (send_broken_answer(res, *fault)) return;
    if (fault->action == "latency" || fault->action == "stall")
      std::this_thread::sleep_for(std::chrono::milliseconds(fault->delay_ms));
    if (fault->action == "reset" || fault->action == "stall") {
      reset_connection(request_socket(req));
      res.status = 500;
      return;
    }
  }
  if (api.handle_discovery(req, res) || api.handle_openapi(req, res) ||
      handle_kueue_visibility(server.store(), server.options().kueue, req, res))
    return;
  if (auto proxy = parse_service_proxy_path(path)) {
    // RBAC: GET is verb "get" on services/proxy, POST "create" (requestinfo.go).
    ApiPath p;
    p.plural = "services";
    p.sub = "proxy";
    p.ns = proxy->ns;
    p.has_ns = true;
    p.name = proxy->id;
    if (!authorize(server.store(), *user, request_attributes(req, p)).allowed)
      throw forbidden(*user, request_verb(req, p), p);
    serve_service_proxy(server.store(), opts.prometheus, sim_now_ms(opts), *proxy, req, res);
    return;
  }
  if (path.rfind("/api/", 0) == 0 || path.rfind("/apis/", 0) == 0) {
    ApiRequest areq{req, res, {}, user->name, fault};
    auto parsed = parse_api_path(path);
    if (parsed && !parsed->group_version_only) {
      const AuthAttributes attributes = request_attributes(req, *parsed);
      if (!authorize(server.store(), *user, attributes).allowed) throw forbidden(*user, attributes.verb, *parsed);
      if (is_self_subject_access_review(path)) {
        serve_self_subject_access_review(server.store(), *user, req, res);
        return;
      }
    }
    api.handle(areq);
    if (fault && fault->action == "truncate") truncate_answer(res, *fault);
    return;
  }
  send_status(res, StatusError(404, "NotFound", "the server could not find the requested resource", json::object()));
}

}  // namespace kubesim
