// Host name resolution from inside a pod (see rendezvous_dns.h for the rules and sources).
#include "kubesim/controllers/rendezvous_dns.h"

#include <algorithm>
#include <regex>

#include "core/text.h"
#include "kubesim/controllers/context.h"

namespace kubesim {

using nlohmann::json;

namespace {

using trainctl::ascii_lower;

const std::string kZone = ".svc.cluster.local";

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= s.size(); ++i)
    if (i == s.size() || s[i] == sep) {
      out.push_back(s.substr(start, i - start));
      start = i + 1;
    }
  return out;
}

// A pointer into `pod` itself (never into a copy of its status, which would dangle).
const json* ready_condition(const json& pod) {
  const json& c = trainctl::object::condition(pod, "Ready");
  return c.is_null() ? nullptr : &c;
}

bool terminal(const json& pod) {
  const std::string phase = pod.value("status", json::object()).value("phase", "");
  return phase == "Succeeded" || phase == "Failed";
}

std::string hostname_of(const json& pod) {
  const std::string h = pod.value("spec", json::object()).value("hostname", "");
  return ascii_lower(h.empty() ? meta_name(pod) : h);
}

}  // namespace

ClusterDns::ClusterDns(const PodList& pods, const PodList& services, std::chrono::system_clock::time_point now)
    : m_pods(pods), m_services(services), m_now(now) {}

std::vector<const json*> ClusterDns::endpoints(const json& service) const {
  std::vector<const json*> out;
  const json spec = service.value("spec", json::object());
  const json selector = spec.value("selector", json::object());
  if (!selector.is_object() || selector.empty()) return out;  // no selector: endpoints are managed by hand
  const bool not_ready = spec.value("publishNotReadyAddresses", false);
  for (const auto& p : m_pods) {
    const json labels = p->value("metadata", json::object()).value("labels", json::object());
    bool match = labels.is_object();
    for (auto it = selector.begin(); match && it != selector.end(); ++it)
      match = labels.contains(it.key()) && labels[it.key()] == it.value();
    if (!match || terminal(*p) || p->value("status", json::object()).value("podIP", "").empty()) continue;
    const json* ready = ready_condition(*p);
    if (!ready) continue;
    const bool is_ready = ready->value("status", "") == "True";
    if (!is_ready && !not_ready) continue;
    // Published once the EndpointSlice and the DNS server have caught up.
    const auto since = parse_time(ready->value("lastTransitionTime", ""));
    if (m_now < since + kEndpointPublishDelay) continue;
    out.push_back(p.get());
  }
  return out;
}

std::vector<const json*> ClusterDns::service_record(const std::string& fqdn, const std::string& ns) const {
  const std::vector<std::string> labels = split(fqdn.substr(0, fqdn.size() - kZone.size()), '.');
  if (labels.size() < 2 || labels.size() > 3 || labels.back() != ns) return {};
  const std::string& svc_name = labels[labels.size() - 2];
  for (const auto& s : m_services) {
    if (ascii_lower(meta_name(*s)) != svc_name) continue;
    std::vector<const json*> eps = endpoints(*s);
    if (labels.size() == 2) return eps;
    // HOST.SERVICE: a headless Service's endpoint with that hostname and subdomain.
    if (s->value("spec", json::object()).value("clusterIP", "") != "None") return {};
    std::vector<const json*> out;
    for (const json* p : eps)
      if (hostname_of(*p) == labels[0] &&
          ascii_lower(p->value("spec", json::object()).value("subdomain", "")) == svc_name)
        out.push_back(p);
    return out;
  }
  return {};
}

std::vector<const json*> ClusterDns::resolve(const std::string& host, const json& self) const {
  std::string h = ascii_lower(host);
  while (!h.empty() && h.back() == '.') h.pop_back();
  if (h.empty()) return {};
  static const std::regex loopback("127(\\.[0-9]{1,3}){3}");
  if (h == "localhost" || h == "localhost.localdomain" || h == "ip6-localhost" || h == "::1" ||
      h == "0.0.0.0" || std::regex_match(h, loopback))
    return {&self};
  const std::string ns = ascii_lower(meta_ns(self));
  const std::string own = hostname_of(self);
  const std::string subdomain = ascii_lower(self.value("spec", json::object()).value("subdomain", ""));
  const std::string own_fqdn = subdomain.empty() ? "" : own + "." + subdomain + "." + ns + kZone;
  if (h == own || (!own_fqdn.empty() && h == own_fqdn)) return {&self};
  static const std::regex ipv4("[0-9]{1,3}(\\.[0-9]{1,3}){3}");
  if (std::regex_match(h, ipv4)) {
    std::vector<const json*> out;
    for (const auto& p : m_pods)
      if (!terminal(*p) && p->value("status", json::object()).value("podIP", "") == h) out.push_back(p.get());
    return out;
  }
  // resolv.conf: search NS.svc.cluster.local svc.cluster.local cluster.local, options ndots:5.
  std::vector<std::string> candidates;
  const auto dots = std::count(h.begin(), h.end(), '.');
  if (dots >= 5) candidates.push_back(h);
  for (const std::string& domain : {"." + ns + kZone, kZone, std::string(".cluster.local")})
    candidates.push_back(h + domain);
  if (dots < 5) candidates.push_back(h);
  for (const auto& c : candidates) {
    // glibc looks each name of the search list up in /etc/hosts first (nsswitch "files dns"):
    // HOST.SUBDOMAIN is the pod's own FQDN once the search domain NS.svc.cluster.local is added.
    if (!own_fqdn.empty() && c == own_fqdn) return {&self};
    if (ends_with(c, kZone)) {
      auto found = service_record(c, ns);
      if (!found.empty()) return found;
    }
  }
  return {};
}

}  // namespace kubesim
