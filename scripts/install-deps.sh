#!/usr/bin/env bash
# Installs the Debian packages needed to build and test trainctl and kubesim.
# Idempotent: packages already present are left alone.
set -euo pipefail

PACKAGES=(
  build-essential cmake pkg-config git ca-certificates
  libcli11-dev libcurl4-openssl-dev nlohmann-json3-dev libyaml-cpp-dev libfmt-dev libsimdjson-dev
  catch2 libkainjow-mustache-dev libcpp-httplib-dev libssl-dev zlib1g-dev
  openssl
  bash-completion zsh fish dpkg-dev tmux
  # used by the integration tests to talk to kubesim and check JSON; the official Kubernetes
  # Python client is an independent judge of what kubesim serves, PyYAML of the YAML trainctl
  # writes (a parser that shares no code with yaml-cpp)
  curl jq python3 python3-kubernetes python3-yaml
  # the real Prometheus (2.42 on bookworm) that scrapes kubesim's GPU exporters and judges
  # trainctl's PromQL in the integration tests; they run their own on a free port
  prometheus
  # clang with its sanitizer and libFuzzer runtimes: the ASan+UBSan build and the fuzz targets
  clang libclang-rt-dev
)

missing=()
for p in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing+=("$p")
done

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
updated=""
apt_update() {
  [ -n "$updated" ] || $SUDO apt-get update -qq
  updated=1
}

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
else
  echo "install-deps: installing ${missing[*]}"
  apt_update
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# kubectl, the independent judge of many integration tests (they skip without it, saying so).
# One already on PATH is kept. Else the package `kubectl` where the machine's package sources
# have one (Kubernetes' or Google Cloud's repository, configured by the machine's admin), else
# Debian's own kubernetes-client: Debian 12 ships 1.20.2, older than the kubectl plugin
# completion (1.26) and the versions kubesim is tested with (1.27 to 1.33), so the tests that
# need a newer one skip and say so.
if ! command -v kubectl >/dev/null; then
  apt_update
  candidate=$(apt-cache policy kubectl 2>/dev/null | awk '/Candidate:/ {print $2}')
  if [ -n "$candidate" ] && [ "$candidate" != "(none)" ]; then
    echo "install-deps: installing kubectl $candidate from the package sources"
    $SUDO apt-get install -y -qq --no-install-recommends kubectl
  else
    candidate=$(apt-cache policy kubernetes-client 2>/dev/null | awk '/Candidate:/ {print $2}')
    echo "install-deps: no kubectl in the package sources; installing Debian's kubernetes-client ${candidate:-(not found)}"
    $SUDO apt-get install -y -qq --no-install-recommends kubernetes-client ||
      echo "install-deps: kubectl is not available here: the tests it judges will be skipped" >&2
  fi
fi
if command -v kubectl >/dev/null; then
  version=$(kubectl version --client -o json 2>/dev/null | jq -r '.clientVersion.gitVersion' 2>/dev/null || true)
  echo "install-deps: kubectl ${version:-(version unknown)} at $(command -v kubectl)"
fi
