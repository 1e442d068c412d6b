// The flags of one `trainctl submit <kind>` command, as data: each names the field it writes
// (of SubmitOptions or of the kind's own options) and its help. submit/flags.h and the kinds
// fill a FlagSet; cmd/submit.cpp registers it with CLI11, in order, so lib/ never names CLI11
// (as kubectl's option structs fill a pflag.FlagSet in AddFlags, which cobra then adds).
#pragma once

#include <deque>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace trainctl::submit {

// Where a flag's value goes.
using FlagTarget = std::variant<std::string*, int*, bool*, std::optional<int>*, std::vector<std::string>*>;

struct Flag {
  std::string names;  // CLI11's spelling: "-e,--env", "--queue{true}", "command" (the positional)
  FlagTarget into;
  std::string help;
  bool is_switch = false;   // takes no value (--gang), or its {default} unless --name=VALUE
  bool repeatable = false;  // one value per occurrence, every occurrence kept
  bool required = false;
  bool show_default = false;  // --help shows the field's value at registration
  bool hidden = false;        // not in --help (Arena's spellings, flags another command takes)
  char delimiter = '\0';      // a repeatable flag's value also splits on it

  // Its names without CLI11's {default}: "-e", "--env".
  std::vector<std::string> each_name() const;

  Flag& require() {
    required = true;
    return *this;
  }
  Flag& with_default() {
    show_default = true;
    return *this;
  }
  Flag& hide() {
    hidden = true;
    return *this;
  }
  Flag& split_on(char c) {
    delimiter = c;
    return *this;
  }
};

class FlagSet {
 public:
  // --name VALUE (or the positional "command").
  template <typename T>
  Flag& option(const std::string& names, T& into, const std::string& help = "") {
    return add({names, &into, help});
  }
  // A switch: a bool, or a string that takes the value in {} of its name unless given one.
  template <typename T>
  Flag& flag(const std::string& names, T& into, const std::string& help) {
    Flag f{names, &into, help};
    f.is_switch = true;
    return add(std::move(f));
  }
  // Repeatable, one value each time, so that a following positional command is never swallowed.
  Flag& repeatable(const std::string& names, std::vector<std::string>& into, const std::string& help) {
    Flag f{names, &into, help};
    f.repeatable = true;
    return add(std::move(f));
  }
  // A hidden alias writing into the same field (Arena's deprecated camelCase spellings).
  template <typename T>
  void alias(const std::string& name, T& into) {
    option(name, into).hide();
  }
  void alias(const std::string& name, std::vector<std::string>& into) { repeatable(name, into, "").hide(); }

  // The flag one of whose names is `name` (to change its help); throws Error when none is.
  Flag& find(const std::string& name);
  // The same, or nullptr.
  const Flag* lookup(const std::string& name) const;
  const std::deque<Flag>& flags() const { return flags_; }

  Flag& add(Flag f) {
    flags_.push_back(std::move(f));
    return flags_.back();
  }

 private:
  std::deque<Flag> flags_;  // a deque: the Flag& handed out stay valid
};

}  // namespace trainctl::submit
