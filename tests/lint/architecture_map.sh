#!/usr/bin/env bash
# The map matches the land: every folder of cmd/, lib/ and tools/kubesim/ has its row in the
# "Directory map" of docs/architecture.md (written `folder/` in backquotes), and every row
# names a folder that exists. A folder added without a word there fails here.
set -euo pipefail
src=${1:-$(cd "$(dirname "$0")/../.." && pwd)}
cd "$src"
map=$(awk '/^## Directory map/{on=1; next} /^## /{on=0} on' docs/architecture.md)
[[ -n "$map" ]] || { echo "docs/architecture.md has no \"## Directory map\" section" >&2; exit 1; }
missing=()
while IFS= read -r dir; do
  grep -qF "\`$dir/\`" <<<"$map" || missing+=("$dir/")
done < <(find cmd lib tools/kubesim -type d | sort)
stale=()
while IFS= read -r dir; do
  [[ -d "${dir%/}" ]] || stale+=("$dir")
done < <(grep -oE '^\| `[a-z_/]+/`' <<<"$map" | sed -E 's/^\| `//; s/`$//')
if (( ${#missing[@]} )); then
  echo "folders missing from the Directory map of docs/architecture.md: ${missing[*]}" >&2
fi
if (( ${#stale[@]} )); then
  echo "the Directory map of docs/architecture.md names folders that do not exist: ${stale[*]}" >&2
fi
(( ${#missing[@]} + ${#stale[@]} == 0 )) || exit 1
echo "ok: every folder of cmd/, lib/ and tools/kubesim/ is on the map"
