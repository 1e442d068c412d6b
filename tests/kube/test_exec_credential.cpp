// Exec credential plugins: a real child process (a /bin/sh script written here) that counts
// its runs, so caching and re-running are observed, not assumed.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "core/base64.h"
#include "core/errors.h"
#include "core/log.h"
#include "kube/config.h"
#include "support/paths.h"
#include "test_kubeconfig_support.h"

using namespace trainctl;
using namespace trainctl::kube;
using namespace std::chrono;
using trainctl::kube::test::read_text;
using trainctl::kube::test::write_text;

namespace {

constexpr const char* kV1 = "client.authentication.k8s.io/v1";
constexpr const char* kV1beta1 = "client.authentication.k8s.io/v1beta1";

// An executable script in `dir` that records each run (count, args, one env variable and
// KUBERNETES_EXEC_INFO) in files beside it, then runs `body`, where $n is the run number.
std::string write_plugin(const std::string& dir, const std::string& body, const std::string& name = "plugin") {
  std::string path = dir + "/" + name;
  write_text(path, "#!/bin/sh\n"
                   "d='" + dir + "'\n"
                   "n=$(( $(cat \"$d/count\" 2>/dev/null || echo 0) + 1 ))\n"
                   "echo \"$n\" > \"$d/count\"\n"
                   ": > \"$d/args\"; for a in \"$@\"; do printf '%s\\n' \"$a\" >> \"$d/args\"; done\n"
                   "printf '%s' \"$PLUGIN_GREETING\" > \"$d/env\"\n"
                   "printf '%s' \"$KUBERNETES_EXEC_INFO\" > \"$d/info\"\n" +
                       body + "\n");
  std::filesystem::permissions(path, std::filesystem::perms::owner_all);
  return path;
}

std::string credential_body(const std::string& api_version, const std::string& expiry) {
  std::string exp = expiry.empty() ? "" : ",\"expirationTimestamp\":\"" + expiry + "\"";
  return "printf '{\"apiVersion\":\"" + api_version +
         "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"exec-token-%s\"" + exp + "}}' \"$n\"";
}

int runs(const std::string& dir) {
  std::string text = read_text(dir + "/count");
  return text.empty() ? 0 : std::stoi(text);
}

ExecConfig exec_config(const std::string& command, const std::string& api_version = kV1) {
  ExecConfig c;
  c.api_version = api_version;
  c.command = command;
  return c;
}

system_clock::time_point utc(int y, unsigned mo, unsigned d, int h = 0, int mi = 0, int s = 0) {
  return sys_days{year{y} / month{mo} / day{d}} + hours{h} + minutes{mi} + seconds{s};
}

std::string error_of(ExecCredentialProvider& p) {
  try {
    p.get();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("exec credential is cached until expirationTimestamp, then the plugin runs again") {
  std::string dir = trainctl::testing::make_temp_dir("exec-cache");
  ExecCredentialProvider p(exec_config(write_plugin(dir, credential_body(kV1, "2030-01-01T00:00:00Z"))));
  system_clock::time_point now = utc(2029, 12, 31, 23);
  p.set_clock([&now] { return now; });

  ExecCredential first = p.get();
  CHECK(first.token == "exec-token-1");
  REQUIRE(first.expiration);
  CHECK(*first.expiration == utc(2030, 1, 1));
  CHECK(p.get().token == "exec-token-1");
  now = utc(2030, 1, 1);  // at the expiry instant it is still valid (client-go: now.After(expiry))
  CHECK(p.get().token == "exec-token-1");
  CHECK(runs(dir) == 1);

  now = utc(2030, 1, 1, 0, 0, 1);
  CHECK(p.get().token == "exec-token-2");
  CHECK(runs(dir) == 2);

  // The new credential carries the same (now past) expiry, so each get() runs the plugin.
  CHECK(p.get().token == "exec-token-3");
  now = utc(2029, 12, 31, 23);
  p.invalidate();  // e.g. after a 401, even though the clock says it is valid
  CHECK(p.get().token == "exec-token-4");
  CHECK(p.get().token == "exec-token-4");
  CHECK(runs(dir) == 4);
}

TEST_CASE("v1beta1 plugin; expiry with a fraction and a zone offset") {
  std::string dir = trainctl::testing::make_temp_dir("exec-v1beta1");
  // 02:00:00.5+02:00 is 00:00:00.5 UTC.
  ExecCredentialProvider p(
      exec_config(write_plugin(dir, credential_body(kV1beta1, "2030-01-01T02:00:00.5+02:00")), kV1beta1));
  system_clock::time_point now = utc(2030, 1, 1);
  p.set_clock([&now] { return now; });
  ExecCredential c = p.get();
  CHECK(c.token == "exec-token-1");
  CHECK(*c.expiration == utc(2030, 1, 1) + milliseconds(500));
  now = utc(2030, 1, 1, 0, 0, 1);
  CHECK(p.get().token == "exec-token-2");
  CHECK(nlohmann::json::parse(read_text(dir + "/info"))["apiVersion"] == kV1beta1);
}

TEST_CASE("a credential without expirationTimestamp is kept until invalidate()") {
  std::string dir = trainctl::testing::make_temp_dir("exec-noexpiry");
  ExecCredentialProvider p(exec_config(write_plugin(dir, credential_body(kV1, ""))));
  system_clock::time_point now = utc(2030, 1, 1);
  p.set_clock([&now] { return now; });
  CHECK_FALSE(p.get().expiration);
  now = utc(2100, 1, 1);
  CHECK(p.get().token == "exec-token-1");
  p.invalidate();
  CHECK(p.get().token == "exec-token-2");
}

TEST_CASE("args are passed as they are (no shell), env is added, KUBERNETES_EXEC_INFO is set") {
  std::string dir = trainctl::testing::make_temp_dir("exec-args");
  ExecConfig c = exec_config(write_plugin(dir, credential_body(kV1, "")));
  c.args = {"get-token", "two words", "*", "$HOME", "a;b"};
  c.env = {{"PLUGIN_GREETING", "hello world"}};
  ExecCredentialProvider p(c, "https://api.example:6443");
  p.get();
  CHECK(read_text(dir + "/args") == "get-token\ntwo words\n*\n$HOME\na;b\n");
  CHECK(read_text(dir + "/env") == "hello world");
  auto info = nlohmann::json::parse(read_text(dir + "/info"));
  CHECK(info["apiVersion"] == kV1);
  CHECK(info["kind"] == "ExecCredential");
  CHECK(info["spec"]["interactive"] == false);
  CHECK_FALSE(info["spec"].contains("cluster"));  // provideClusterInfo is off
}

TEST_CASE("provideClusterInfo from a kubeconfig; a relative command runs from the kubeconfig's directory") {
  std::string dir = trainctl::testing::make_temp_dir("exec-kubeconfig");
  write_plugin(dir, credential_body(kV1, ""), "bin-plugin");
  std::string ca = "-----BEGIN CERTIFICATE-----\nexec-ca\n-----END CERTIFICATE-----\n";
  write_text(dir + "/config",
             "apiVersion: v1\nkind: Config\ncurrent-context: e\n"
             "clusters:\n- name: c\n  cluster:\n    server: https://exec.example:6443\n"
             "    certificate-authority-data: " + trainctl::base64_encode(ca) + "\n"
             "    tls-server-name: api.internal\n"
             "    extensions:\n    - name: client.authentication.k8s.io/exec\n"
             "      extension:\n        audience: trainctl\n        replicas: 3\n        quoted: \"3\"\n"
             "users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n"
             "      command: ./bin-plugin\n      args: [--region, eu]\n"
             "      env:\n      - name: PLUGIN_GREETING\n        value: from-kubeconfig\n"
             "      provideClusterInfo: true\n      interactiveMode: Never\n"
             "contexts:\n- name: e\n  context: {cluster: c, user: u}\n");
  auto o = test::options_with_env({});
  o.kubeconfig_path = dir + "/config";
  RestConfig rest = load_rest_config(o);
  REQUIRE(rest.exec);
  CHECK(rest.exec->command == dir + "/bin-plugin");
  CHECK(rest.exec->args == std::vector<std::string>{"--region", "eu"});
  CHECK(rest.exec->interactive_mode == "Never");

  ExecCredentialProvider p(*rest.exec, rest.server);
  CHECK(p.get().token == "exec-token-1");
  CHECK(read_text(dir + "/env") == "from-kubeconfig");
  auto cluster = nlohmann::json::parse(read_text(dir + "/info"))["spec"]["cluster"];
  CHECK(cluster["server"] == "https://exec.example:6443");
  CHECK(cluster["tls-server-name"] == "api.internal");
  CHECK(trainctl::base64_decode(cluster["certificate-authority-data"].get<std::string>()) == std::optional(ca));
  CHECK(cluster["config"] == nlohmann::json{{"audience", "trainctl"}, {"replicas", 3}, {"quoted", "3"}});
  CHECK_FALSE(cluster.contains("insecure-skip-tls-verify"));
}

TEST_CASE("a missing plugin shows its installHint") {
  ExecConfig c = exec_config("trainctl-test-no-such-plugin");
  c.install_hint = "Install it with: apt-get install trainctl-test-plugin";
  ExecCredentialProvider p(c);
  CHECK(error_of(p) ==
        "exec plugin \"trainctl-test-no-such-plugin\" not found: Install it with: apt-get install trainctl-test-plugin");
  ExecCredentialProvider abs(exec_config("/nonexistent/dir/plugin"));
  CHECK(error_of(abs) == "exec plugin \"/nonexistent/dir/plugin\" not found (is it installed and on PATH?)");
}

TEST_CASE("a failing plugin reports its exit code and stderr on one line") {
  std::string dir = trainctl::testing::make_temp_dir("exec-fail");
  std::string plugin = write_plugin(dir, "echo 'error: session expired' >&2\necho '  run login again  ' >&2\nexit 3");
  ExecCredentialProvider p(exec_config(plugin));
  CHECK(error_of(p) == "exec plugin \"" + plugin +
                           "\" failed with exit code 3: error: session expired; run login again");
}

TEST_CASE("plugin output is checked: apiVersion, JSON, status") {
  std::string dir = trainctl::testing::make_temp_dir("exec-bad-output");
  std::string wrong = write_plugin(dir, credential_body(kV1beta1, ""), "wrong-version");
  ExecCredentialProvider p(exec_config(wrong, kV1));
  // Nothing the plugin printed is quoted: its fields may hold anything, a token included.
  CHECK(error_of(p) == "exec plugin \"" + wrong +
                           "\" returned an ExecCredential whose apiVersion is not the " + kV1 +
                           " the kubeconfig asks for");

  std::string junk = write_plugin(dir, "echo 'secret-looking-junk'", "junk");
  ExecCredentialProvider pj(exec_config(junk));
  std::string message = error_of(pj);
  CHECK(message == "exec plugin \"" + junk + "\" did not print an ExecCredential JSON object");

  std::string empty = write_plugin(dir, "echo '{\"apiVersion\":\"" + std::string(kV1) +
                                            "\",\"kind\":\"ExecCredential\",\"status\":{}}'", "empty-status");
  ExecCredentialProvider pe(exec_config(empty));
  CHECK(error_of(pe) == "exec plugin \"" + empty + "\" returned neither a token nor a client certificate and key");

  std::string bad_time = write_plugin(dir, credential_body(kV1, "tomorrow"), "bad-time");
  ExecCredentialProvider pt(exec_config(bad_time));
  CHECK(error_of(pt) ==
        "exec plugin \"" + bad_time + "\" returned an expirationTimestamp that is not an RFC 3339 time");

  std::string token_in_version = write_plugin(
      dir, "echo '{\"apiVersion\":\"sk-live-plugin-secret\",\"kind\":\"ExecCredential\",\"status\":{}}'",
      "leaky");
  ExecCredentialProvider pl(exec_config(token_in_version));
  CHECK(error_of(pl).find("sk-live-plugin-secret") == std::string::npos);
}

TEST_CASE("a failing plugin's stderr is shown with what looks like a credential redacted") {
  std::string dir = trainctl::testing::make_temp_dir("exec-leak");
  // Nothing of this was registered as a secret: the plugin failed before giving a credential.
  std::string plugin =
      write_plugin(dir,
                   "echo 'refresh failed for token=tok-3f9a2b71c0de; Authorization: Bearer "
                   "abc.def-123' >&2\n"
                   "echo '{\"access_token\": \"ya29.a0AfH6SMB\", \"id_token\": "
                   "\"eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl\"}' >&2\n"
                   "echo 'password=hunter2-long, see https://bob:s3cr3t-pw@idp.example.com/x' >&2\n"
                   "exit 1");
  ExecCredentialProvider p(exec_config(plugin));
  const std::string message = error_of(p);
  for (const char* secret : {"tok-3f9a2b71c0de", "abc.def-123", "ya29.a0AfH6SMB", "eyJhbGciOiJSUzI1NiJ9",
                             "hunter2-long", "s3cr3t-pw"})
    CHECK(message.find(secret) == std::string::npos);
  CHECK(message.find("refresh failed for token=<redacted>") != std::string::npos);
  CHECK(message.find("https://<redacted>@idp.example.com/x") != std::string::npos);
}

TEST_CASE("a successful plugin's stderr is logged redacted at debug level") {
  std::string dir = trainctl::testing::make_temp_dir("exec-stderr-ok");
  std::string plugin =
      write_plugin(dir, "echo 'cached refresh_token: rt-77aa99bb' >&2\n" + credential_body(kV1, ""));
  std::vector<std::string> lines;
  log::set_sink([&lines](std::string_view l) { lines.emplace_back(l); });
  const auto level = log::level();
  log::set_level(log::Level::Debug);
  ExecCredentialProvider p(exec_config(plugin));
  p.get();
  log::set_level(level);
  log::reset_sink();
  bool seen = false;
  for (const auto& l : lines) {
    CHECK(l.find("rt-77aa99bb") == std::string::npos);
    seen = seen || l.find("refresh_token: <redacted>") != std::string::npos;
  }
  CHECK(seen);
}

TEST_CASE("a plugin that fails runs once per command; its error stands") {
  std::string dir = trainctl::testing::make_temp_dir("exec-fail-once");
  std::string plugin = write_plugin(dir, "echo 'no session' >&2\nexit 1");
  ExecCredentialProvider p(exec_config(plugin));
  const std::string first = error_of(p);
  CHECK(error_of(p) == first);
  CHECK(error_of(p) == first);
  CHECK(runs(dir) == 1);
}

TEST_CASE("a plugin that does not finish is stopped; one that prints too much is stopped") {
  std::string dir = trainctl::testing::make_temp_dir("exec-limits");
  std::string sleeper = write_plugin(dir, "echo 'waiting for the browser' >&2\nexec sleep 600", "sleeper");
  ExecCredentialProvider ps(exec_config(sleeper));
  ps.set_timeout(milliseconds(300));
  CHECK(error_of(ps) == "exec plugin \"" + sleeper +
                            "\" did not finish within 300ms and was stopped: waiting for the browser");

  std::string chatty = write_plugin(dir, "exec cat /dev/zero", "chatty");
  ExecCredentialProvider pc(exec_config(chatty));
  CHECK(error_of(pc) == "exec plugin \"" + chatty +
                            "\" printed more than 1024 KiB and was stopped; an ExecCredential is a few KiB");
}

TEST_CASE("client certificate and key from a plugin; the exec token and key are redacted") {
  std::string dir = trainctl::testing::make_temp_dir("exec-cert");
  std::string plugin = write_plugin(dir,
                                    "printf '{\"apiVersion\":\"" + std::string(kV1) +
                                        "\",\"kind\":\"ExecCredential\",\"status\":{\"token\":\"exec-secret-%s\","
                                        "\"clientCertificateData\":\"CERT-PEM\",\"clientKeyData\":\"KEY-PEM-%s\"}}' "
                                        "\"$n\" \"$n\"");
  ExecCredentialProvider p(exec_config(plugin));
  ExecCredential c = p.get();
  CHECK(c.client_certificate_data == "CERT-PEM");
  CHECK(c.client_key_data == "KEY-PEM-1");
  CHECK(log::redact("Bearer exec-secret-1 and KEY-PEM-1") == "Bearer <redacted> and <redacted>");
}

TEST_CASE("exec sections the loader rejects") {
  std::string dir = trainctl::testing::make_temp_dir("exec-reject");
  auto config_with = [&](const std::string& exec) {
    write_text(dir + "/config",
               "current-context: e\nclusters:\n- name: c\n  cluster: {server: https://x.example}\n"
               "users:\n- name: u\n  user:\n    exec:\n" + exec +
                   "contexts:\n- name: e\n  context: {cluster: c, user: u}\n");
    auto o = test::options_with_env({});
    o.kubeconfig_path = dir + "/config";
    try {
      load_rest_config(o);
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  std::string prefix = "kubeconfig " + dir + "/config: user \"u\": ";
  CHECK(config_with("      apiVersion: client.authentication.k8s.io/v1alpha1\n      command: x\n") ==
        prefix + "exec apiVersion \"client.authentication.k8s.io/v1alpha1\" is not supported "
                 "(use client.authentication.k8s.io/v1 or client.authentication.k8s.io/v1beta1)");
  CHECK(config_with("      apiVersion: client.authentication.k8s.io/v1\n") == prefix + "exec command must be set");
  CHECK(config_with("      apiVersion: client.authentication.k8s.io/v1\n      command: x\n") ==
        prefix + "exec interactiveMode must be set for client.authentication.k8s.io/v1 (Never, IfAvailable or Always)");
  CHECK(config_with("      apiVersion: client.authentication.k8s.io/v1beta1\n      command: x\n") == "(no error)");
  CHECK(config_with("      apiVersion: client.authentication.k8s.io/v1\n      command: x\n"
                    "      interactiveMode: Sometimes\n") ==
        prefix + "exec interactiveMode \"Sometimes\" is not one of Never, IfAvailable, Always");
  CHECK(config_with("      apiVersion: client.authentication.k8s.io/v1\n      command: x\n"
                    "      interactiveMode: Always\n") ==
        prefix + "the exec plugin needs interactiveMode Always, but plugins run without a terminal");
  CHECK(config_with("      apiVersion: client.authentication.k8s.io/v1\n      command: x\n"
                    "      env:\n      - value: nameless\n") ==
        "kubeconfig " + dir + "/config: user \"u\" exec: env entry without a name");
}
