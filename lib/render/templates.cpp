#include "render/templates.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "core/errors.h"
#include "core/file.h"

namespace trainctl::render {

namespace fs = std::filesystem;

TemplateSet::TemplateSet(std::string override_dir) : m_dir(std::move(override_dir)) {}

std::string TemplateSet::get(const std::string& kind, const std::string& name, std::string* source) const {
  const std::string candidates[] = {kind + "/" + name, "common/" + name};
  if (!m_dir.empty()) {
    for (const auto& c : candidates) {
      fs::path p = fs::path(m_dir) / c;
      std::error_code ec;
      if (!fs::is_regular_file(p, ec)) continue;
      std::string error;
      auto text = read_file(p.string(), error);
      if (!text) throw Error("cannot read template " + p.string() + ": " + error);
      if (source) *source = p.string();
      return *text;
    }
  }
  const auto& builtin = embedded_templates();
  for (const auto& c : candidates) {
    auto it = builtin.find(c);
    if (it != builtin.end()) {
      if (source) *source = "built-in " + c;
      return it->second;
    }
  }
  throw Error("no template " + kind + "/" + name + " (nor common/" + name + ")");
}

std::string resolve_template_dir(const std::string& flag_value) {
  std::string dir = flag_value;
  std::string from = "--template-dir";
  if (dir.empty()) {
    const char* env = std::getenv("TRAINCTL_TEMPLATE_DIR");
    if (env) dir = env;
    from = "TRAINCTL_TEMPLATE_DIR";
  }
  if (dir.empty()) return dir;
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) throw UsageError(from + " \"" + dir + "\" is not a directory");
  return dir;
}

namespace {
// Creates the missing directories of `d`; those created are not group- or world-writable
// whatever the umask (existing ones, such as a shared /tmp, are left alone).
void create_dirs_not_writable_by_others(const fs::path& d) {
  std::error_code ec;
  if (d.empty() || fs::exists(d, ec)) return;
  create_dirs_not_writable_by_others(d.parent_path());
  fs::create_directory(d, ec);
  if (ec) throw Error("cannot create " + d.string() + ": " + ec.message());
  fs::permissions(d, fs::perms::group_write | fs::perms::others_write, fs::perm_options::remove, ec);
}
}  // namespace

std::vector<std::string> export_templates(const std::string& dir, bool force) {
  std::vector<std::string> written;
  for (const auto& [name, text] : embedded_templates()) {
    fs::path p = fs::path(dir) / name;
    std::error_code ec;
    if (!force && fs::exists(p, ec)) throw Error(p.string() + " already exists (use --force to overwrite)");
    create_dirs_not_writable_by_others(p.parent_path());
    std::ofstream out(p, std::ios::binary | std::ios::trunc);
    out << text;
    out.close();
    if (!out) throw Error("cannot write " + p.string());
    fs::permissions(p, fs::perms::group_write | fs::perms::others_write, fs::perm_options::remove, ec);
    written.push_back(p.string());
  }
  return written;
}

}  // namespace trainctl::render
