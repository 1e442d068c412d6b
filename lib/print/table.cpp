#include "print/table.h"

#include <algorithm>

#include "print/color.h"
#include "print/escape.h"

namespace trainctl::print {

namespace {
constexpr int kPadding = 2;
constexpr int kMinShrunkWidth = 8;
}  // namespace

Table::Table(std::vector<std::string> headers) : m_headers(std::move(headers)) {}

void Table::add_row(std::vector<std::string> cells) {
  for (auto& c : cells) c = sanitize(c);
  cells.resize(std::max(cells.size(), m_headers.size()));
  m_rows.push_back(std::move(cells));
}

std::string Table::render(const IOStreams& io) const { return render(io.is_tty(), io.color(), io.width()); }

std::string Table::render(bool tty, bool color, int width) const {
  std::vector<std::vector<std::string>> lines;
  lines.push_back(m_headers);
  if (m_underline) {
    std::vector<std::string> dashes;
    for (const auto& h : m_headers) dashes.emplace_back(static_cast<size_t>(display_width(h)), '-');
    lines.push_back(std::move(dashes));
  }
  for (const auto& r : m_rows) lines.push_back(r);
  size_t ncols = 0;
  for (const auto& l : lines) ncols = std::max(ncols, l.size());
  if (ncols == 0) return "";

  std::vector<int> widths(ncols, 0);
  for (const auto& l : lines)
    for (size_t c = 0; c < l.size(); ++c) widths[c] = std::max(widths[c], display_width(l[c]));

  // Fit the terminal: shorten the widest column (never below a few characters).
  if (tty && width > 0) {
    int total = 0;
    for (size_t c = 0; c < ncols; ++c) total += widths[c] + (c + 1 < ncols ? kPadding : 0);
    if (total > width) {
      size_t widest = static_cast<size_t>(std::max_element(widths.begin(), widths.end()) - widths.begin());
      int target = std::max(kMinShrunkWidth, widths[widest] - (total - width));
      for (auto& l : lines)
        if (widest < l.size()) l[widest] = truncate_to_width(l[widest], target, "…");
      widths[widest] = std::min(widths[widest], target);
    }
  }

  std::string out;
  for (size_t li = 0; li < lines.size(); ++li) {
    const auto& l = lines[li];
    const bool data_row = li >= (m_underline ? 2u : 1u);
    // The last non-empty cell ends the line: no trailing padding.
    size_t last = l.size();
    while (last > 0 && l[last - 1].empty()) --last;
    std::string line;
    for (size_t c = 0; c < last; ++c) {
      std::string cell = l[c];
      const int w = display_width(cell);
      if (color && data_row && static_cast<int>(c) == m_status_column) cell = paint(cell, status_color(l[c]));
      line += cell;
      if (c + 1 < last) line.append(static_cast<size_t>(widths[c] - w + kPadding), ' ');
    }
    out += line;
    out += '\n';
  }
  return out;
}

}  // namespace trainctl::print
