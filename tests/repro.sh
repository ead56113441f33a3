# Repro lines for the shell suites (sourced; needs $tmp, the suite's scratch
# directory, and $repro_suite, the suite).  expect() calls repro_note "$@" before a
# command; a failing check calls repro_print, which prints one line
#   repro: COMMAND...
# that re-runs the last command noted (files under $tmp, deleted when the suite
# ends, are copied under $REPRO_KEEP/SUITE/ first and named there), or, when none was
# noted, the whole suite.
REPRO_KEEP=${REPRO_KEEP:-${TMPDIR:-/tmp}/dmlref-repro}
repro_cmd=
repro_note() { repro_cmd=$(printf '%s\n' "$@"); }
repro_clear() { repro_cmd=; }
repro_print() {
    if [ -z "$repro_cmd" ]; then
        echo "repro: BUILD=${BUILD:-build} sh tests/suites/$repro_suite.sh"
        return
    fi
    line=
    while IFS= read -r a; do
        case $a in
        "$tmp"/*)
            k="$REPRO_KEEP/$repro_suite/${a#"$tmp"/}"
            if [ -e "$a" ] && mkdir -p "${k%/*}" && rm -rf "$k" && cp -R "$a" "$k"; then a=$k; fi ;;
        esac
        case $a in
        '' | *[!A-Za-z0-9_./=:,+@%-]*) a="'$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'" ;;
        esac
        line="$line${line:+ }$a"
    done <<REPRO_EOF
$repro_cmd
REPRO_EOF
    echo "repro: $line"
}
