// The Kubernetes REST API on top of the Store: request routing, CRUD, patch, lists with
// selectors/paging/Table output, watch streams and pods/log. Used by server.cpp.
#pragma once

#include "kubesim/faults.h"
#include "kubesim/json_decode.h"
#include "kubesim/logs.h"
#include "kubesim/page_ahead.h"
#include "kubesim/selector.h"
#include "kubesim/server.h"
#include "kubesim/store.h"

#include <httplib.h>

#include <atomic>
#include <optional>
#include <string>

namespace kubesim {

// A parsed resource path: /api/v1[/namespaces/NS]/PLURAL[/NAME[/SUB]] or /apis/G/V/...
struct ApiPath {
  std::string group, version;
  std::string plural, ns, name, sub;
  bool has_ns = false;       // path had /namespaces/NS/
  bool group_version_only = false;  // /api/v1 or /apis/G/V itself
  const ResourceType* rt = nullptr;
};

// Per-request context handed to the handlers.
struct ApiRequest {
  const httplib::Request& http;
  httplib::Response& res;
  ApiPath path;
  std::string user;
  std::optional<FaultRule> fault;  // a "cut" rule applies to streams
  std::string validation;         // the fieldValidation directive of a write: Strict, Warn or Ignore
  KeyReport body_keys;            // the keys of a JSON body: repeated ones, their order
  std::string param(const std::string& k) const {
    return http.has_param(k.c_str()) ? http.get_param_value(k.c_str()) : "";
  }
  bool flag(const std::string& k) const {
    std::string v = param(k);
    return v == "true" || v == "1" || v == "True";
  }
};

// labelSelector + fieldSelector of a list, watch or deletecollection request.
struct ListFilter {
  const ResourceType* rt = nullptr;
  LabelSelector labels;
  FieldSelector fields;  // bound to rt's selectable fields
  // Throws 400 BadRequest for malformed selectors and unsupported field labels.
  static ListFilter parse(const ResourceType& rt, const std::string& label_selector,
                          const std::string& field_selector);
  bool empty() const { return labels.empty() && fields.empty(); }
  // obj's field values computed now (a watch event's object).
  bool matches(const json& obj) const;
  // A stored object, with the field values and labels the store keeps beside it.
  bool matches(const FieldValues& values, const LabelValues& labels) const;
};

class Api {
 public:
  Api(Store& store, LogStore& logs, Validator validator,
      std::chrono::milliseconds bookmark_interval = std::chrono::seconds(60));
  // Handles any /api or /apis request; errors become metav1.Status bodies.
  void handle(ApiRequest& req);
  // /version, /api, /apis, /apis/G (discovery.cpp); false when the path is not discovery.
  bool handle_discovery(const httplib::Request& http, httplib::Response& res);
  // /openapi/v3 root and group-version documents (discovery_openapi.cpp).
  bool handle_openapi(const httplib::Request& http, httplib::Response& res);
  // Ends streams (watch, log follow) soon: the server is stopping.
  void stop() { m_stopping = true; }
  bool stopping() const { return m_stopping; }
  // The version.Info /version answers (--kubernetes-version).
  void set_version_info(json info) { m_version_info = std::move(info); }
  // Kueue's configuration: its job webhook and the visibility API's discovery follow it.
  void set_kueue(KueueConfig config) { m_kueue = std::move(config); }
  const KueueConfig& kueue() const { return m_kueue; }
  // What the pages of paged lists computed ahead came to (page_ahead.h).
  PageAhead::Stats page_ahead_stats() const { return m_ahead.stats(); }

private:
  void route(ApiRequest& req);
  void do_get(ApiRequest& req);
  void do_list(ApiRequest& req);
  // Computes the page of a paged list after `continue_token` on another thread (page_ahead.h).
  void list_ahead(const std::string& key, const ResourceType& rt, const std::string& ns, const ListFilter& filter,
                  size_t limit, const std::string& continue_token, bool gzip);
  void do_create(ApiRequest& req);
  void do_update(ApiRequest& req);
  void do_patch(ApiRequest& req);
  void do_delete(ApiRequest& req);
  // Validates obj and creates or updates it; with dryRun=All answers what would be written.
  void write_object(ApiRequest& req, json obj, bool create);
  void do_delete_collection(ApiRequest& req);
  void do_watch(ApiRequest& req);
  void do_logs(ApiRequest& req);
  void resource_list(ApiRequest& req);  // /api/v1, /apis/G/V
  // Request bodies (rest_validate.cpp). The fieldValidation directive of a write, checked as
  // CreateOptions/UpdateOptions/PatchOptions (throws the 422).
  std::string field_validation(ApiRequest& req, const char* options_kind);
  // Decodes a create or update body for rt (throws the 400 of a body that is not JSON).
  json decode_body(ApiRequest& req, const ResourceType& rt, const std::string& body);
  json decode_patch(ApiRequest& req, const std::string& body, bool apply, bool json_patch);
  // Names, schema, strict decoding errors under req.validation (prunes unknown fields), sizes.
  void validate_object(ApiRequest& req, const ResourceType& rt, json& obj, bool create, bool patch = false);

  Store& m_store;
  LogStore& m_logs;
  Validator m_validator;
  json m_version_info;
  KueueConfig m_kueue;
  std::chrono::milliseconds m_bookmark_interval;
  std::atomic<bool> m_stopping{false};
  PageAhead m_ahead;  // last member: destroyed first, after the pages it computes
};

// Parses an /api or /apis path (no resource lookup); nullopt when it is not one.
std::optional<ApiPath> parse_api_path(const std::string& path);


// Helpers shared by the rest_*.cpp files.
void send_json(httplib::Response& res, int code, const std::string& body);
void send_status(httplib::Response& res, const StatusError& e);
StatusError bad_request(const std::string& message);
StatusError invalid(const ResourceType& rt, const std::string& name, const json& causes);
StatusError method_not_allowed();
// Parses a JSON or YAML body (kubectl sends JSON); throws 400 BadRequest.
json parse_body(const std::string& body, const std::string& content_type);
// Names: DNS-1123 subdomain / label and DNS-1035 label checks (rest_names.cpp); empty string
// when valid, else the message.
std::string check_dns_subdomain(const std::string& v);
std::string check_dns_label(const std::string& v);
std::string check_dns1035_label(const std::string& v);
// Merge patch (RFC 7386) and a strategic merge patch good enough for kubectl apply.
void merge_patch(json& target, const json& patch);
void strategic_merge_patch(json& target, const json& patch);
void json_patch(json& target, const json& ops);  // RFC 6902
// Table (meta.k8s.io/v1) for a list of objects; wants_table() reads the Accept header.
bool wants_table(const httplib::Request& http);
std::string table_for(const ResourceType& rt, const Store::ListResult& list, bool wide,
                      std::chrono::system_clock::time_point now);
// The human age kubectl prints ("5s", "3m", "2d4h").
std::string human_age(std::chrono::system_clock::duration d);

}  // namespace kubesim
