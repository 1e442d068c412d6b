// create, get, update, patch, delete and deletecollection.
#include "kubesim/rest.h"
#include "kubesim/kueue_model.h"
#include "kubesim/object_limits.h"

namespace kubesim {

namespace {

std::string qualified(const ResourceType& rt) { return rt.group.empty() ? rt.plural : rt.plural + "." + rt.group; }

// metav1.DeleteOptions from the body (kubectl sends one) and the query.
DeleteOptions delete_options(ApiRequest& req) {
  json opts = json::object();
  if (!req.http.body.empty()) {
    opts = parse_body(req.http.body, req.http.get_header_value("Content-Type"));
    if (!opts.is_object()) throw bad_request("DeleteOptions must be an object");
  }
  DeleteOptions o;
  o.propagation = opts.value("propagationPolicy", "");
  if (!req.param("propagationPolicy").empty()) o.propagation = req.param("propagationPolicy");
  if (opts.contains("orphanDependents") && opts["orphanDependents"].is_boolean())
    o.orphan_dependents = opts["orphanDependents"].get<bool>();
  if (!req.param("orphanDependents").empty()) o.orphan_dependents = req.flag("orphanDependents");
  if (!o.propagation.empty() && o.propagation != "Background" && o.propagation != "Foreground" &&
      o.propagation != "Orphan")
    throw bad_request("DeletionPropagation " + o.propagation + " is not supported");
  if (opts.contains("gracePeriodSeconds") && opts["gracePeriodSeconds"].is_number_integer())
    o.grace_period_seconds = opts["gracePeriodSeconds"].get<int64_t>();
  if (!req.param("gracePeriodSeconds").empty()) {
    try {
      o.grace_period_seconds = std::stoll(req.param("gracePeriodSeconds"));
    } catch (...) {
      throw bad_request("invalid gracePeriodSeconds: " + req.param("gracePeriodSeconds"));
    }
  }
  if (opts.contains("preconditions") && opts["preconditions"].is_object()) {
    const json& pre = opts["preconditions"];
    if (pre.contains("uid") && pre["uid"].is_string()) o.precondition_uid = pre["uid"].get<std::string>();
    if (pre.contains("resourceVersion") && pre["resourceVersion"].is_string())
      o.precondition_resource_version = pre["resourceVersion"].get<std::string>();
  }
  return o;
}

// The namespace of a namespaced object is the request's; a body naming another is refused.
void take_request_namespace(const ApiPath& p, json& metadata) {
  if (!p.rt->namespaced) return;
  const std::string ns = metadata.value("namespace", "");
  if (!ns.empty() && ns != p.ns)
    throw bad_request(
        "the namespace of the provided object does not match the namespace sent on the request");
  metadata["namespace"] = p.ns;
}

void drop_server_fields(json& metadata) {  // set by the server only
  for (const char* k : {"uid", "creationTimestamp", "deletionTimestamp", "resourceVersion", "generation"})
    metadata.erase(k);
}

json success_status(const ResourceType& rt, const json& obj) {
  const json& md = obj["metadata"];
  json d = {{"name", md.value("name", "")}};
  if (!rt.group.empty()) d["group"] = rt.group;
  d["kind"] = rt.plural;
  d["uid"] = md.value("uid", "");
  return {{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", json::object()},
          {"status", "Success"}, {"details", d}};
}

}  // namespace

void Api::do_get(ApiRequest& req) {
  const ApiPath& p = req.path;
  auto enc = m_store.get_encoded(*p.rt, p.ns, p.name);
  if (!enc) throw not_found(*p.rt, p.name);
  if (wants_table(req.http)) {
    Store::ListResult one;
    one.items.push_back(m_store.get_shared(*p.rt, p.ns, p.name));
    if (!one.items.back()) throw not_found(*p.rt, p.name);
    one.encoded.push_back(enc);
    one.resource_version = m_store.resource_version();
    send_json(req.res, 200, table_for(*p.rt, one, req.param("includeObject") == "Object", m_store.now()));
    return;
  }
  send_json(req.res, 200, *enc);
}

void Api::do_create(ApiRequest& req) {
  const ApiPath& p = req.path;
  req.validation = field_validation(req, "CreateOptions");
  json obj = decode_body(req, *p.rt, req.http.body);
  take_request_namespace(p, obj["metadata"]);
  drop_server_fields(obj["metadata"]);
  write_object(req, std::move(obj), true);
}

void Api::write_object(ApiRequest& req, json obj, bool create) {
  const ResourceType& rt = *req.path.rt;
  if (create) kueue_webhook_default(m_kueue, m_store, rt, obj);  // Kueue's mutating job webhook
  validate_object(req, rt, obj, create);
  const int code = create ? 201 : 200;
  if (req.param("dryRun") == "All") {
    send_json(req.res, code, obj.dump());
    return;
  }
  check_storage_size(rt, obj);
  json written = create ? m_store.create(rt, std::move(obj)) : m_store.update(rt, std::move(obj));
  send_json(req.res, code, written.dump());
}

void Api::do_update(ApiRequest& req) {
  const ApiPath& p = req.path;
  req.validation = field_validation(req, "UpdateOptions");
  json obj = decode_body(req, *p.rt, req.http.body);
  json& md = obj["metadata"];
  std::string name = md.value("name", "");
  if (name.empty()) md["name"] = name = p.name;
  if (name != p.name)
    throw bad_request("the name of the object (" + name + ") does not match the name on the URL (" + p.name + ")");
  take_request_namespace(p, md);
  auto old = m_store.get_shared(*p.rt, p.ns, p.name);
  if (!old) throw not_found(*p.rt, p.name);
  if (p.rt->status_subresource) {
    json merged = *old;
    if (p.sub == "status") {
      if (obj.contains("status")) merged["status"] = obj["status"];
      else merged.erase("status");
      merged["metadata"]["resourceVersion"] = md.value("resourceVersion", "");
      obj = std::move(merged);
    } else if (old->contains("status")) {
      obj["status"] = (*old)["status"];
    } else {
      obj.erase("status");
    }
  }
  write_object(req, std::move(obj), false);
}

void Api::do_patch(ApiRequest& req) {
  const ApiPath& p = req.path;
  std::string ct = req.http.get_header_value("Content-Type");
  ct = ct.substr(0, ct.find(';'));
  bool apply = ct == "application/apply-patch+yaml";
  if (ct != "application/merge-patch+json" && ct != "application/strategic-merge-patch+json" &&
      ct != "application/json-patch+json" && !apply)
    throw StatusError(415, "UnsupportedMediaType", "the body of the request was in an unknown format - accepted "
                      "media types include: application/json-patch+json, application/merge-patch+json, "
                      "application/apply-patch+yaml");
  if (ct == "application/strategic-merge-patch+json" && !p.rt->group.empty() && p.rt->group.find('.') != std::string::npos &&
      p.rt->group != "scheduling.k8s.io")
    throw StatusError(415, "UnsupportedMediaType",
                      "strategic merge patch is not supported for " + qualified(*p.rt) + " (custom resource)");
  req.validation = field_validation(req, "PatchOptions");
  json patch = decode_patch(req, req.http.body, apply, ct == "application/json-patch+json");
  for (int attempt = 0; attempt < 5; ++attempt) {
    auto old = m_store.get_shared(*p.rt, p.ns, p.name);
    if (!old) {
      if (!apply) throw not_found(*p.rt, p.name);
      json obj = patch;
      obj["metadata"]["name"] = p.name;
      if (p.rt->namespaced) obj["metadata"]["namespace"] = p.ns;
      drop_server_fields(obj["metadata"]);
      validate_object(req, *p.rt, obj, true);
      check_storage_size(*p.rt, obj);
      send_json(req.res, 201, m_store.create(*p.rt, std::move(obj)).dump());
      return;
    }
    json obj = *old;
    if (ct == "application/json-patch+json") json_patch(obj, patch);
    else if (ct == "application/strategic-merge-patch+json") strategic_merge_patch(obj, patch);
    else merge_patch(obj, patch);
    if (!obj.is_object() || !obj["metadata"].is_object()) throw bad_request("the patch removed metadata");
    obj["metadata"]["name"] = p.name;
    if (p.rt->namespaced) obj["metadata"]["namespace"] = p.ns;
    bool rv_in_patch = patch.is_object() && patch.contains("metadata") && patch["metadata"].is_object() &&
                       patch["metadata"].contains("resourceVersion");
    if (!rv_in_patch) obj["metadata"]["resourceVersion"] = (*old)["metadata"].value("resourceVersion", "");
    if (p.rt->status_subresource) {
      if (p.sub == "status") {
        json keep = *old;
        if (obj.contains("status")) keep["status"] = obj["status"];
        keep["metadata"]["resourceVersion"] = obj["metadata"]["resourceVersion"];
        obj = std::move(keep);
      } else if (old->contains("status")) {
        obj["status"] = (*old)["status"];
      }
    }
    validate_object(req, *p.rt, obj, false, true);
    check_storage_size(*p.rt, obj);
    try {
      json updated = m_store.update(*p.rt, std::move(obj));
      send_json(req.res, 200, updated.dump());
      return;
    } catch (const StatusError& e) {
      if (e.code != 409 || rv_in_patch) throw;
    }
  }
  throw conflict(*p.rt, p.name, "the object has been modified; please apply your changes to the latest version and try again");
}

// The answer of registry/generic/registry/store.go Delete and the delete handler
// (endpoints/handlers/delete.go): an object still being deleted comes back as it is now; one
// removed comes back whole for pods and namespaces (ReturnDeletedObject), else as a Success
// Status. 202 only for a delete left pending with orphanDependents=false.
void Api::do_delete(ApiRequest& req) {
  const ApiPath& p = req.path;
  DeleteOptions opts = delete_options(req);
  auto old = m_store.get_shared(*p.rt, p.ns, p.name);
  if (!old) throw not_found(*p.rt, p.name);
  if (req.param("dryRun") == "All") {
    send_json(req.res, 200, old->dump());
    return;
  }
  const bool orphan_false = opts.orphan_dependents && !*opts.orphan_dependents;
  DeleteResult r = m_store.remove(*p.rt, p.ns, p.name, opts);
  if (!r.removed) {
    send_json(req.res, orphan_false ? 202 : 200, r.object.dump());
    return;
  }
  bool return_object = p.rt->group.empty() && (p.rt->kind == "Pod" || p.rt->kind == "Namespace");
  send_json(req.res, 200, return_object ? r.object.dump() : success_status(*p.rt, r.object).dump());
}

void Api::do_delete_collection(ApiRequest& req) {
  const ApiPath& p = req.path;
  DeleteOptions opts = delete_options(req);
  auto sel = ListFilter::parse(*p.rt, req.param("labelSelector"), req.param("fieldSelector"));
  auto list = m_store.list_stored(*p.rt, p.has_ns ? p.ns : "",
                                 [&](const json&, const FieldValues& v, const LabelValues& l) { return sel.matches(v, l); });
  json out = {{"kind", p.rt->kind + "List"}, {"apiVersion", p.rt->api_version()},
              {"metadata", {{"resourceVersion", std::to_string(list.resource_version)}}}, {"items", json::array()}};
  for (const auto& o : list.items) {
    try {
      out["items"].push_back(m_store
                                 .remove(*p.rt, (*o)["metadata"].value("namespace", ""),
                                         (*o)["metadata"].value("name", ""), opts)
                                 .object);
    } catch (const StatusError&) {
      // already gone
    }
  }
  send_json(req.res, 200, out.dump());
}

}  // namespace kubesim
