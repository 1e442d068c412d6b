// Strings kept for as long as a large structure lives, packed one after another in big
// blocks and named by an 8-byte StrRef: a string costs its bytes and a 4-byte length, not a
// std::string (32 bytes) and a heap block of its own. Values that repeat (namespaces, node
// IPs, reasons) can be interned, so that every equal value is the same StrRef and stored
// once. Nothing is freed before clear() or the store's end.
#pragma once

#include <cstdint>
#include <memory>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace trainctl {

// A string in a StringStore; the default one is "".
struct StrRef {
  std::uint32_t block = UINT32_MAX;
  std::uint32_t offset = 0;

  bool empty() const { return block == UINT32_MAX; }
  // Interned refs are equal exactly when their text is.
  friend bool operator==(StrRef, StrRef) = default;
};

class StringStore {
 public:
  StringStore() = default;
  StringStore(const StringStore&) = delete;
  StringStore& operator=(const StringStore&) = delete;
  StringStore(StringStore&&) = default;
  StringStore& operator=(StringStore&&) = default;

  // A copy of `text`, a new one every time.
  StrRef keep(std::string_view text);
  // The one copy of `text` this store interns.
  StrRef intern(std::string_view text);
  // The same copy by its number (0 is ""): 4 bytes where a record holds many such values.
  std::uint32_t intern_id(std::string_view text);
  std::string_view view(StrRef ref) const;
  std::string_view view_id(std::uint32_t id) const { return view(m_interned_refs[id]); }
  void clear();

 private:
  std::vector<std::unique_ptr<char[]>> m_blocks;
  std::uint32_t m_used = 0;                                 // bytes used of the last block
  std::uint32_t m_size = 0;                                 // its size
  std::unordered_map<std::string_view, std::uint32_t> m_interned;  // views into the blocks -> id
  std::vector<StrRef> m_interned_refs{StrRef{}};                   // by intern_id
};

}  // namespace trainctl
