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

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#PACKAGES[@]} packages present"
  exit 0
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
