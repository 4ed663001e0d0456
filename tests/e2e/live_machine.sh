# This real machine: the report must agree with what the system's own tools say.
set -eu
. "$(dirname "$0")/lib.inc"

[ "$(uname -s)" = Linux ] || { echo "SKIP: not Linux"; exit 77; }

DLENV_TEST_SECRET=never run report --json
expect_eq "exit code" 0 "$rc"
expect_eq "schema" "dlenv.report/1" "$(get schema)"
expect_eq "kernel" "$(uname -r)" "$(get os.kernel_release)"
expect_eq "arch" "$(uname -m)" "$(get os.arch)"
if command -v getconf >/dev/null && getconf GNU_LIBC_VERSION >/dev/null 2>&1; then
    expect_eq "glibc" "$(getconf GNU_LIBC_VERSION | cut -d' ' -f2)" "$(get os.libc_version)"
fi
if [ -r /etc/os-release ]; then
    expect_eq "distribution" "$(. /etc/os-release && echo "$PRETTY_NAME")" "$(get os.pretty_name)"
fi
kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
expect_eq "memory" "$((kib * 1024))" "$(get memory.total_bytes)"
expect_eq "threads" "$(grep -c '^processor' /proc/cpuinfo)" "$(get cpu.logical_threads)"
# The CPU's first governor, or unknown where the kernel scales no frequency (most VMs).
gov=/sys/devices/system/cpu/cpu0/cpufreq/scaling_governor
if [ -r "$gov" ]; then
    case "$(get cpu.frequency_governors)" in *"\"$(cat "$gov")\""*) ;;
        *) fail "governor $(cat "$gov") not in $(get cpu.frequency_governors)" ;; esac
else
    case "$(get cpu.frequency_governors)" in *'"unknown"'*) ;;
        *) fail "governors known without $gov: $(get cpu.frequency_governors)" ;; esac
fi

"$match" --complete "$work/out" || fail "a value is unknown without a reason"

# GPUs: exactly the display controllers on this machine's PCI bus.
want=0
for d in /sys/bus/pci/devices/*; do
    case "$(cat "$d/class" 2>/dev/null)" in 0x03*) want=$((want + 1)) ;; esac
done
got=$("$match" --get "$work/out" gpus | awk -F'"address"' '{print NF - 1}')
expect_eq "GPU count" "$want" "$got"

# Only allowlisted variables are reported.
case "$out" in *DLENV_TEST_SECRET*) fail "a variable outside the allowlist was reported" ;; esac
expect_eq "PATH is reported" "$PATH" "$(get environment.PATH)"

# Every probe ran and none failed on a healthy machine.
for p in os wsl container cpu cpufreq memory pci environment; do
    case "$out" in *"\"name\": \"$p\""*|*"\"name\":	\"$p\""*) ;; *) fail "probe $p missing" ;; esac
done
case "$out" in *'"failed"'*) fail "a probe failed on this machine" ;; esac

finish
