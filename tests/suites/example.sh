#!/bin/sh
# The README's C example (examples/gather.c) prints the documented output, and the
# embedding example (examples/embed/embed.c: a static arena as the allocator, a
# pthread pool, executes from two threads) checks all it does and ends with
# "embed: N passed, 0 failed", exit 0.
BUILD=${BUILD:-build}
pass=0 fail=0 skip=0

got=$("$BUILD/example_gather")
want='[1, 2]
[3, 4]
[3, 4]
[5, 6]'
if [ "$got" = "$want" ]; then
    pass=$((pass + 1))
else
    printf 'example_gather printed:\n%s\n' "$got"
    fail=$((fail + 1))
fi

# embed NAME: $BUILD/NAME exits 0 and its last line is "embed: N passed, 0 failed"
embed() {
    got=$("$BUILD/$1" 2>&1)
    rc=$?
    last=$(printf '%s\n' "$got" | tail -n 1)
    if [ $rc -eq 0 ] && printf '%s\n' "$last" | grep -Eq '^embed: [1-9][0-9]* passed, 0 failed$'; then
        pass=$((pass + 1))
    else
        printf '%s (exit %s) printed:\n%s\n' "$1" "$rc" "$got"
        fail=$((fail + 1))
    fi
}

# EXAMPLE_EMBED=0: a build that cannot create threads (scripts/cross.sh's wasm32) skips them.
# example_embed_trap is the same example linked with trap versions of libc's malloc family
# and (gcc OpenMP builds) of OpenMP (tests/alloc/libc_trap.c): it sets an allocator and a
# thread pool, so it must call none of them; the README's example (default options, malloc)
# linked the same way shows the trap is live: exit 99 naming malloc.
if [ "${EXAMPLE_EMBED:-1}" = 0 ]; then
    echo "SKIP example_embed, example_embed_trap, example_gather_trap: EXAMPLE_EMBED=0 (this build cannot create threads)"
    skip=$((skip + 3))
else
    embed example_embed
    embed example_embed_trap
    got=$("$BUILD/example_gather_trap" 2>&1)
    rc=$?
    if [ $rc -eq 99 ] && printf '%s\n' "$got" | grep -q '^libc trap: the library called malloc '; then
        pass=$((pass + 1))
    else
        printf 'example_gather_trap (exit %s, want 99 and the malloc trap) printed:\n%s\n' "$rc" "$got"
        fail=$((fail + 1))
    fi
fi

echo "example: $pass passed, $fail failed, $skip skipped"
[ $fail -eq 0 ]
