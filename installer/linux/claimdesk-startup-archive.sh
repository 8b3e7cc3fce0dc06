#!/bin/sh
# Writes this installation's class-data sharing archive (lib/app/claimdesk.jsa) from the class list the
# build recorded during a start-up of the console (lib/app/claimdesk.classlist). The launcher passes
# -XX:SharedArchiveFile=$APPDIR/claimdesk.jsa: with the archive, the JVM maps those classes instead of
# loading them one by one, and the console opens faster; without it (or if it no longer matches), the
# JVM simply starts without it. Run by the package's postinst; the archive must be written where the
# application is installed, because it records the absolute paths of the application's jars.
set -eu
app=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$(dirname "$app")")
java="$root/lib/runtime/bin/java"
cfg="$app/ClaimDesk.cfg"
[ -x "$java" ] && [ -f "$cfg" ] && [ -f "$app/claimdesk.classlist" ] || {
    echo "claimdesk-startup-archive: no runtime, launcher configuration or class list under $root" >&2
    exit 1
}
# the class path exactly as the launcher builds it: the app.classpath lines, in order, $APPDIR expanded
classpath=$(sed -n 's/^app\.classpath=//p' "$cfg" | sed "s|\$APPDIR|$app|" | paste -sd: -)
rm -f "$app/claimdesk.jsa"
"$java" -Xshare:dump -Xlog:cds=off -Xlog:cds+dynamic=off \
    -XX:SharedClassListFile="$app/claimdesk.classlist" -XX:SharedArchiveFile="$app/claimdesk.jsa" \
    -cp "$classpath" > /dev/null
chmod 644 "$app/claimdesk.jsa"
echo "claimdesk-startup-archive: wrote $app/claimdesk.jsa"
