#include "render/templates.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>

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

namespace {
// Writes `text` to `p` through a new file beside it, renamed over `p`: a symbolic link at
// `p` is replaced, never followed (so --force cannot overwrite the file a link points to),
// and a reader never sees half a file. The file is not group- or world-writable.
void write_replacing(const fs::path& p, const std::string& text) {
  std::string tmp = (p.parent_path() / ("." + p.filename().string() + ".XXXXXX")).string();
  const int fd = ::mkstemp(tmp.data());
  if (fd < 0) throw Error("cannot write " + p.string() + ": " + std::strerror(errno));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  bool ok = ::fchmod(fd, 0666 & ~mask & ~mode_t{022}) == 0;
  for (size_t done = 0; ok && done < text.size();) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    ok = n > 0;
    if (ok) done += static_cast<size_t>(n);
  }
  const int error = ok ? 0 : errno;
  ok = ::close(fd) == 0 && ok;
  if (!ok || ::rename(tmp.c_str(), p.c_str()) != 0) {
    const int e = error ? error : errno;
    ::unlink(tmp.c_str());
    throw Error("cannot write " + p.string() + ": " + std::strerror(e));
  }
}
}  // namespace

std::vector<std::string> export_templates(const std::string& dir, bool force) {
  std::vector<std::string> written;
  for (const auto& [name, text] : embedded_templates()) {
    const fs::path p = fs::path(dir) / name;
    std::error_code ec;
    // Directories below `dir` are not followed when they are links: the files would land
    // wherever those point.
    fs::path sub = fs::path(dir);
    for (const auto& part : fs::path(name).parent_path()) {
      sub /= part;
      if (fs::is_symlink(fs::symlink_status(sub, ec)))
        throw Error(sub.string() + " is a symbolic link; trainctl does not write templates through it");
    }
    const fs::file_status st = fs::symlink_status(p, ec);
    if (fs::exists(st) && !force) throw Error(p.string() + " already exists (use --force to overwrite)");
    if (fs::is_directory(st)) throw Error(p.string() + " is a directory");
    create_dirs_not_writable_by_others(p.parent_path());
    write_replacing(p, text);
    written.push_back(p.string());
  }
  return written;
}

}  // namespace trainctl::render
