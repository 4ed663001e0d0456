# dlenv data: the knowledge tables, built in and replaced with --data DIR.
set -eu
. "$(dirname "$0")/lib.inc"

tables="torch_releases cuda_driver wheel_arches gpu_compute_capability cudnn cudnn_libraries
        torch_wheels known_bad_releases error_signatures gpu_arch gpu_chips
        gpu_targets wheel_targets gpu_codenames pci_gpus cuda_arch_ceiling geforce_series"

run data
expect_eq "data exit code" 0 "$rc"
for t in $tables; do
    case "$out" in *"$t"*) ;; *) fail "dlenv data does not list $t" ;; esac
done
case "$out" in *"from built-in"*"sources:"*"https://"*) ;; *) fail "data text: $out" ;; esac
long=$(printf '%s\n' "$out" | awk 'length($0) > 80' | head -n 3)
expect_eq "data lines over 80 columns" "" "$long"

run data --json
expect_eq "data --json exit code" 0 "$rc"
expect_eq "data schema" "dlenv.data/1" "$(get schema)"
i=0
for t in $tables; do
    expect_eq "table $i name" "$t" "$(get "tables.$i.name")"
    expect_eq "table $i origin" "built-in" "$(get "tables.$i.origin")"
    rows=$(get "tables.$i.rows")
    [ "$rows" -gt 0 ] || fail "table $t has $rows rows"
    case "$(get "tables.$i.sources.0")" in ?*) ;; *) fail "table $t cites no source" ;; esac
    i=$((i + 1))
done
expect_eq "no eighteenth table" "" "$(get "tables.17.name" 2>/dev/null || true)"

# One table replaced; the others stay built in.
mkdir "$work/d"
printf 'cudnn_major,os,main_library,sublibraries,version_encoding,source\r\n9,linux,libcudnn.so.9,,x,"test source"\r\n' \
    > "$work/d/cudnn_libraries.csv"
run data --json --data "$work/d"
expect_eq "override exit code" 0 "$rc"
expect_eq "override origin" "$work/d/cudnn_libraries.csv" "$(get "tables.5.origin")"
expect_eq "override rows" 1 "$(get "tables.5.rows")"
expect_eq "override source" "test source" "$(get "tables.5.sources.0")"
expect_eq "others stay built in" "built-in" "$(get "tables.0.origin")"

# Options may come first, and a broken table is exit 4 with the file:line:col message.
printf 'cuda_version,min_driver_linux,min_driver_windows,mvc_min_driver_linux,mvc_min_driver_windows,source\n12.0,>=525.60.13,"oops\n' \
    > "$work/d/cuda_driver.csv"
run --data "$work/d" data
expect_eq "broken table exit code" 4 "$rc"
expect_eq "broken table message" "dlenv: $work/d/cuda_driver.csv:2:18: unterminated quoted field" "$err"
expect_eq "broken table writes nothing" "" "$out"

printf 'cuda_version,source\n12.0,x\n' > "$work/d/cuda_driver.csv"
run data --data "$work/d" --json
expect_eq "missing column exit code" 4 "$rc"
expect_eq "missing column message" \
    "dlenv: $work/d/cuda_driver.csv:1: missing required column 'min_driver_linux'" "$err"

run data --data "$work/nonexistent"
expect_eq "missing --data exit code" 4 "$rc"
expect_eq "missing --data message" \
    "dlenv: --data: cannot inspect $work/nonexistent: No such file or directory" "$err"

run data --data
expect_eq "--data without a value" 2 "$rc"

run data --help
for word in "Usage: dlenv data" "--data DIR" "--json"; do
    case "$out" in *"$word"*) ;; *) fail "data --help does not mention $word" ;; esac
done

finish
