#include "doctor/report_view.h"

#include <algorithm>

#include "print/color.h"
#include "print/escape.h"

namespace trainctl::doctor {

namespace {

struct Mark {
  const char* symbol;
  print::Color color;
};

Mark mark_of(Status s) {
  switch (s) {
    case Status::Ok:
      return {"✓", print::Color::Green};
    case Status::Missing:
      return {"✗", print::Color::Red};
    case Status::Warning:
      return {"!", print::Color::Yellow};
    case Status::Info:
      return {"·", print::Color::Dim};
  }
  return {"·", print::Color::Dim};
}

// The status cell: a symbol on a UTF-8 terminal, else the word padded to the longest word.
std::string status_cell(Status s, const IOStreams& io) {
  if (!io.unicode()) {
    std::string word = status_name(s);
    word.resize(7, ' ');  // "warning", "missing"
    return word;
  }
  const Mark m = mark_of(s);
  return io.color() ? print::paint(m.symbol, m.color) : std::string(m.symbol);
}

std::string padded(const std::string& text, size_t width) {
  const int w = print::display_width(text);
  return text + std::string(width > static_cast<size_t>(w) ? width - static_cast<size_t>(w) : 0, ' ');
}

}  // namespace

void write_report(std::ostream& out, const Report& r, const IOStreams& io) {
  out << "Cluster:    " << print::sanitize(r.server);
  if (!r.context.empty() || !r.kubernetes_version.empty()) {
    out << " (";
    if (!r.context.empty()) out << "context " << print::sanitize(r.context);
    if (!r.context.empty() && !r.kubernetes_version.empty()) out << ", ";
    if (!r.kubernetes_version.empty()) out << "Kubernetes " << r.kubernetes_version;
    out << ")";
  }
  out << "\nNamespace:  " << print::sanitize(r.namespace_) << "\nChecked:    " << r.api_requests
      << " requests to the API server in one round";
  if (r.round_trips > 1) out << ", then one query to Prometheus";
  out << "\n";

  for (const Section s : {Section::JobApis, Section::Scheduling, Section::Gpus, Section::Metrics, Section::Permissions}) {
    // Names are aligned within a section.
    size_t name_width = 0;
    for (const auto& f : r.findings)
      if (f.section == s) name_width = std::max(name_width, static_cast<size_t>(print::display_width(f.name)));
    const std::string indent(2 + (io.unicode() ? 1 : 7) + 2 + name_width + 2, ' ');
    bool title = false;
    for (const auto& f : r.findings) {
      if (f.section != s) continue;
      if (!title) out << "\n" << section_title(s) << "\n";
      title = true;
      out << "  " << status_cell(f.status, io) << "  " << padded(print::sanitize(f.name), name_width) << "  "
          << print::sanitize(f.result) << "\n";
      if (f.status == Status::Ok) continue;
      if (!f.reason.empty()) out << indent << "why: " << print::sanitize(f.reason) << "\n";
      if (!f.fix.empty()) out << indent << "fix: " << print::sanitize(f.fix) << "\n";
    }
  }
  out << "\n";
  if (r.ready) {
    out << "Ready: " << r.default_command << " can create " << r.default_kind << "s in namespace "
        << print::sanitize(r.namespace_) << ".\n";
    return;
  }
  out << "Not ready: " << r.default_command << " cannot run " << r.default_kind << "s in namespace "
      << print::sanitize(r.namespace_) << ":\n";
  for (const auto& why : r.not_ready_because) out << "  - " << print::sanitize(why) << "\n";
}

}  // namespace trainctl::doctor
