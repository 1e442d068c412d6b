#include "core/string_store.h"

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace trainctl {

namespace {
constexpr std::uint32_t kBlockSize = 64 * 1024;
constexpr std::uint32_t kLengthSize = sizeof(std::uint32_t);
}  // namespace

StrRef StringStore::keep(std::string_view text) {
  if (text.empty()) return {};
  if (text.size() > UINT32_MAX - kLengthSize) throw std::length_error("string too long to keep");
  const auto need = static_cast<std::uint32_t>(text.size()) + kLengthSize;
  if (m_blocks.empty() || m_size - m_used < need) {
    // A string longer than a block gets a block of its own size.
    m_size = std::max(kBlockSize, need);
    m_blocks.push_back(std::make_unique<char[]>(m_size));
    m_used = 0;
  }
  char* at = m_blocks.back().get() + m_used;
  const auto length = static_cast<std::uint32_t>(text.size());
  std::memcpy(at, &length, kLengthSize);
  std::memcpy(at + kLengthSize, text.data(), text.size());
  const StrRef ref{static_cast<std::uint32_t>(m_blocks.size() - 1), m_used};
  m_used += need;
  return ref;
}

StrRef StringStore::intern(std::string_view text) { return m_interned_refs[intern_id(text)]; }

std::uint32_t StringStore::intern_id(std::string_view text) {
  if (text.empty()) return 0;
  if (auto it = m_interned.find(text); it != m_interned.end()) return it->second;
  const StrRef ref = keep(text);
  const auto id = static_cast<std::uint32_t>(m_interned_refs.size());
  m_interned_refs.push_back(ref);
  m_interned.emplace(view(ref), id);
  return id;
}

std::string_view StringStore::view(StrRef ref) const {
  if (ref.empty()) return {};
  const char* at = m_blocks[ref.block].get() + ref.offset;
  std::uint32_t length = 0;
  std::memcpy(&length, at, kLengthSize);
  return {at + kLengthSize, length};
}

void StringStore::clear() {
  m_interned.clear();
  m_interned_refs.resize(1);
  m_blocks.clear();
  m_used = m_size = 0;
}

}  // namespace trainctl
