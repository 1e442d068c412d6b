#!/usr/bin/env bash
# cmd/ makes no client calls: what a command asks the cluster is asked by a function of lib/.
# A cmd/ file fails here when it
#   - calls a request method of kube::Client (send, send_all, stream, stream_blocks, stream_set:
#     the virtual members lib/kube/client.h declares, read from there), or
#   - calls a function of lib/kube that takes the client (kube::read_all, kube::get_object, ...:
#     every function a lib/kube header declares with a `Client&` first parameter, read from
#     there), or
#   - brings lib/kube's names in unqualified (`using namespace ...kube`, `using kube::...`).
# Factory (cmd/factory.*) builds the client and is exempt. Comment lines do not count. The
# lists read from lib/kube must hold the calls named in the checks below, so that a change
# of lib/kube that empties them fails here instead of passing without checking anything.
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src"

methods=$(sed -nE 's/^[[:space:]]*virtual[^(]*[[:space:]&*]([a-z_]+)\(.*/\1/p' lib/kube/client.h | sort -u)
functions=$(grep -hoE '[a-z_]+\((kube::)?Client&' lib/kube/*.h | sed -E 's/\(.*//' | sort -u)
for must in send send_all stream; do
  grep -qx "$must" <<<"$methods" || { echo "cmd_client_calls: no Client::$must in lib/kube/client.h: update this lint" >&2; exit 1; }
done
for must in read_all get_object delete_object stream_all; do
  grep -qx "$must" <<<"$functions" || { echo "cmd_client_calls: no kube::$must(Client&, ...) in lib/kube: update this lint" >&2; exit 1; }
done

files=$(find cmd -name '*.cpp' -o -name '*.h' | grep -vE '^cmd/factory\.(cpp|h)$' | sort)
[[ -n "$files" ]] || { echo "cmd_client_calls: no source files under cmd/" >&2; exit 1; }
method_re="(\.|->)($(paste -sd'|' <<<"$methods"))[[:space:]]*\("
function_re="kube::($(paste -sd'|' <<<"$functions"))[[:space:]]*\("
using_re="using[[:space:]]+(namespace[[:space:]]+(trainctl::)?kube\b|(trainctl::)?kube::)"
# shellcheck disable=SC2086
hits=$(grep -nHE "$method_re|$function_re|$using_re" $files | grep -vE '^[^:]+:[0-9]+:[[:space:]]*//' || true)
if [[ -n "$hits" ]]; then
  echo "cmd/ calls the Kubernetes client directly (move the call into a lib/ function):" >&2
  echo "$hits" >&2
  exit 1
fi
echo "ok: no cmd/ file calls the client ($(wc -l <<<"$files") files; $(wc -w <<<"$methods") client methods and $(wc -w <<<"$functions") lib/kube request functions checked)"
