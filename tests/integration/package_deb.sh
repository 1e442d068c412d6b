#!/usr/bin/env bash
# Builds the Debian package with cpack from the build tree of $TRAINCTL, checks its control
# fields and contents, unpacks it into a temporary root and runs the packaged binary.
set -euo pipefail
source "$(dirname "$0")/skip.bash"
: "${TRAINCTL:?}"
for tool in cpack dpkg-deb dpkg-shlibdeps; do
  command -v "$tool" >/dev/null || skip_or_fail "$tool not installed (apt-get install dpkg-dev cmake)"
done
build=$(dirname "$TRAINCTL")
[ -f "$build/CPackConfig.cmake" ] || skip_or_fail "no CPackConfig.cmake in $build"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

(cd "$build" && cpack -G DEB -B "$tmp/out" --config "$build/CPackConfig.cmake" >"$tmp/cpack.log" 2>&1) ||
  { cat "$tmp/cpack.log"; fail "cpack failed"; }
deb=$(ls "$tmp"/out/trainctl_*.deb)

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = trainctl ] || fail "Package is $(field Package)"
[ "$(field Architecture)" = "$(dpkg --print-architecture)" ] || fail "Architecture is $(field Architecture)"
depends=$(field Depends)
echo "Depends: $depends"
# Runtime libraries the binary links (from dpkg-shlibdeps, not a hand-written list).
for lib in libc6 libcurl4 libssl3 libyaml-cpp0.7 libstdc++6; do
  [[ $depends == *"$lib"* ]] || fail "Depends lacks $lib"
done
[[ $depends != *-dev* ]] || fail "Depends names a -dev package"

dpkg-deb -c "$deb" | awk '{print $6}' >"$tmp/files"
for f in ./usr/bin/trainctl ./usr/bin/kubectl-trainctl ./usr/bin/kubectl_complete-trainctl \
         ./usr/share/man/man1/trainctl.1 \
         ./usr/share/bash-completion/completions/trainctl \
         ./usr/share/zsh/vendor-completions/_trainctl \
         ./usr/share/fish/vendor_completions.d/trainctl.fish \
         ./usr/share/doc/trainctl/copyright; do
  grep -qx "$f" "$tmp/files" || fail "package lacks $f"
done
! grep -q kubesim "$tmp/files" || fail "kubesim must not be in the package"

dpkg -x "$deb" "$tmp/root"
# The kubectl plugin and its completion are trainctl itself (docs/kubectl-plugin.md).
for link in kubectl-trainctl kubectl_complete-trainctl; do
  [ "$(readlink "$tmp/root/usr/bin/$link")" = trainctl ] || fail "$link is not a link to trainctl"
done
[ "$("$tmp/root/usr/bin/kubectl_complete-trainctl" ver)" = "$(printf 'version\n:4')" ] ||
  fail "kubectl_complete-trainctl does not complete: $("$tmp/root/usr/bin/kubectl_complete-trainctl" ver)"
grep -q '^License: Apache-2.0' "$tmp/root/usr/share/doc/trainctl/copyright" || fail "copyright does not say Apache-2.0"
version=$("$tmp/root/usr/bin/trainctl" version --short)
[ "$version" = "$(field Version)" ] || fail "packaged trainctl says version $version, package $(field Version)"
# The packaged completion script is the one the packaged binary generates.
"$tmp/root/usr/bin/trainctl" completion bash | cmp - "$tmp/root/usr/share/bash-completion/completions/trainctl" ||
  fail "packaged bash completion differs from the binary's"
if command -v man >/dev/null; then
  MANWIDTH=80 man -l "$tmp/root/usr/share/man/man1/trainctl.1" 2>"$tmp/man.err" | grep 'trainctl submit pytorch' >/dev/null ||
    fail "man page does not render: $(cat "$tmp/man.err")"
fi
echo "PASS: $(basename "$deb")"
