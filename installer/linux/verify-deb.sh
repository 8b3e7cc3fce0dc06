#!/usr/bin/env bash
# Checks the built .deb: extracts it into a temporary root and runs its real maintainer scripts there
# (postinst configure, prerm remove) with the desktop tools stubbed, once failing as on a system without a
# desktop and once working; as root, also installs and removes it with dpkg into a throw-away root. Then
# runs the packaged launcher's --version and --self-test with a throw-away home and checks that the
# launcher uses the start-up archive postinst wrote, SQLite's native library from the install directory,
# the runtime image's thread priority option, that the class list the archive is written from holds the
# console's own logging and a team database's start, that the menu entry starts the launcher with
# GDK_GL=disable, that nothing was written into the install directory, and that the package stays within
# 80 MB.
set -euo pipefail
dist=${1:?usage: verify-deb.sh DIST_DIR}
max_bytes=$((80 * 1024 * 1024))

for tool in dpkg-deb; do
    command -v "$tool" >/dev/null || { echo "verify-deb: $tool is missing: cannot check the .deb" >&2; exit 1; }
done
deb=$(ls "$dist"/*.deb 2>/dev/null | head -n 1 || true)
[ -n "$deb" ] || { echo "verify-deb: no .deb in $dist" >&2; exit 1; }
fail() { echo "verify-deb: $*" >&2; exit 1; }

size=$(stat -c %s "$deb")
echo "verify-deb: $(basename "$deb") is $((size / 1024 / 1024)) MB ($size bytes; limit 80 MB)"
[ "$size" -le "$max_bytes" ] || fail "the package is larger than 80 MB"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"
dpkg-deb -x "$deb" "$root"
dpkg-deb -f "$deb" Package Version Depends | sed 's/^/verify-deb: /'
package=$(dpkg-deb -f "$deb" Package)
launcher=$(find "$root" -type f -path '*/bin/ClaimDesk' | head -n 1)
[ -x "$launcher" ] || fail "no executable bin/ClaimDesk in the package"
archive_script=$(find "$root" -type f -path '*/lib/app/claimdesk-startup-archive.sh' | head -n 1)
[ -n "$archive_script" ] || fail "no lib/app/claimdesk-startup-archive.sh in the package"
archive="$(dirname "$archive_script")/claimdesk.jsa"
classlist="$(dirname "$archive_script")/claimdesk.classlist"
# The menu entry starts the installed launcher without GTK's OpenGL probe (installer/README.md).
entry=$(find "$root" -type f -name '*.desktop' | head -n 1)
[ -n "$entry" ] || fail "no menu entry (.desktop) in the package"
grep -Eq '^Exec=env GDK_GL=disable /.*/bin/ClaimDesk$' "$entry" \
    || fail "the menu entry does not start the launcher with GDK_GL=disable: $(grep '^Exec=' "$entry")"
# The training run that wrote the class list must log as the installed console does (app.LogSetup's rolling
# file), not through the tests' logback-test.xml: the archive then holds the logging classes every start loads.
grep -Eq '^ch/qos/logback/core/rolling/SizeAndTimeBasedRollingPolicy( |$)' "$classlist" \
    || fail "the class list lacks the console's rolling log file: its training did not log as the console does"
! grep -q '^ch/qos/logback/classic/joran/' "$classlist" \
    || fail "the class list holds logback's XML configuration: its training read the tests' logback-test.xml"
# A team database's start is in the list too (the build's second training): the driver and its password exchange.
grep -Eq '^org/postgresql/shaded/com/ongres/scram/client/ScramClient( |$)' "$classlist" \
    || fail "the class list lacks the PostgreSQL driver's password exchange: the team database's training did not run"

# --- The maintainer scripts jpackage generated from installer/linux/postinst and prerm -----------------
dpkg-deb -e "$deb" "$work/control"
for script in postinst prerm; do
    ! grep -Eq 'DESKTOP_COMMANDS_(UN)?INSTALL|APPLICATION_PACKAGE|UTILITY_SCRIPTS' "$work/control/$script" \
        || fail "$script still holds a jpackage placeholder"
    # jpackage's desktop commands, as our scripts run them: every tool they call must be one stubbed below,
    # so that no run of the scripts here touches this machine's menus.
    sed -n "/<<'END_OF_COMMANDS'\$/,/^END_OF_COMMANDS\$/p" "$work/control/$script" | sed '1d;$d' \
        > "$work/$script.commands"
    sed 's/&&/\n/g' "$work/$script.commands" | awk 'NF { print $1 }' | sort -u > "$work/$script.tools"
    while read -r tool; do
        case "$tool" in
            xdg-desktop-menu|xdg-icon-resource|xdg-mime|uninstall_default_mime_handler) ;;
            *) fail "$script runs $tool, which this check does not stub" ;;
        esac
    done < "$work/$script.tools"
done
grep -q '^xdg-desktop-menu install .*\.desktop' "$work/postinst.commands" \
    || fail "postinst does not register the menu entry"
grep -q '^xdg-desktop-menu uninstall .*\.desktop' "$work/prerm.commands" \
    || fail "prerm does not remove the menu entry"
grep -q claimdesk-startup-archive.sh "$work/control/postinst" || fail "postinst does not write the start-up archive"

# Stubs: the xdg tools failing as on a system without a desktop (xdg-desktop-menu exits 3 there), or
# working (they check that the file they are given is in the package); both log their calls.
mkdir -p "$work/xdg-failing" "$work/xdg-working" "$work/dpkg-list"
for tool in xdg-desktop-menu xdg-icon-resource xdg-mime; do
    cat > "$work/xdg-failing/$tool" <<EOF
#!/bin/sh
echo "$tool \$*" >> "$work/xdg.log"
echo "$tool: No writable system menu directory found." >&2
exit 3
EOF
    cat > "$work/xdg-working/$tool" <<EOF
#!/bin/sh
echo "$tool \$*" >> "$work/xdg.log"
for arg; do
    case "\$arg" in /*) [ -e "\${DPKG_ROOT:-}\$arg" ] || { echo "$tool: \$arg: no such file" >&2; exit 2; } ;; esac
done
EOF
done
# dpkg -L, answered from the extracted package (the package is not installed on this machine).
cat > "$work/dpkg-list/dpkg" <<EOF
#!/bin/sh
[ "\$1" = -L ] && [ "\$2" = "$package" ] || { echo "dpkg stub: unexpected dpkg \$*" >&2; exit 2; }
cd "$root" && find . -mindepth 1 | sed 's|^\.||'
EOF
chmod +x "$work"/xdg-failing/* "$work"/xdg-working/* "$work/dpkg-list/dpkg"

# run_script STUBS SCRIPT ARG: runs the extracted maintainer script as dpkg would, the package in $root;
# its exit status in $status, its output in $work/out and $work/err.
run_script() {
    : > "$work/xdg.log"
    status=0
    env PATH="$work/$1:$work/dpkg-list:$PATH" DPKG_ROOT="$root" DPKG_MAINTSCRIPT_PACKAGE="$package" \
        sh "$work/control/$2" "$3" > "$work/out" 2> "$work/err" || status=$?
    sed "s/^/verify-deb: $2 $3 ($1): /" "$work/out" "$work/err"
}
expect() { # CONDITION-DESCRIPTION, then the test as arguments
    local what=$1; shift
    "$@" || { echo "verify-deb: $what" >&2; sed 's/^/  stderr: /' "$work/err" >&2; exit 1; }
}

# A system without a desktop: the menu entry cannot be registered, the package is configured all the same.
run_script xdg-failing postinst configure
expect "postinst configure failed ($status) when the menu entry could not be registered" [ "$status" -eq 0 ]
expect "postinst did not try to register the menu entry" grep -q '^xdg-desktop-menu install ' "$work/xdg.log"
expect "postinst did not say the menu entry was not registered" grep -q 'ClaimDesk: no menu entry was registered' "$work/err"
expect "postinst did not write the start-up archive after the menu entry failed" [ -s "$archive" ]
run_script xdg-failing prerm remove
expect "prerm remove failed ($status) when the menu entry could not be removed" [ "$status" -eq 0 ]
expect "prerm did not try to remove the menu entry" grep -q '^xdg-desktop-menu uninstall ' "$work/xdg.log"
expect "prerm did not say the menu entry was not removed" grep -q 'ClaimDesk: the menu entry was not unregistered' "$work/err"
expect "prerm did not delete the start-up archive" [ ! -e "$archive" ]

# A desktop: the menu entry is registered, nothing is reported.
run_script xdg-working postinst configure
expect "postinst configure failed ($status)" [ "$status" -eq 0 ]
expect "postinst did not register the menu entry" grep -q '^xdg-desktop-menu install /.*\.desktop$' "$work/xdg.log"
expect "postinst reported a failure with a working desktop" [ ! -s "$work/err" ]
expect "postinst did not write the start-up archive" [ -s "$archive" ]
# An upgrade that failed after prerm took the menu entry and the archive away: dpkg's abort-upgrade puts both back.
run_script xdg-working prerm upgrade
expect "prerm upgrade failed ($status)" [ "$status" -eq 0 ]
expect "prerm upgrade did not delete the start-up archive" [ ! -e "$archive" ]
run_script xdg-working postinst abort-upgrade
expect "postinst abort-upgrade failed ($status)" [ "$status" -eq 0 ]
expect "postinst abort-upgrade did not register the menu entry again" grep -q '^xdg-desktop-menu install /.*\.desktop$' "$work/xdg.log"
expect "postinst abort-upgrade did not write the start-up archive again" [ -s "$archive" ]
echo "verify-deb: start-up archive $((($(stat -c %s "$archive") + 1048575) / 1048576)) MB"

# --- The launcher, with the archive postinst wrote -------------------------------------------------------
(cd "$root" && find . -type f | sort) > "$work/before.txt"
mkdir -p "$work/home"
app() { # the packaged launcher with a throw-away home
    env -u CLAIMDESK_DB HOME="$work/home" CLAIMDESK_HOME="$work/home/.claimdesk" "$launcher" "$@"
}
version=$(app --version)
echo "verify-deb: --version: $version"
# -Xshare:on makes the JVM refuse to start when the archive cannot be used.
JAVA_TOOL_OPTIONS=-Xshare:on app --version > /dev/null 2> "$work/share.txt" || {
    echo "verify-deb: the launcher cannot use the start-up archive:" >&2; cat "$work/share.txt" >&2; exit 1; }
case "$version" in ClaimDesk*) ;; *) fail "unexpected --version output" ;; esac
# The runtime image carries -XX:ThreadPriorityPolicy=1 (jlink --add-options), so that the worker's
# lowest-priority threads yield to the console's; from the image, the JVM does not warn about it.
JAVA_TOOL_OPTIONS=-XX:+PrintFlagsFinal app --version > "$work/flags.txt" 2>/dev/null
grep -Eq 'ThreadPriorityPolicy +=? *1 .*\{jimage\}' "$work/flags.txt" \
    || fail "the runtime image does not carry -XX:ThreadPriorityPolicy=1"
# ... and keeps priorities above normal at nice 0, so that a start by root runs its threads as staff's do.
for p in 6 7 8 9 10; do
    grep -Eq "JavaPriority${p}_To_OSPriority +=? *0 .*\{jimage\}" "$work/flags.txt" \
        || fail "the runtime image does not map Java priority $p to nice 0"
done
# SQLite's native library is loaded from the install directory (org.sqlite.lib.path), not copied out of the
# driver's jar into a temporary file at every start: the self-test opens a database with the driver's
# temporary folder beneath a file, where nothing can be written.
expect "the package lacks SQLite's native library beside the application" [ -f "$(dirname "$(dirname "$launcher")")/lib/app/libsqlitejdbc.so" ]
JAVA_TOOL_OPTIONS=-Dorg.sqlite.tmpdir=/etc/hostname/claimdesk app --self-test > /dev/null 2> "$work/sqlite.txt" || {
    echo "verify-deb: the launcher does not load SQLite's native library from its install directory:" >&2
    cat "$work/sqlite.txt" >&2; exit 1; }
app --self-test
(cd "$root" && find . -type f | sort) > "$work/after.txt"
if ! diff -q "$work/before.txt" "$work/after.txt" >/dev/null; then
    echo "verify-deb: the app wrote into its install directory:" >&2
    diff "$work/before.txt" "$work/after.txt" >&2 || true
    exit 1
fi
# A ClaimDesk program still running from the package when it is upgraded or removed is said, not refused.
env -u CLAIMDESK_DB HOME="$work/home" CLAIMDESK_HOME="$work/home/.claimdesk" "$launcher" state-sim --port 0 \
    > /dev/null 2>&1 &
running=$!
for _ in $(seq 100); do
    [ "$(readlink "/proc/$running/exe" 2>/dev/null)" = "$launcher" ] && break
    sleep 0.1
done
run_script xdg-working prerm upgrade
kill "$running"; wait "$running" 2>/dev/null || true
expect "prerm upgrade failed ($status) with ClaimDesk running" [ "$status" -eq 0 ]
expect "prerm upgrade did not say ClaimDesk was running" \
    grep -q "ClaimDesk: ClaimDesk is still running from $launcher" "$work/err"
run_script xdg-working postinst configure
expect "postinst configure failed ($status)" [ "$status" -eq 0 ]
run_script xdg-working prerm remove
expect "prerm remove failed ($status)" [ "$status" -eq 0 ]
expect "prerm did not remove the menu entry" grep -q '^xdg-desktop-menu uninstall /.*\.desktop$' "$work/xdg.log"
expect "prerm reported a failure with a working desktop" [ ! -s "$work/err" ]
expect "prerm did not delete the start-up archive" [ ! -e "$archive" ]

# --- dpkg itself: install and remove into a throw-away root, on a system without a desktop ---------------
# dpkg --root keeps its database in that root and runs the maintainer scripts on this machine with
# DPKG_ROOT set (--force-script-chrootless; the root has no shell of its own to chroot into). The scripts
# write only under DPKG_ROOT, and every tool they call is stubbed (checked above), so this machine is
# left as it was. --force-depends: the throw-away root holds no other package. Needs root.
if [ "$(id -u)" -ne 0 ]; then
    echo "verify-deb: dpkg install into a throw-away root skipped: it needs root (the script runs above covered postinst and prerm)"
else
    target="$work/dpkg-root"
    mkdir -p "$target/var/lib/dpkg/info" "$target/var/lib/dpkg/updates" "$target/var/lib/dpkg/triggers"
    touch "$target/var/lib/dpkg/status" "$target/var/lib/dpkg/available"
    in_target() {
        env PATH="$work/xdg-failing:$PATH" dpkg --root="$target" --force-script-chrootless "$@"
    }
    : > "$work/xdg.log"
    in_target --force-depends -i "$deb" > "$work/dpkg.txt" 2>&1 || { cat "$work/dpkg.txt" >&2; fail "dpkg -i failed on a system without a desktop"; }
    [ "$(dpkg-query --root="$target" -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] \
        || { cat "$work/dpkg.txt" >&2; fail "dpkg left the package unconfigured on a system without a desktop"; }
    grep -q 'ClaimDesk: no menu entry was registered' "$work/dpkg.txt" \
        || { cat "$work/dpkg.txt" >&2; fail "dpkg -i: postinst did not say the menu entry was not registered"; }
    installed_archive=$(find "$target" -path '*/lib/app/claimdesk.jsa')
    [ -n "$installed_archive" ] || { cat "$work/dpkg.txt" >&2; fail "dpkg -i: postinst did not write the start-up archive"; }
    in_target -r "$package" > "$work/dpkg.txt" 2>&1 || { cat "$work/dpkg.txt" >&2; fail "dpkg -r failed on a system without a desktop"; }
    in_target --purge "$package" >> "$work/dpkg.txt" 2>&1 || { cat "$work/dpkg.txt" >&2; fail "dpkg --purge failed"; }
    left=$(cd "$target" && find . -mindepth 1 -path ./var -prune -o -print)
    [ -z "$left" ] || fail "dpkg --purge left files behind: $left"
    echo "verify-deb: dpkg -i, -r and --purge in a throw-away root without a desktop: configured, the menu entry reported missing, the start-up archive written and removed"
fi
echo "verify-deb: OK"
