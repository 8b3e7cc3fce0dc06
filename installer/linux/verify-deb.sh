#!/usr/bin/env bash
# Checks the built .deb without installing it: extracts it into a temporary root, runs the packaged
# launcher's --version and --self-test with a throw-away home, checks that nothing was written into
# the install directory, and that the package stays within 80 MB.
set -euo pipefail
dist=${1:?usage: verify-deb.sh DIST_DIR}
max_bytes=$((80 * 1024 * 1024))

for tool in dpkg-deb; do
    command -v "$tool" >/dev/null || { echo "verify-deb: $tool is missing: cannot check the .deb" >&2; exit 1; }
done
deb=$(ls "$dist"/*.deb 2>/dev/null | head -n 1 || true)
[ -n "$deb" ] || { echo "verify-deb: no .deb in $dist" >&2; exit 1; }

size=$(stat -c %s "$deb")
echo "verify-deb: $(basename "$deb") is $((size / 1024 / 1024)) MB ($size bytes; limit 80 MB)"
[ "$size" -le "$max_bytes" ] || { echo "verify-deb: the package is larger than 80 MB" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work/root"
dpkg-deb -f "$deb" Package Version Depends | sed 's/^/verify-deb: /'
launcher=$(find "$work/root" -type f -path '*/bin/ClaimDesk' | head -n 1)
[ -x "$launcher" ] || { echo "verify-deb: no executable bin/ClaimDesk in the package" >&2; exit 1; }
(cd "$work/root" && find . -type f | sort) > "$work/before.txt"

export HOME="$work/home" CLAIMDESK_HOME="$work/home/.claimdesk"
unset CLAIMDESK_DB
mkdir -p "$HOME"
version=$("$launcher" --version)
echo "verify-deb: --version: $version"
case "$version" in ClaimDesk*) ;; *) echo "verify-deb: unexpected --version output" >&2; exit 1 ;; esac
"$launcher" --self-test
(cd "$work/root" && find . -type f | sort) > "$work/after.txt"
if ! diff -q "$work/before.txt" "$work/after.txt" >/dev/null; then
    echo "verify-deb: the app wrote into its install directory:" >&2
    diff "$work/before.txt" "$work/after.txt" >&2 || true
    exit 1
fi
echo "verify-deb: OK"
