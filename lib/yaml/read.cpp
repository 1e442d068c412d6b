#include "yaml/read.h"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <cmath>
#include <sstream>

#include "core/base64.h"
#include "yaml/number.h"
#include "yaml/scalar.h"

namespace trainctl::yaml {

namespace {

constexpr std::string_view kCoreTag = "tag:yaml.org,2002:";
constexpr int kMaxDepth = 1000;  // deeper than yaml-cpp parses: only an alias inside its anchor

std::string position_text(int line, int column) {
  if (line <= 0) return "";
  return "line " + std::to_string(line) + ", column " + std::to_string(column) + ": ";
}

class Converter {
 public:
  Converter(const std::string& origin, size_t text_size)
      : m_origin(origin), m_budget(100 * (text_size + 100)) {}

  nlohmann::json value(const YAML::Node& n, int depth) {
    if (++m_decoded > m_budget) fail(n, "document contains excessive aliasing");
    if (depth > kMaxDepth)
      fail(n, "an alias refers to a node that contains it (or nesting is deeper than 1000)");
    switch (n.Type()) {
      case YAML::NodeType::Scalar:
        return scalar(n);
      case YAML::NodeType::Sequence: {
        nlohmann::json out = nlohmann::json::array();
        for (const auto& item : n) out.push_back(value(item, depth + 1));
        return out;
      }
      case YAML::NodeType::Map: {
        nlohmann::json out = nlohmann::json::object();
        for (const auto& kv : n) {
          if (is_merge_key(kv.first)) {
            merge(out, kv.second, depth + 1);
          } else {
            out[key(kv.first)] = value(kv.second, depth + 1);
          }
        }
        return out;
      }
      case YAML::NodeType::Null:
      case YAML::NodeType::Undefined:
        break;
    }
    return nullptr;
  }

  [[noreturn]] void fail(const YAML::Node& n, const std::string& detail) const {
    const YAML::Mark m = n.Mark();
    throw ParseError(m_origin, m.is_null() ? 0 : m.line + 1, m.is_null() ? 0 : m.column + 1, detail);
  }

 private:
  // The scalar resolved as go-yaml v2's decoder does (decode.go scalar, resolve.go resolve);
  // floats keep their double value here (keys format it their own way).
  nlohmann::json resolved(const YAML::Node& n) {
    const std::string& tag = n.Tag();
    const std::string& text = n.Scalar();
    if (tag == "?") {  // plain
      nlohmann::json v;
      resolve_plain(text, &v);
      return v;
    }
    if (tag.rfind(kCoreTag, 0) != 0) return text;  // quoted ("!"), or a local tag: the text
    const std::string name = tag.substr(kCoreTag.size());
    if (name == "binary") {
      if (auto bytes = base64_decode(text)) return *bytes;
      fail(n, "!!binary value contains invalid base64 data");
    }
    static const std::pair<const char*, ScalarKind> kTyped[] = {{"null", ScalarKind::Null},
                                                                {"bool", ScalarKind::Bool},
                                                                {"int", ScalarKind::Int},
                                                                {"float", ScalarKind::Float},
                                                                {"timestamp", ScalarKind::Timestamp}};
    for (const auto& [typed, want] : kTyped) {
      if (name != typed) continue;
      nlohmann::json v;
      const ScalarKind got = resolve_plain(text, &v);
      if (got == want) return v;
      if (want == ScalarKind::Float && got == ScalarKind::Int) return v.get<double>();
      // go-yaml also quotes the text; it is left out here, as it may be a credential.
      fail(n, std::string("cannot decode ") + kind_tag(got) + " as a !!" + name);
    }
    return text;  // !!str, and tags go-yaml does not resolve
  }

  nlohmann::json scalar(const YAML::Node& n) {
    nlohmann::json v = resolved(n);
    if (!v.is_number_float()) return v;
    const double f = v.get<double>();
    if (!std::isfinite(f))
      fail(n, "`" + n.Scalar() + "` is not a number JSON can hold (quote it to keep the text)");
    return detail::json_number(f);
  }

  // sigs.k8s.io/yaml convertToJSONableObject: int, float and bool keys become strings.
  std::string key(const YAML::Node& k) {
    if (k.Type() != YAML::NodeType::Scalar) {
      fail(k, k.Type() == YAML::NodeType::Null ? "a map key is null (quote it: \"null\", \"~\" or \"\")"
                                               : "a map key is a list or a map");
    }
    const nlohmann::json v = resolved(k);
    if (v.is_string()) return v.get<std::string>();
    if (v.is_boolean()) return v.get<bool>() ? "true" : "false";
    if (v.is_number_integer() && !v.is_number_unsigned()) return std::to_string(v.get<std::int64_t>());
    if (v.is_number_float()) return detail::float_key(v.get<double>());
    fail(k, "unsupported map key (an integer above 2^63-1)");  // uint64, as in sigs.k8s.io/yaml
  }

  // go-yaml v2 isMerge: a plain "<<" key, or one tagged !!merge.
  static bool is_merge_key(const YAML::Node& k) {
    return k.Type() == YAML::NodeType::Scalar && k.Scalar() == "<<" &&
           (k.Tag() == "?" || k.Tag() == std::string(kCoreTag) + "merge");
  }

  // go-yaml v2 decoder.merge: the map's entries are set at this place of the mapping; of a
  // list of maps the earlier ones win.
  void merge(nlohmann::json& out, const YAML::Node& v, int depth) {
    auto merge_map = [&](const YAML::Node& m) {
      if (!m.IsMap()) fail(v, "map merge requires map or sequence of maps as the value");
      nlohmann::json merged = value(m, depth);
      for (auto& [k, item] : merged.items()) out[k] = std::move(item);
    };
    if (v.IsSequence()) {
      for (size_t i = v.size(); i-- > 0;) merge_map(v[i]);
    } else {
      merge_map(v);
    }
  }

  const std::string& m_origin;
  size_t m_budget;
  size_t m_decoded = 0;
};

template <typename Load>
auto load(const std::string& origin, Load&& fn) {
  try {
    return fn();
  } catch (const YAML::Exception& e) {
    throw ParseError(origin, e.mark.is_null() ? 0 : e.mark.line + 1, e.mark.is_null() ? 0 : e.mark.column + 1,
                     e.msg);
  }
}

// yaml-cpp 0.7's LoadAll never ends on a stray ',' where a node should start ("- a\n,",
// "--- ,"): its parser hands out empty documents without consuming the token, and memory
// grows until the process dies. A stream holds at most one document more than it has
// document markers ("---", "..." at the start of a line), so a first pass that only counts
// documents stops there, with go-yaml's message for the same input (scannerc.go).
class DocumentCounter : public YAML::EventHandler {
 public:
  void OnDocumentStart(const YAML::Mark& mark) override { last = mark; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark&, YAML::anchor_t) override {}
  void OnAlias(const YAML::Mark&, YAML::anchor_t) override {}
  void OnScalar(const YAML::Mark&, const std::string&, YAML::anchor_t, const std::string&) override {}
  void OnSequenceStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark&, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {}
  void OnMapEnd() override {}
  YAML::Mark last = YAML::Mark::null_mark();
};

void check_document_count(const std::string& text, const std::string& origin) {
  size_t markers = 0;
  for (size_t at = 0; at < text.size(); at = text.find('\n', at) + 1) {
    if (text.compare(at, 3, "---") == 0 || text.compare(at, 3, "...") == 0) ++markers;
    if (text.find('\n', at) == std::string::npos) break;
  }
  std::istringstream in(text);
  YAML::Parser parser(in);
  DocumentCounter counter;
  for (size_t docs = 0; parser.HandleNextDocument(counter);)
    if (++docs > markers + 1) {
      const int line = counter.last.is_null() ? 0 : counter.last.line + 1;
      throw ParseError(origin, line, 0, "did not find expected node content");
    }
}

}  // namespace

ParseError::ParseError(const std::string& origin, int line, int column, const std::string& detail)
    : ConfigError((origin.empty() ? "" : origin + ": ") + position_text(line, column) + detail),
      m_line(line),
      m_column(column),
      m_detail(detail) {}

nlohmann::json parse(std::string_view text, const std::string& origin) {
  const std::string input(text);
  const YAML::Node doc = load(origin, [&] {
    check_document_count(input, origin);
    return YAML::Load(input);
  });
  return Converter(origin, text.size()).value(doc, 0);
}

std::vector<nlohmann::json> parse_all(std::string_view text, const std::string& origin) {
  const std::string input(text);
  const std::vector<YAML::Node> docs = load(origin, [&] {
    check_document_count(input, origin);
    return YAML::LoadAll(input);
  });
  std::vector<nlohmann::json> out;
  Converter converter(origin, text.size());
  for (const auto& doc : docs) {
    nlohmann::json j = converter.value(doc, 0);
    if (!j.is_null()) out.push_back(std::move(j));
  }
  return out;
}

}  // namespace trainctl::yaml
