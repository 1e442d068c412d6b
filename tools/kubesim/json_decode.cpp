#include "kubesim/json_decode.h"

#include "core/utf8.h"

#include <functional>
#include <unordered_set>

namespace kubesim {

namespace {

// The paths of keys as the strict decoder names them, and the repeated ones.
struct KeyTracker {
  struct Frame {
    bool array = false;
    size_t index = 0;
    std::string path;
    std::string key_path;  // of the member being read
    std::unordered_set<std::string> keys;
  };
  std::vector<Frame> frames;
  KeyReport* out = nullptr;
  size_t next = 0;

  std::string child_path() {
    if (frames.empty()) return "";
    Frame& f = frames.back();
    if (f.array) return f.path + "[" + std::to_string(f.index++) + "]";
    return f.key_path;
  }
  bool operator()(int, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
    using E = nlohmann::json::parse_event_t;
    switch (event) {
      case E::object_start:
      case E::array_start: {
        std::string path = child_path();
        frames.push_back({event == E::array_start, 0, std::move(path), {}, {}});
        break;
      }
      case E::object_end:
      case E::array_end:
        frames.pop_back();
        break;
      case E::key: {
        Frame& f = frames.back();
        const std::string& key = parsed.get_ref<const std::string&>();
        f.key_path = f.path.empty() ? key : f.path + "." + key;
        const size_t place = next++;
        if (!f.keys.insert(key).second) out->duplicates.emplace_back(place, f.key_path);
        out->key_order.emplace(f.key_path, place);
        break;
      }
      case E::value:
        if (!frames.empty() && frames.back().array) ++frames.back().index;
        break;
    }
    return true;
  }
};

}  // namespace

DecodedJson decode_json(std::string_view body) {
  const std::string text = scan_go_json(body);
  DecodedJson out;
  KeyTracker keys;
  keys.out = &out.keys;
  try {
    out.value = nlohmann::json::parse(text, std::ref(keys));
  } catch (const nlohmann::json::out_of_range& e) {
    // "number overflow parsing '1e999'": the number is between the quotes.
    const std::string what = e.what();
    const size_t open = what.find('\''), close = what.rfind('\'');
    const std::string number = open < close ? what.substr(open + 1, close - open - 1) : "";
    throw JsonValueError("json: cannot unmarshal number " + number + " into Go value of type float64");
  } catch (const nlohmann::json::exception& e) {
    throw JsonSyntaxError(e.what());  // not expected: the scanner accepted the text
  }
  return out;
}

std::string go_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const size_t len = trainctl::decode_utf8(text, i, cp);
    if (len == 0) {
      out += kUtf8Replacement;
      ++i;
    } else {
      out.append(text.substr(i, len));
      i += len;
    }
  }
  return out;
}

}  // namespace kubesim
