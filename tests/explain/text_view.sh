#!/bin/sh
# text_view.sh DLENV DIR: the text view names one line as "(1 line)" and shows each fact's
# value next to the line it came from.
set -u
dlenv=$1 dir=$2
failed=0
out=$("$dlenv" explain "$dir/error-1455-short.txt" 2>&1)
case "$out" in *"(1 line)"*) ;; *) echo "FAIL: no '(1 line)' in: $out"; failed=1 ;; esac
out=$("$dlenv" explain "$dir/windows-pip-row-smi.txt" 2>&1)
for want in "nvml.driver_version = 551.86" "L4: | NVIDIA-SMI 551.86" \
            "pythons[0].site_packages[0].torches[0].version = 2.2.2" "(6 lines)"; do
    case "$out" in *"$want"*) ;; *) echo "FAIL: '$want' missing in: $out"; failed=1 ;; esac
done
# NVIDIA's image tag is a release date, not torch's version
out=$("$dlenv" explain "$dir/ngc-gpu-not-yet-supported.txt" 2>&1)
case "$out" in *"version = 21.02"*) echo "FAIL: NGC tag read as torch: $out"; failed=1 ;; esac
# an OS inferred from Windows' driver numbering is shown as inferred, not as the text's word
out=$("$dlenv" explain "$dir/windows-driver-number-untagged-torch.txt" 2>&1)
want="os.family = windows (inferred from the driver version 546.33)"
case "$out" in *"$want"*) ;; *) echo "FAIL: '$want' missing in: $out"; failed=1 ;; esac
out=$("$dlenv" explain --json "$dir/windows-driver-number-untagged-torch.txt" 2>&1)
case "$out" in *'"inferred_from":'*'"nvml.driver_version"'*) ;;
    *) echo "FAIL: no inferred_from in --json: $out"; failed=1 ;; esac
out=$("$dlenv" explain "$dir/windows-pip-row-smi.txt" 2>&1)
case "$out" in *"inferred from"*) echo "FAIL: a read fact shown as inferred: $out"; failed=1 ;; esac
# a known-bad CUDA torch in a text that names no GPU: the fixed release in the same build
# (the driver that ran 2.4.0+cu121 runs 2.4.1+cu121), never the CPU build
out=$("$dlenv" explain "$dir/torch-form-fence-glued.txt" 2>&1)
want="pip install torch==2.4.1 torchvision==0.19.1 --index-url https://download.pytorch.org/whl/cu121"
case "$out" in *"$want"*) ;; *) echo "FAIL: '$want' missing in: $out"; failed=1 ;; esac
case "$out" in *"whl/cpu"*) echo "FAIL: a CUDA torch moved to the CPU build: $out"; failed=1 ;; esac
out=$("$dlenv" explain "$dir/windows-pip-row-smi.txt" 2>&1)
case "$out" in *"that is the CPU build"*) echo "FAIL: CPU-build note with a GPU named: $out"
    failed=1 ;; esac
# a signature confirmed by a rule on the text's facts takes the rule's fix: the install
# command for that GPU, driver and Python, not the table's general words
out=$("$dlenv" explain "$dir/collect-env-cpu-build-fix.txt" 2>&1)
case "$out" in *'$ python -m pip install torch'*'--index-url https://download.pytorch.org/whl/cu'*) ;;
    *) echo "FAIL: no install command in the CPU-build fix: $out"; failed=1 ;; esac
# pip's pinned +cu118 is the torch's CUDA; the driver's minimum is the one for Windows
out=$("$dlenv" explain "$dir/pip-pin-cu118-old-windows-driver.txt" 2>&1)
case "$out" in *"update the driver to 520.06 or newer for CUDA 11.8"*) ;;
    *) echo "FAIL: no Windows minimum driver in: $out"; failed=1 ;; esac
# torchrun's "Redirects are currently not supported in Windows or MacOs" names no OS
out=$("$dlenv" explain "$dir/torchrun-redirects-note-no-windows.txt" 2>&1)
case "$out" in *"os.family = windows"*)
    echo "FAIL: torchrun's redirects note read as Windows: $out"; failed=1 ;; esac
# a SIGILL on an ARMv8.0 board with no release named: pip leaves out every bad release
out=$("$dlenv" explain "$dir/rpi-sigill-release-unnamed.txt" 2>&1)
case "$out" in *'pip install "torch!=2.0.0,!=2.4.0,!=2.6.0,!=2.10.0"'*) ;;
    *) echo "FAIL: no pip exclusion of the bad aarch64 releases in: $out"; failed=1 ;; esac
# Ultralytics' banner glues name and release ("torch-2.2.2+cpu"); a package named
# "torch2trt-0.4.0" is not torch
# is_available() False and nothing else: ask for the error torch.cuda.init() raises
out=$("$dlenv" explain "$dir/unavailable-no-error.txt" 2>&1)
case "$out" in *'torch.cuda.init()'*) ;; *) echo "FAIL: no torch.cuda.init() ask: $out"; failed=1 ;;
esac
# the program at fault, not the environment: the note under its own heading (no root), after
# the root cause as "Note:" (an Intel GPU named), and in --json's "notes"
out=$("$dlenv" explain "$dir/cuda-call-on-cpu-run.txt" 2>&1)
want="No problem of the environment is recognisable in this text:
  the CPU was chosen and the program still asked for CUDA"
case "$out" in *"$want"*) ;; *) echo "FAIL: '$want' missing in: $out"; failed=1 ;; esac
out=$("$dlenv" explain "$dir/cpu-flag-program-asks-cuda.txt" 2>&1)
case "$out" in *"Most likely non_nvidia_gpu"*"Note: the CPU was chosen"*) ;;
    *) echo "FAIL: no note after the root cause: $out"; failed=1 ;; esac
out=$("$dlenv" explain --json "$dir/cuda-call-on-cpu-run.txt" 2>&1)
case "$out" in *'"notes":'*'the program'"'"'s fault'*) ;;
    *) echo "FAIL: no notes in --json: $out"; failed=1 ;; esac
out=$("$dlenv" explain --json "$dir/windows-pip-row-smi.txt" 2>&1)
case "$out" in *'"notes":	[]'*|*'"notes": []'*|*'"notes":[]'*) ;;
    *) echo "FAIL: notes where the program is not at fault: $out"; failed=1 ;; esac
# CUDA_VISIBLE_DEVICES set in the script after CUDA started, and a model over two GPUs: the
# program's doing, a note that says where to set the variable
for f in cvd_set_in_script.txt cvd_two_devices.txt; do
    out=$("$dlenv" explain "$dir/$f" 2>&1)
    case "$out" in *"No problem of the environment"*"before Python starts"*) ;;
        *) echo "FAIL: $f: no note on where to set CUDA_VISIBLE_DEVICES: $out"; failed=1 ;; esac
done
# vLLM's floor of compute capability 7.0: its note alone, not the bfloat16 one ("use float16")
out=$("$dlenv" explain "$dir/vllm_below_cc70_note.txt" 2>&1)
case "$out" in *"vLLM runs only on GPUs of compute capability 7.0"*) ;;
    *) echo "FAIL: no vLLM floor note: $out"; failed=1 ;; esac
case "$out" in *"load it in float16"*) echo "FAIL: the bfloat16 note beside vLLM's floor: $out"; failed=1 ;; esac
# bfloat16 asked of a GPU without it (torch's autocast, transformers' Trainer): a note
for f in bf16_autocast_t4_note.txt bf16_trainer_note.txt; do
    out=$("$dlenv" explain "$dir/$f" 2>&1)
    case "$out" in *"No problem of the environment"*"has no bfloat16"*) ;;
        *) echo "FAIL: $f: no bfloat16 note: $out"; failed=1 ;; esac
done
# a fact read from the words of a paste, one form a file (fact-forms.tsv: file, fact, value;
# "-": none may be read)
tab=$(printf '\t')
while IFS="$tab" read -r file fact value; do
    case "$file" in ''|'#'*) continue ;; esac
    out=$("$dlenv" explain "$dir/$file" 2>&1)
    if [ "$value" = - ]; then
        case "$out" in *"$fact = "*)
            echo "FAIL: $file: $fact read where the text shows none: $out"; failed=1 ;;
        esac
        continue
    fi
    want="$fact = $value"
    case "$out" in *"$want$tab"*|*"$want
"*) ;; *) echo "FAIL: $file: '$want' missing in: $out"; failed=1 ;; esac
done < "$dir/fact-forms.tsv"
# a ROCm build without the GPU's target: the fix is the override to the same family's target
out=$("$dlenv" explain "$dir/rocm-gfx1031-unavailable.txt" 2>&1)
want="export HSA_OVERRIDE_GFX_VERSION=10.3.0"
case "$out" in *"$want"*) ;; *) echo "FAIL: '$want' missing in: $out"; failed=1 ;; esac
# a GPU named in a requirement ("only supported on A100+ GPUs", "only supports Ampere GPUs
# or newer") is not the writer's GPU
out=$("$dlenv" explain "$dir/requirement-gpu-names-not-facts.txt" 2>&1)
case "$out" in *"gpus[0].name"*) echo "FAIL: a requirement read as the GPU: $out"; failed=1 ;; esac
# out of memory with much reserved but unallocated: the allocator setting the message names
out=$("$dlenv" explain "$dir/oom-reserved-unallocated.txt" 2>&1)
case "$out" in *"expandable_segments:True"*) ;; *) echo "FAIL: no expandable_segments in: $out"; failed=1 ;; esac
[ $failed = 0 ] && echo "text view: ok"
exit $failed
