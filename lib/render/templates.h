// Where manifest templates come from: the set compiled into the binary (templates/ in the
// source tree, keyed by path relative to it, e.g. "pytorch/job.yaml"), optionally overridden
// file by file from a directory (--template-dir, TRAINCTL_TEMPLATE_DIR).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace trainctl::render {

// Generated at build time by cmake/EmbedTemplates.cmake.
const std::map<std::string, std::string>& embedded_templates();

class TemplateSet {
 public:
  // override_dir empty: only the built-in templates.
  explicit TemplateSet(std::string override_dir = {});

  // The text of template NAME for the job kind directory KIND ("pytorch", "mpi",
  // "volcano", "pytorch-none"), looked up in this order: OVERRIDE/KIND/NAME,
  // OVERRIDE/common/NAME, built-in KIND/NAME, built-in common/NAME. Throws Error when
  // none exists. `source` receives where it came from (for error messages).
  std::string get(const std::string& kind, const std::string& name, std::string* source = nullptr) const;

  const std::string& override_dir() const { return m_dir; }

 private:
  std::string m_dir;
};

// The template directory to use: the flag value if set, else $TRAINCTL_TEMPLATE_DIR, else "".
// Throws UsageError when the chosen directory does not exist.
std::string resolve_template_dir(const std::string& flag_value);

// Writes every built-in template under DIR (creating sub-directories), so that an admin can
// edit copies and point --template-dir at them. Refuses to overwrite existing files unless
// `force`; a symbolic link in their place is replaced, never followed, and links among the
// sub-directories are refused. Returns the paths written.
std::vector<std::string> export_templates(const std::string& dir, bool force);

}  // namespace trainctl::render
