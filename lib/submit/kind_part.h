// A kind's own part of SubmitOptions or of the Plan (the `kind_data` member of each): the
// options only its command has (kinds/tfjob.h TFOptions), what only it plans. The shared
// structs hold no field of one kind; the kind keeps its part as its own type.
#pragma once

#include <any>

namespace trainctl::submit {

// The part of type T: what the kind's flags or plan wrote, else T's defaults (options built
// without the command's flags, as doctor's dry run does).
template <typename T, typename Holder>
const T& kind_part(const Holder& holder) {
  if (const T* part = std::any_cast<T>(&holder.kind_data)) return *part;
  static const T defaults{};
  return defaults;
}

// The part of type T to write, made when there is none yet.
template <typename T, typename Holder>
T& set_kind_part(Holder& holder) {
  if (T* part = std::any_cast<T>(&holder.kind_data)) return *part;
  return holder.kind_data.template emplace<T>();
}

}  // namespace trainctl::submit
