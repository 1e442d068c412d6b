// Request bodies of create, update and patch: decoding as kube-apiserver's JSON serializer
// decodes them, the fieldValidation directive, and the checks before an object is stored.
//
// fieldValidation (k8s.io/apiserver v0.33.0 pkg/endpoints/handlers create.go, update.go,
// patch.go; rest.go fieldValidation): the query parameter is checked with the other options
// first (apimachinery pkg/apis/meta/v1/validation ValidateFieldValidation: anything but "",
// Ignore, Warn or Strict is 422 Invalid on CreateOptions/UpdateOptions/PatchOptions); an
// absent one means Warn. Warn and Strict decode strictly (runtime/serializer/json
// Serializer.unmarshal, sigs.k8s.io/json UnmarshalStrict): each unknown field and each repeated
// key is a strict error, in the order the decoder meets them. Strict refuses the request: 400
// "Pod in version "v1" cannot be handled as a Pod: strict decoding error: unknown field
// "spec.foo", duplicate field "metadata.name"" (transformDecodeError), or for a patch 422 with
// a `patch` cause (patch.go applyPatch). Warn answers each as a `Warning: 299 - "..."` header
// (addStrictDecodingWarnings). Ignore says nothing. Either way unknown fields are not stored:
// a built-in kind is decoded into its Go type, which has no place for them, a custom resource
// is pruned to its schema. kubesim knows the fields of built-in kinds from the OpenAPI v3
// documents of --schemas (DIR/openapi) and of custom resources from their CRDs.
#include "kubesim/rest.h"

#include "kubesim/json_decode.h"
#include "kubesim/object_limits.h"
#include "kubesim/trainer_admission.h"

#include "core/utf8.h"

#include <algorithm>
#include <limits>

namespace kubesim {

namespace {

json cause(const std::string& reason, const std::string& field, const std::string& message) {
  return {{"reason", reason}, {"message", message}, {"field", field}};
}

// handlers/rest.go summarizeData(body, 30): an object's first bytes, anything else in hex.
std::string summarize(const std::string& body) {
  if (body.empty()) return "<empty>";
  const std::string head = body.substr(0, 30);
  const std::string more = body.size() > 30 ? " ..." : "";
  if (body[0] == '{') return head + more;
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (unsigned char c : head) hex += {digits[c >> 4], digits[c & 15]};
  return hex + more;
}

// go-yaml's reader refuses text that is not UTF-8 before it parses anything (readerc.go
// yaml_parser_update_buffer); empty when the text is UTF-8.
std::string yaml_utf8_error(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    if (const size_t len = trainctl::decode_utf8(text, i, cp); len > 0) {
      i += len;
      continue;
    }
    const auto b = static_cast<unsigned char>(text[i]);
    const size_t want = (b & 0xE0) == 0xC0 ? 2 : (b & 0xF0) == 0xE0 ? 3 : (b & 0xF8) == 0xF0 ? 4 : 0;
    if (want == 0) return "yaml: invalid leading UTF-8 octet";
    if (i + want > text.size()) return "yaml: incomplete UTF-8 octet sequence";
    char32_t value = b & (want == 2 ? 0x1F : want == 3 ? 0x0F : 0x07);
    for (size_t k = 1; k < want; ++k) {
      const auto t = static_cast<unsigned char>(text[i + k]);
      if ((t & 0xC0) != 0x80) return "yaml: invalid trailing UTF-8 octet";
      value = (value << 6) | (t & 0x3F);
    }
    if ((want == 2 && value < 0x80) || (want == 3 && value < 0x800) || (want == 4 && value < 0x10000))
      return "yaml: invalid length of a UTF-8 sequence";
    return "yaml: invalid Unicode character";  // a surrogate, or past U+10FFFF
  }
  return "";
}

}  // namespace

std::string Api::field_validation(ApiRequest& req, const char* options_kind) {
  const std::string v = req.param("fieldValidation");
  if (v.empty()) return "Warn";
  if (v == "Ignore" || v == "Warn" || v == "Strict") return v;
  const std::string msg = "Unsupported value: " + json(v).dump() + R"(: supported values: "", "Ignore", "Strict", "Warn")";
  throw StatusError(422, "Invalid", std::string(options_kind) + ".meta.k8s.io \"\" is invalid: fieldValidation: " + msg,
                    {{"group", "meta.k8s.io"},
                     {"kind", options_kind},
                     {"causes", json::array({cause("FieldValueNotSupported", "fieldValidation", msg)})}});
}

json Api::decode_body(ApiRequest& req, const ResourceType& rt, const std::string& body) {
  const std::string content_type = req.http.get_header_value("Content-Type");
  json obj;
  if (content_type.find("yaml") != std::string::npos) {
    if (const std::string e = yaml_utf8_error(body); !e.empty())
      throw bad_request(go_utf8("the object provided is unrecognized (must be of type " + rt.kind + "): " + e + " (" +
                                summarize(body) + ")"));
    obj = parse_body(body, content_type);
  } else {
    try {
      DecodedJson decoded = decode_json(body);
      obj = std::move(decoded.value);
      req.body_keys = std::move(decoded.keys);
    } catch (const JsonSyntaxError& e) {
      // meta.go SimpleMetaFactory.Interpret, then rest.go transformDecodeError without a kind.
      throw bad_request(go_utf8("the object provided is unrecognized (must be of type " + rt.kind +
                                "): couldn't get version/kind; json parse error: " + e.what() + " (" +
                                summarize(body) + ")"));
    } catch (const JsonValueError& e) {  // the kind is known by then
      throw bad_request(rt.kind + " in version \"" + rt.version + "\" cannot be handled as a " + rt.kind + ": " + e.what());
    }
  }
  if (!obj.is_object()) throw bad_request("the body of the request is not a JSON object");
  std::string av = obj.value("apiVersion", ""), kind = obj.value("kind", "");
  if (!av.empty() && av != rt.api_version())
    throw bad_request("the API version in the data (" + av + ") does not match the expected API version (" +
                      rt.api_version() + ")");
  if (!kind.empty() && kind != rt.kind)
    throw bad_request(kind + " in version \"" + rt.version + "\" cannot be handled as a " + rt.kind +
                      ": no kind \"" + kind + "\" is registered for version \"" + rt.api_version() + "\"");
  if (!obj.contains("metadata") || !obj["metadata"].is_object()) obj["metadata"] = json::object();
  return obj;
}

json Api::decode_patch(ApiRequest& req, const std::string& body, bool apply, bool json_patch) {
  if (apply) {  // patch.go applyPatcher
    if (const std::string e = yaml_utf8_error(body); !e.empty()) throw bad_request("error decoding YAML: " + e);
    return parse_body(body, "yaml");
  }
  try {
    DecodedJson decoded = decode_json(body);
    if (!json_patch) req.body_keys = std::move(decoded.keys);  // a JSON patch's keys are its ops'
    return std::move(decoded.value);
  } catch (const std::runtime_error& e) {  // JsonSyntaxError, JsonValueError
    throw bad_request(go_utf8(std::string("error decoding patch: ") + e.what()));
  }
}

void Api::validate_object(ApiRequest& req, const ResourceType& rt, json& obj, bool create, bool patch) {
  // Admission of the main resource (trainer_admission.h): defaults and mutating webhooks first.
  const bool main_resource = req.path.sub.empty();
  std::shared_ptr<const json> old;
  if (!create && main_resource && obj["metadata"].is_object())
    old = m_store.get_shared(rt, rt.namespaced ? obj["metadata"].value("namespace", "") : "",
                             obj["metadata"].value("name", ""));
  if (main_resource)
    trainer_admission_mutate(m_store, rt, obj, old.get(), m_kueue.manages_trainjobs());
  json causes = json::array();
  json& md = obj["metadata"];
  std::string name = md.value("name", "");
  std::string gen = md.value("generateName", "");
  bool core = rt.group.empty();
  auto check_name = [&](const std::string& v) {
    if (core && rt.kind == "Service") return check_dns1035_label(v);
    if (core && rt.kind == "Namespace") return check_dns_label(v);
    return check_dns_subdomain(v);
  };
  if (name.empty() && (gen.empty() || !create)) {
    causes.push_back(cause("FieldValueRequired", "metadata.name", "Required value: name or generateName is required"));
  } else if (!name.empty()) {
    std::string why = check_name(name);
    if (!why.empty()) causes.push_back(cause("FieldValueInvalid", "metadata.name", "Invalid value: \"" + name + "\": " + why));
  } else {
    std::string why = check_name(gen + "x");
    if (!why.empty())
      causes.push_back(cause("FieldValueInvalid", "metadata.generateName", "Invalid value: \"" + gen + "\": " + why));
  }
  if (core && rt.kind == "Pod") {
    const json& spec = obj.contains("spec") ? obj["spec"] : json();
    if (!spec.is_object() || !spec.contains("containers") || !spec["containers"].is_array() || spec["containers"].empty())
      causes.push_back(cause("FieldValueRequired", "spec.containers", "Required value"));
    else
      for (size_t i = 0; i < spec["containers"].size(); ++i) {
        const json& c = spec["containers"][i];
        std::string f = "spec.containers[" + std::to_string(i) + "]";
        if (!c.is_object() || c.value("name", "").empty()) causes.push_back(cause("FieldValueRequired", f + ".name", "Required value"));
        if (!c.is_object() || c.value("image", "").empty()) causes.push_back(cause("FieldValueRequired", f + ".image", "Required value"));
      }
  }
  // Strict errors, by their place in the body; an unknown field the request did not send (an
  // update or patch keeps what is stored) is dropped without a word.
  std::vector<std::pair<size_t, std::string>> strict;
  const bool builtin = m_store.is_builtin(rt);
  std::vector<std::string> unknown;
  const std::string patched = patch ? obj.dump() : "";  // what a patch's Invalid error quotes
  if (m_validator) {
    ValidationResult vr = m_validator(rt, obj);  // prunes obj
    unknown = std::move(vr.unknown_fields);
    if (!builtin)  // a built-in kind's rules are Go code, not its OpenAPI schema
      for (const auto& c : vr.causes) causes.push_back(c);
  }
  const auto& order = req.body_keys.key_order;
  for (const auto& f : unknown) {
    auto at = order.find(f);
    if (at != order.end()) strict.emplace_back(at->second, "unknown field \"" + f + "\"");
    else if (create && !patch) strict.emplace_back(std::numeric_limits<size_t>::max(), "unknown field \"" + f + "\"");
  }
  for (const auto& duplicate : req.body_keys.duplicates) {
    const size_t place = duplicate.first;
    const std::string& path = duplicate.second;  // (not a structured binding: clang 14 cannot capture one)
    // The decoder skips an unknown field's value: nothing under it is reported.
    const bool under_unknown = std::any_of(unknown.begin(), unknown.end(), [&](const std::string& f) {
      return path.size() > f.size() && path.compare(0, f.size(), f) == 0 && (path[f.size()] == '.' || path[f.size()] == '[');
    });
    if (!under_unknown) strict.emplace_back(place, "duplicate field \"" + path + "\"");
  }
  std::stable_sort(strict.begin(), strict.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  if (!strict.empty() && req.validation == "Strict") {
    std::string msg = "strict decoding error: ";
    for (size_t i = 0; i < strict.size(); ++i) msg += (i ? ", " : "") + strict[i].second;
    if (patch)  // patch.go applyPatch: an Invalid error on the field "patch"
      throw StatusError(
          422, "Invalid", " \"\" is invalid: patch: Invalid value: " + json(patched).dump() + ": " + msg,
          {{"causes", json::array({cause("FieldValueInvalid", "patch",
                                         "Invalid value: " + json(patched).dump() + ": " + msg)})}});
    throw bad_request(rt.kind + " in version \"" + rt.version + "\" cannot be handled as a " + rt.kind + ": " + msg);
  }
  if (req.validation == "Warn")
    for (const auto& s : strict) req.res.set_header("Warning", "299 - " + json(s.second).dump());
  object_size_causes(rt, obj, causes);
  trainer_crd_rules(rt, obj, old.get(), causes);
  if (!causes.empty()) throw invalid(rt, name.empty() ? gen : name, causes);
  if (main_resource)
    for (const auto& w : trainer_admission_validate(m_store, rt, obj, old.get()))
      req.res.set_header("Warning", "299 - " + json(w).dump());
}

}  // namespace kubesim
