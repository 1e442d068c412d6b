#include "kubesim/token_file.h"

#include <sstream>
#include <stdexcept>

#include "core/file.h"
#include "core/text.h"

namespace kubesim {

namespace {

// One CSV record (RFC 4180 quoting, as Go's encoding/csv reads it with TrimLeadingSpace).
std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out(1);
  bool quoted = false, at_start = true;
  for (size_t i = 0; i < line.size(); ++i) {
    const char c = line[i];
    if (quoted) {
      if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
        out.back() += '"';
        ++i;
      } else if (c == '"') {
        quoted = false;
      } else {
        out.back() += c;
      }
    } else if (c == ',') {
      out.emplace_back();
      at_start = true;
      continue;
    } else if (c == '"' && at_start) {
      quoted = true;
    } else if (!(at_start && (c == ' ' || c == '\t'))) {
      out.back() += c;
    } else {
      continue;
    }
    at_start = false;
  }
  if (quoted) throw std::invalid_argument("extraneous or missing \" in quoted-field");
  return out;
}

}  // namespace

std::vector<TokenUser> parse_token_auth_file(const std::string& text, const std::string& file) {
  std::vector<TokenUser> out;
  std::istringstream in(text);
  int n = 0;
  for (std::string line; std::getline(in, line);) {
    ++n;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (trainctl::trim(line).empty()) continue;
    std::vector<std::string> f;
    try {
      f = csv_fields(line);
    } catch (const std::invalid_argument& e) {
      throw std::runtime_error("token file " + file + " line " + std::to_string(n) + ": " + e.what());
    }
    if (f.size() < 3)
      throw std::runtime_error("token file '" + file + "' must have at least 3 columns (token, user name, user uid), found " +
                               std::to_string(f.size()) + " (line " + std::to_string(n) + ")");
    TokenUser t{f[0], {f[1], {}}};
    if (f.size() > 3) {
      std::istringstream groups(f[3]);
      for (std::string g; std::getline(groups, g, ',');)
        if (!trainctl::trim(g).empty()) t.user.groups.emplace_back(trainctl::trim(g));
    }
    t.user.groups.emplace_back("system:authenticated");
    out.push_back(std::move(t));
  }
  return out;
}

std::vector<TokenUser> load_token_auth_file(const std::string& path) {
  return parse_token_auth_file(trainctl::read_file(path), path);
}

}  // namespace kubesim
