// A container's launcher command: Kubernetes' $(VAR) expansion of command and args, then a
// small POSIX sh reader for `sh -c SCRIPT` (see rendezvous_shell.h for what it understands).
#include "kubesim/controllers/rendezvous_shell.h"

#include <cctype>
#include <regex>
#include <set>

namespace kubesim {

using nlohmann::json;

namespace {

enum class Quote { None, Double, Single };

// One piece of a word as written: literal text, a parameter expansion, or something whose
// value kubesim cannot know (command substitution, arithmetic, $@ ...).
struct Part {
  enum class Kind { Literal, Param, Unknown } kind = Kind::Literal;
  std::string text;   // literal text, or the parameter name
  Quote quote = Quote::None;
  bool has_default = false;  // ${NAME:-word} / ${NAME-word}
  bool colon = false;        // ':-': the default also replaces an empty value
  std::string fallback;
};

struct RawWord {
  std::vector<Part> parts;
};

struct Script {
  bool supported = true;
  std::vector<std::vector<RawWord>> commands;
};

bool name_char(char c, bool first) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_' || (!first && std::isdigit(static_cast<unsigned char>(c)));
}

class Lexer {
 public:
  explicit Lexer(const std::string& s) : m_s(s) {}

  Script run() {
    Script out;
    std::vector<RawWord> cmd;
    RawWord word;
    bool in_word = false, drop_next = false;
    auto end_word = [&] {
      if (!in_word) return;
      if (drop_next)
        drop_next = false;  // the target of a redirection
      else
        cmd.push_back(std::move(word));
      word = RawWord{};
      in_word = false;
    };
    auto end_command = [&] {
      end_word();
      if (!cmd.empty()) out.commands.push_back(std::move(cmd));
      cmd.clear();
    };
    while (m_i < m_s.size() && m_ok) {
      const char c = m_s[m_i];
      if (c == ' ' || c == '\t') {
        end_word();
        ++m_i;
      } else if (c == '\n' || c == ';') {
        if (c == ';' && peek(1) == ';') m_ok = false;  // case ... ;;
        end_command();
        ++m_i;
      } else if (c == '#' && !in_word) {
        while (m_i < m_s.size() && m_s[m_i] != '\n') ++m_i;
      } else if (c == '&' || c == '|') {
        if (c == '&' && peek(1) == '>') {  // &> file
          end_word();
          m_i += peek(2) == '>' ? 3 : 2;
          drop_next = true;
          continue;
        }
        end_command();
        m_i += peek(1) == c ? 2 : 1;
      } else if (c == '<' || c == '>') {
        // An all-digit word just before is the redirected descriptor (2>&1).
        if (in_word && word.parts.size() == 1 && word.parts[0].kind == Part::Kind::Literal &&
            word.parts[0].quote == Quote::None &&
            word.parts[0].text.find_first_not_of("0123456789") == std::string::npos) {
          word = RawWord{};
          in_word = false;
        }
        end_word();
        if (c == '<' && peek(1) == '<') m_ok = false;  // here-document
        ++m_i;
        if (m_i < m_s.size() && (m_s[m_i] == '>' || m_s[m_i] == '&' || m_s[m_i] == '|')) ++m_i;
        drop_next = true;
      } else if (c == '(' || c == ')') {
        m_ok = false;
      } else {
        in_word = true;
        read_word_char(word);
      }
    }
    end_command();
    out.supported = m_ok && !drop_next;
    return out;
  }

 private:
  char peek(size_t k) const { return m_i + k < m_s.size() ? m_s[m_i + k] : '\0'; }

  void literal(RawWord& w, char c, Quote q) {
    if (w.parts.empty() || w.parts.back().kind != Part::Kind::Literal || w.parts.back().quote != q)
      w.parts.push_back(Part{Part::Kind::Literal, "", q});
    w.parts.back().text += c;
  }

  void read_word_char(RawWord& w) {
    const char c = m_s[m_i];
    if (c == '\'') {
      const size_t end = m_s.find('\'', m_i + 1);
      if (end == std::string::npos) {
        m_ok = false;
        return;
      }
      w.parts.push_back(Part{Part::Kind::Literal, m_s.substr(m_i + 1, end - m_i - 1), Quote::Single});
      m_i = end + 1;
    } else if (c == '"') {
      ++m_i;
      w.parts.push_back(Part{Part::Kind::Literal, "", Quote::Double});  // "" is a word too
      while (m_i < m_s.size() && m_s[m_i] != '"' && m_ok) {
        const char d = m_s[m_i];
        if (d == '\\' && m_i + 1 < m_s.size() && std::string("$`\"\\\n").find(m_s[m_i + 1]) != std::string::npos) {
          if (m_s[m_i + 1] != '\n') literal(w, m_s[m_i + 1], Quote::Double);
          m_i += 2;
        } else {
          expansion_or_literal(w, Quote::Double);
        }
      }
      if (m_i >= m_s.size()) m_ok = false;
      ++m_i;
    } else if (c == '\\') {
      if (m_i + 1 < m_s.size() && m_s[m_i + 1] != '\n') literal(w, m_s[m_i + 1], Quote::Single);
      m_i += 2;
    } else {
      expansion_or_literal(w, Quote::None);
    }
  }

  // Unquoted and inside double quotes alike, $ and ` start an expansion; any other character
  // is itself.
  void expansion_or_literal(RawWord& w, Quote q) {
    const char c = m_s[m_i];
    if (c == '$' || c == '`') {
      dollar(w, q);
    } else {
      literal(w, c, q);
      ++m_i;
    }
  }

  // Skips a $( ... ) or $(( ... )) with nesting; false when it does not close.
  bool skip_parens() {
    int depth = 0;
    for (; m_i < m_s.size(); ++m_i) {
      if (m_s[m_i] == '(') ++depth;
      if (m_s[m_i] == ')' && --depth == 0) {
        ++m_i;
        return true;
      }
    }
    return false;
  }

  void dollar(RawWord& w, Quote q) {
    const char c = m_s[m_i];
    Part unknown{Part::Kind::Unknown, "", q};
    if (c == '`') {
      const size_t end = m_s.find('`', m_i + 1);
      if (end == std::string::npos) m_ok = false;
      m_i = end == std::string::npos ? m_s.size() : end + 1;
      w.parts.push_back(unknown);
      return;
    }
    const char n = peek(1);
    if (n == '(') {
      ++m_i;
      if (!skip_parens()) m_ok = false;
      w.parts.push_back(unknown);
    } else if (n == '{') {
      const size_t end = m_s.find('}', m_i + 2);
      if (end == std::string::npos) {
        m_ok = false;
        return;
      }
      const std::string body = m_s.substr(m_i + 2, end - m_i - 2);
      m_i = end + 1;
      static const std::regex form("([A-Za-z_][A-Za-z0-9_]*)(?:(:?)-(.*))?");
      std::smatch m;
      if (!std::regex_match(body, m, form) || m[3].str().find_first_of("$`\"'\\") != std::string::npos) {
        w.parts.push_back(unknown);
        return;
      }
      w.parts.push_back(Part{Part::Kind::Param, m[1].str(), q, m[3].matched, m[2].str() == ":", m[3].str()});
    } else if (name_char(n, true)) {
      size_t j = m_i + 1;
      while (j < m_s.size() && name_char(m_s[j], j == m_i + 1)) ++j;
      w.parts.push_back(Part{Part::Kind::Param, m_s.substr(m_i + 1, j - m_i - 1), q});
      m_i = j;
    } else if (n != '\0' && std::string("@*#?$!-0123456789").find(n) != std::string::npos) {
      w.parts.push_back(unknown);  // positional and special parameters
      m_i += 2;
    } else {
      literal(w, '$', q);
      ++m_i;
    }
  }

  const std::string& m_s;
  size_t m_i = 0;
  bool m_ok = true;
};

// Expands a word: parameters, then field splitting of unquoted expansions (2.6.5, IFS unset).
// split = false for assignment values.
std::vector<Word> expand(const RawWord& w, const ContainerEnv& env, bool split) {
  std::vector<Word> fields;
  Word cur;
  bool started = false;  // the current field exists (quotes make even an empty one)
  for (const Part& p : w.parts) {
    if (p.kind == Part::Kind::Literal) {
      cur.text += p.text;
      started = true;
      continue;
    }
    if (p.kind == Part::Kind::Unknown || !env.known(p.text)) {
      cur.known = false;
      started = true;
      continue;
    }
    std::optional<std::string> v = env.value(p.text);
    if (p.has_default && (!v || (p.colon && v->empty()))) v = p.fallback;
    const std::string value = v.value_or("");
    if (p.quote != Quote::None || !split) {
      cur.text += value;
      started = true;
      continue;
    }
    size_t i = 0;
    while (i < value.size()) {
      if (std::isspace(static_cast<unsigned char>(value[i]))) {
        if (started) fields.push_back(cur);
        cur = Word{};
        started = false;
        while (i < value.size() && std::isspace(static_cast<unsigned char>(value[i]))) ++i;
        continue;
      }
      cur.text += value[i++];
      started = true;
    }
  }
  if (started || !split) fields.push_back(cur);
  return fields;
}

// NAME=... at the start of a word, written unquoted.
bool assignment(const RawWord& w, std::string* name, RawWord* value) {
  if (w.parts.empty() || w.parts[0].kind != Part::Kind::Literal || w.parts[0].quote != Quote::None) return false;
  const std::string& t = w.parts[0].text;
  const size_t eq = t.find('=');
  if (eq == std::string::npos || eq == 0) return false;
  for (size_t i = 0; i < eq; ++i)
    if (!name_char(t[i], i == 0)) return false;
  *name = t.substr(0, eq);
  *value = w;
  value->parts[0].text = t.substr(eq + 1);
  return true;
}

const std::set<std::string>& harmless() {
  static const std::set<std::string> s = {
      ":",    "cat",  "cd",     "chmod", "chown",      "cp",    "date",   "echo",  "exit",  "false",
      "git",  "grep", "head",   "hostname", "ls",      "mkdir", "mv",     "nvidia-smi", "pip", "pip3",
      "printf", "pwd", "rm",    "set",   "sleep",      "tail",  "tar",    "tee",   "touch", "true",
      "ulimit", "unzip", "wait", "which", "ln"};
  return s;
}

}  // namespace

std::string program_name(const std::string& argv0) {
  const size_t slash = argv0.rfind('/');
  return slash == std::string::npos ? argv0 : argv0.substr(slash + 1);
}

bool is_python(const std::string& program) {
  static const std::regex re("python[0-9.]*");
  return std::regex_match(program, re);
}

bool is_launcher(const std::string& program) {
  return is_python(program) || program == "torchrun" || program == "mpirun" || program == "mpiexec" ||
         program == "orterun";
}

LaunchCommand launch_command_in_script(const std::string& script, const ContainerEnv& start_env) {
  LaunchCommand out;
  const Script parsed = Lexer(script).run();
  if (!parsed.supported) return out;
  ContainerEnv env = start_env;
  bool found = false;
  for (const auto& raw : parsed.commands) {
    ContainerEnv cmd_env = env;
    std::vector<std::pair<std::string, Word>> assigns;
    size_t i = 0;
    std::string name;
    RawWord value;
    for (; i < raw.size() && assignment(raw[i], &name, &value); ++i)
      assigns.emplace_back(name, expand(value, env, false).front());
    std::vector<Word> argv;
    for (; i < raw.size(); ++i)
      for (auto& f : expand(raw[i], env, true)) argv.push_back(std::move(f));
    auto apply = [](ContainerEnv& e, const std::string& n, const Word& w, bool exported) {
      if (w.known)
        e.set(n, w.text, exported);
      else
        e.set_unknown(n);
    };
    if (argv.empty()) {  // assignments alone set shell variables
      for (const auto& [n, w] : assigns) apply(env, n, w, env.exported(n));
      continue;
    }
    for (const auto& [n, w] : assigns) apply(cmd_env, n, w, true);
    // Prefixes that run the rest as the command.
    while (!argv.empty() && argv[0].known &&
           (argv[0].text == "exec" || argv[0].text == "nohup" || argv[0].text == "env")) {
      const bool is_env = argv[0].text == "env";
      argv.erase(argv.begin());
      while (is_env && !argv.empty() && argv[0].known && argv[0].text.find('=') != std::string::npos &&
             argv[0].text[0] != '-') {
        const size_t eq = argv[0].text.find('=');
        cmd_env.set(argv[0].text.substr(0, eq), argv[0].text.substr(eq + 1));
        argv.erase(argv.begin());
      }
    }
    if (argv.empty()) continue;
    if (!argv[0].known) return out;
    const std::string prog = program_name(argv[0].text);
    if (prog == "export" || prog == "unset") {
      for (size_t k = 1; k < argv.size(); ++k) {
        if (!argv[k].known) return out;
        const std::string& a = argv[k].text;
        const size_t eq = a.find('=');
        if (prog == "unset")
          env.unset(a);
        else if (eq == std::string::npos)
          env.mark_exported(a);
        else
          env.set(a.substr(0, eq), a.substr(eq + 1));
      }
      continue;
    }
    const bool pip_module = is_python(prog) && argv.size() > 2 && argv[1].text == "-m" && argv[2].text == "pip";
    if (is_launcher(prog) && !pip_module) {
      if (found) return out;  // several launchers: not judged
      found = true;
      out.argv = argv;
      out.env = cmd_env.exported_only();
      continue;
    }
    if (!pip_module && !harmless().count(prog)) return out;
  }
  out.judged = found;
  return out;
}

LaunchCommand launch_command(const json& pod, const json& container) {
  LaunchCommand out;
  const ContainerEnv env = ContainerEnv::of(pod, container);
  std::vector<Word> argv;
  for (const char* key : {"command", "args"})
    for (const auto& a : container.value(key, json::array())) {
      if (!a.is_string()) return out;
      bool unknown = false;
      std::string text = expand_kubernetes(a.get<std::string>(), env, &unknown);
      argv.push_back(Word{std::move(text), !unknown});
    }
  if (argv.empty() || !argv[0].known) return out;  // the image's entrypoint: unknown
  const std::string prog = program_name(argv[0].text);
  static const std::set<std::string> shells = {"sh", "bash", "dash", "ash"};
  if (shells.count(prog)) {
    // sh [-options] -c SCRIPT [NAME ARGS...]: the -c may sit in an option cluster (-ec, -lc).
    size_t k = 1;
    bool dash_c = false;
    for (; k < argv.size() && argv[k].known && argv[k].text.size() > 1 && argv[k].text[0] == '-'; ++k)
      if (argv[k].text.find('c') != std::string::npos && argv[k].text.rfind("--", 0) != 0) dash_c = true;
    if (!dash_c || k >= argv.size() || !argv[k].known) return out;
    return launch_command_in_script(argv[k].text, env);
  }
  if (!is_launcher(prog)) return out;
  out.judged = true;
  out.argv = std::move(argv);
  out.env = env;
  return out;
}

}  // namespace kubesim
