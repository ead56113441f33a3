#!/bin/sh
# The shipped archive of a sanitizer build ($SAN_BUILD/libdmlref.a, made with
# CC="$SAN_CC") links into a program built by the same compiler and runs: the
# archive holds the instrumented library and none of the sanitizer's runtime
# (which the -r link of libdmlref.o would otherwise pull in: every symbol of the
# runtime then defined twice when the program links).  Run by make test-tsan
# after it builds $SAN_BUILD/libdmlref.a; prints "ok - ..." or "FAIL - ..."
# lines and exits 1 on a failure.
# Environment: SAN_CC (default clang -fsanitize=thread), SAN_BUILD (default build-tsan).
SAN_CC=${SAN_CC:-clang -fsanitize=thread}
B=${SAN_BUILD:-build-tsan}
fail=0
ok() { echo "ok - $*"; }
bad() { echo "FAIL - $*"; fail=1; }

a="$B/libdmlref.a"
[ -f "$a" ] || { echo "FAIL - $a is missing (make BUILD=$B CC=\"$SAN_CC\" $a)"; exit 1; }
# the runtime's own entry points (__tsan_init, __asan_init, ...) are only referenced, never defined
defined=$(nm "$a" 2>/dev/null | grep -E ' [TDB] __(tsan|asan|msan|ubsan|sanitizer)_' | head -n 3)
if [ -z "$defined" ]; then ok "$a defines no sanitizer runtime symbol"
else bad "$a defines sanitizer runtime symbols, e.g. $(echo "$defined" | tr '\n' ' ')"; fi
if nm "$a" 2>/dev/null | grep -qE ' U __(tsan|asan)_'; then ok "$a is instrumented (calls the runtime)"
else bad "$a calls no sanitizer runtime: not the sanitizer build"; fi
# shellcheck disable=SC2086 # SAN_CC is a command and its flags
if $SAN_CC -O1 -g -Iinclude -o "$B/example_gather_san" examples/gather.c "$a" -lm >"$B/example_gather_san.log" 2>&1; then
    ok "examples/gather.c links against $a with $SAN_CC"
    out=$("$B/example_gather_san" 2>&1 | head -n 1)
    [ "$out" = "[1, 2]" ] && ok "the example runs under the sanitizer" || bad "the example printed '$out'"
else
    head -n 5 "$B/example_gather_san.log"
    bad "examples/gather.c does not link against $a with $SAN_CC"
fi
rm -f "$B/example_gather_san.log"
exit $fail
