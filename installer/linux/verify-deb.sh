#!/usr/bin/env bash
# Checks the built .deb without installing it: extracts it into a temporary root, writes the start-up
# archive as postinst does and checks the launcher can use it, runs the packaged launcher's --version
# and --self-test with a throw-away home, checks the runtime image's thread priority option, that nothing
# was written into the install directory, and that the package stays within 80 MB.
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

# What postinst does: write the start-up archive; then the launcher must start with it (-Xshare:on makes
# the JVM refuse to start when the archive cannot be used).
archive_script=$(find "$work/root" -type f -path '*/lib/app/claimdesk-startup-archive.sh' | head -n 1)
[ -n "$archive_script" ] || { echo "verify-deb: no lib/app/claimdesk-startup-archive.sh in the package" >&2; exit 1; }
dpkg-deb -e "$deb" "$work/control"
grep -q claimdesk-startup-archive.sh "$work/control/postinst" \
    || { echo "verify-deb: postinst does not write the start-up archive" >&2; exit 1; }
sh "$archive_script"
archive="$(dirname "$archive_script")/claimdesk.jsa"
echo "verify-deb: start-up archive $((($(stat -c %s "$archive") + 1048575) / 1048576)) MB"
(cd "$work/root" && find . -type f | sort) > "$work/before.txt"

export HOME="$work/home" CLAIMDESK_HOME="$work/home/.claimdesk"
unset CLAIMDESK_DB
mkdir -p "$HOME"
version=$("$launcher" --version)
echo "verify-deb: --version: $version"
JAVA_TOOL_OPTIONS=-Xshare:on "$launcher" --version > /dev/null 2> "$work/share.txt" || {
    echo "verify-deb: the launcher cannot use the start-up archive:" >&2; cat "$work/share.txt" >&2; exit 1; }
case "$version" in ClaimDesk*) ;; *) echo "verify-deb: unexpected --version output" >&2; exit 1 ;; esac
# The runtime image carries -XX:ThreadPriorityPolicy=1 (jlink --add-options), so that the worker's
# lowest-priority threads yield to the console's; from the image, the JVM does not warn about it.
JAVA_TOOL_OPTIONS=-XX:+PrintFlagsFinal "$launcher" --version > "$work/flags.txt" 2>/dev/null
grep -Eq 'ThreadPriorityPolicy +=? *1 .*\{jimage\}' "$work/flags.txt" \
    || { echo "verify-deb: the runtime image does not carry -XX:ThreadPriorityPolicy=1" >&2; exit 1; }
"$launcher" --self-test
(cd "$work/root" && find . -type f | sort) > "$work/after.txt"
if ! diff -q "$work/before.txt" "$work/after.txt" >/dev/null; then
    echo "verify-deb: the app wrote into its install directory:" >&2
    diff "$work/before.txt" "$work/after.txt" >&2 || true
    exit 1
fi
echo "verify-deb: OK"
