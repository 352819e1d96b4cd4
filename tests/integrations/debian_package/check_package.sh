#!/usr/bin/env bash
# Builds the workbench's .deb with CPack, unpacks it into a scratch root (no root rights, no
# container: dpkg -x) and checks that the installed programs run from there and that the package
# carries derived dependencies, the desktop entry, the icon and valid AppStream metadata.
#
#   check_package.sh BUILD_DIR WORK_DIR
set -euo pipefail
build="$1"
work="$2"
fail() { echo "FAIL: $*" >&2; exit 1; }

rm -rf "$work"
mkdir -p "$work/out"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work/out" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log" >&2; fail "cpack did not build the package"; }
debs=("$work"/out/noisescope_*.deb)
[ -f "${debs[0]}" ] || fail "no noisescope_*.deb in $work/out"
deb="${debs[0]}"
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"

# Dependencies derived by dpkg-shlibdeps from the binaries, not listed by hand.
depends="$(dpkg-deb -f "$deb" Depends)"
echo "Depends: $depends"
for lib in libtorch libqt6core6 libqt6widgets6 libqt6charts6 libc6 libstdc++6; do
  grep -q "$lib" <<<"$depends" || fail "Depends lacks $lib"
done

# What `apt install ./noisescope_*.deb` would do here: every dependency resolvable (simulated).
if command -v apt-get >/dev/null; then
  apt-get -s -q -o Debug::NoLocking=1 install "$deb" >"$work/apt.log" 2>&1 ||
    { cat "$work/apt.log" >&2; fail "apt cannot resolve the package's dependencies"; }
fi

root="$work/root"
dpkg -x "$deb" "$root"
for f in usr/bin/noisescope usr/bin/noisescope-cli usr/share/applications/noisescope.desktop \
         usr/share/metainfo/io.github.noisescope.NoiseScope.metainfo.xml \
         usr/share/icons/hicolor/scalable/apps/noisescope.svg; do
  [ -f "$root/$f" ] || fail "the package does not install /$f"
done
appstreamcli validate --no-net "$root/usr/share/metainfo/io.github.noisescope.NoiseScope.metainfo.xml" ||
  fail "appstreamcli rejects the installed metadata"
if command -v desktop-file-validate >/dev/null; then
  desktop-file-validate "$root/usr/share/applications/noisescope.desktop" || fail "bad desktop entry"
fi

# No path into the build tree: the installed binaries resolve their libraries like any package.
for bin in noisescope noisescope-cli; do
  if readelf -d "$root/usr/bin/$bin" | grep -E 'R(UN)?PATH' | grep -q "$build"; then
    fail "$bin has an RPATH into the build folder"
  fi
done

# They run from the installed location, with a clean environment (no LD_LIBRARY_PATH).
version="$(env -u LD_LIBRARY_PATH "$root/usr/bin/noisescope-cli" --version)" ||
  fail "the installed noisescope-cli does not run"
echo "installed: $version"
want="$(sed -n 's/.*<release version="\([^"]*\)".*/\1/p' \
  "$root/usr/share/metainfo/io.github.noisescope.NoiseScope.metainfo.xml" | head -1)"
[ "$version" = "noisescope-cli $want" ] ||
  fail "the CLI says '$version' but the AppStream release is $want"
gui="$(env -u LD_LIBRARY_PATH QT_QPA_PLATFORM=offscreen "$root/usr/bin/noisescope" --version)" ||
  fail "the installed workbench does not start"
echo "installed: $gui"
[ "$gui" = "NoiseScope $want" ] || fail "the workbench says '$gui'"
# A real command from there: a schedule file, read back by the info command's schedule reader.
env -u LD_LIBRARY_PATH "$root/usr/bin/noisescope-cli" schedule --preset edm --bins 16 \
  -o "$work/edm.schedule.json" >/dev/null || fail "the installed CLI cannot write a schedule"
grep -q '"noisescope.schedule/1"' "$work/edm.schedule.json" || fail "the schedule file is not one"
echo "ok: the package installs and its programs run from $root/usr/bin"
