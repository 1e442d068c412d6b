#!/usr/bin/env bash
# lib/ never includes CLI11: flags live with their commands in cmd/ (lib/submit's kinds fill a
# submit::FlagSet, cmd/submit.cpp registers it). Fails on any include of a CLI11 header
# (<CLI/...>, "CLI/...") or of the forward declarations (cli_fwd.h) under lib/, and on a
# declaration of CLI11's namespace there. Comment lines do not count.
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
hits=$(cd "$src" && grep -rnE '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"](CLI/|[^">]*cli_fwd\.h)|^[[:space:]]*namespace[[:space:]]+CLI\b' lib || true)
if [[ -n "$hits" ]]; then
  echo "CLI11 in lib/ (declare flags in a submit::FlagSet, or register them in cmd/):" >&2
  echo "$hits" >&2
  exit 1
fi
echo "ok: lib/ includes no CLI11"
