#!/usr/bin/env bash
# Every REST path of trainctl's requests is built in lib/kube (kube/resource.h): a string
# literal holding an API path ("/api/...", "/apis/...", "namespaces/...") anywhere else in
# cmd/ or lib/ is one written by hand. Comment lines do not count.
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
hits=$(cd "$src" && grep -rnE --include='*.cpp' --include='*.h' '"[^"]*(/api/|/apis/|namespaces/)' cmd lib |
  grep -v '^lib/kube/' | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [[ -n "$hits" ]]; then
  echo "REST paths built outside lib/kube (use kube::Resource and kube::ListQuery):" >&2
  echo "$hits" >&2
  exit 1
fi
echo "ok: no REST path is built outside lib/kube"
