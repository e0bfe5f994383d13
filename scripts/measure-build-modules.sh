#!/bin/sh
# Prints the CPU seconds each module takes to compile in the two builds `make test` makes (the
# debug build with its test bundles, and the fuzzing build), built side by side as it builds them,
# from a fresh clone of HEAD (docs/performance.md, "CI's time, sixth step"). A `swiftc` wrapper
# named by SWIFT_EXEC logs every compiler invocation's module and CPU time, its children's included.
#
# Usage: scripts/measure-build-modules.sh (about 5 minutes on 2 cores; nothing else should run).
set -eu
cd "$(dirname "$0")/.."
if [ $# -ne 0 ]; then
  echo "usage: scripts/measure-build-modules.sh" >&2
  exit 2
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
git clone --quiet . "$work/clone"

# The toolchain's own swiftc. SwiftPM finds the toolchain's libraries beside the compiler it is
# given, so the wrapper's folder gets a `lib` that is the toolchain's.
toolchain_bin=$(dirname "$(readlink -f "$(command -v swiftc)")")
mkdir "$work/bin"
ln -s "$toolchain_bin/../lib" "$work/lib"
cat >"$work/bin/swiftc" <<WRAPPER
#!/bin/sh
module=unknown
previous=
for argument in "\$@"; do
  [ "\$previous" = -module-name ] && module=\$argument
  previous=\$argument
done
exec /usr/bin/time -a -o "\$MODULE_TIMES" -f "\$module %U %S" "$toolchain_bin/swiftc" "\$@"
WRAPPER
chmod +x "$work/bin/swiftc"

cd "$work/clone"
MODULE_TIMES=$work/debug.times LAB_BENCH_OPTIMIZED_DEBUG=1 SWIFT_EXEC=$work/bin/swiftc \
  swift build --build-tests >"$work/debug.out" 2>&1 &
debug=$!
MODULE_TIMES=$work/fuzzing.times LAB_BENCH_OPTIMIZED_DEBUG=1 LAB_BENCH_FUZZING=1 SWIFT_EXEC=$work/bin/swiftc \
  swift build -c release --scratch-path .build/fuzzing >"$work/fuzzing.out" 2>&1 &
fuzzing=$!
status=0
wait "$debug" || { tail -20 "$work/debug.out" >&2; status=1; }
wait "$fuzzing" || { tail -20 "$work/fuzzing.out" >&2; status=1; }
[ "$status" -eq 0 ] || { echo "measure-build-modules: a build failed (above)" >&2; exit 1; }

for build in debug fuzzing; do
  echo "$build build, CPU seconds by module (\"unknown\": links and other steps):"
  awk '{ cpu[$1] += $2 + $3; total += $2 + $3 }
    END { for (module in cpu) printf "  %-24s %6.1f\n", module, cpu[module]; printf "  %-24s %6.1f\n", "all", total }' \
    "$work/$build.times" | sort -k2 -nr
done
