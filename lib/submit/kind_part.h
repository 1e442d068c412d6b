// A kind's own parts of SubmitOptions or of the Plan (the `kind_data` member of each): the
// options only its command has (kinds/tfjob.h TFOptions), what only it plans. The shared
// structs hold no field of one kind; a kind keeps its parts as types of its own. A holder
// carries several parts, one of each type, so that a part several kinds share (the torchrun
// flags of submit pytorch, whose command line makes a PyTorchJob, an Indexed Job or a
// TrainJob: kinds/torchrun.h) sits beside a kind's own.
#pragma once

#include <any>
#include <deque>

namespace trainctl::submit {

// The parts of a holder, one per type. A part stays where it is while others are added (the
// flags of a command are bound to its fields).
class KindParts {
 public:
  template <typename T>
  const T* find() const {
    for (const std::any& part : m_parts)
      if (const T* p = std::any_cast<T>(&part)) return p;
    return nullptr;
  }
  template <typename T>
  T& get_or_add() {
    for (std::any& part : m_parts)
      if (T* p = std::any_cast<T>(&part)) return *p;
    return *std::any_cast<T>(&m_parts.emplace_back(std::in_place_type<T>));
  }

 private:
  std::deque<std::any> m_parts;
};

// The part of type T: what the kind's flags or plan wrote, else T's defaults (options built
// without the command's flags, as doctor's dry run does).
template <typename T, typename Holder>
const T& kind_part(const Holder& holder) {
  if (const T* part = holder.kind_data.template find<T>()) return *part;
  static const T defaults{};
  return defaults;
}

// The part of type T to write, made when there is none yet.
template <typename T, typename Holder>
T& set_kind_part(Holder& holder) {
  return holder.kind_data.template get_or_add<T>();
}

}  // namespace trainctl::submit
