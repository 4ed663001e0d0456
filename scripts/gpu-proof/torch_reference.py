#!/usr/bin/env python3
"""torch_reference.py: the references dlenv verify's GPU figures are held against, measured
with the machine's own CUDA torch on device 0 in the same run. Prints one JSON object.

  copy      a device-to-device copy of a large buffer (b.copy_(a): up to 2 GiB, at most a
            quarter of free memory), counted as dlenv counts it: bytes read + written
  matmul    torch.mm on 4096 x 4096 in fp32 (TF32 off), tf32, fp16 and bf16 (where the GPU
            has them): the products verify times through dlenv's runtime probe, timed
            here on their own

Each figure: warm-up, a sample sized to last >= 50 ms, the median of 5 samples between
CUDA events. A failure is that figure's "error", never the end of the run. Runs under any
Python 3 with torch; the standard library and torch only.
"""
import json
import sys

SAMPLE_SECONDS = 0.05
SAMPLES = 5


def timed(torch, step):
    """Seconds per step(): calibrated, then the median of SAMPLES samples."""
    step()
    torch.cuda.synchronize()
    k, times = 1, []
    while len(times) < SAMPLES:
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(k):
            step()
        end.record()
        end.synchronize()
        seconds = start.elapsed_time(end) / 1000.0
        if seconds < SAMPLE_SECONDS and k < 4096 and not times:
            k = min(4096, max(2 * k, int(k * SAMPLE_SECONDS / max(seconds, 1e-9)) + 1))
            continue
        times.append(seconds / k)
    times.sort()
    return times[len(times) // 2], (times[-1] - times[0]) / times[len(times) // 2] * 100.0


def measure_copy(torch):
    free, _ = torch.cuda.mem_get_info()
    size = min(2 << 30, free // 4) // (1 << 20) * (1 << 20)
    a = torch.empty(size, dtype=torch.uint8, device="cuda")
    b = torch.empty(size, dtype=torch.uint8, device="cuda")
    seconds, spread = timed(torch, lambda: b.copy_(a))
    del a, b
    return {"gbps": 2.0 * size / seconds / 1e9, "bytes": size, "spread_pct": spread,
            "method": "b.copy_(a) on device 0, bytes read + written"}


def measure_matmul(torch, dtype, tf32):
    n = 4096
    old = torch.backends.cuda.matmul.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = tf32
    try:
        a = torch.randn(n, n, device="cuda", dtype=dtype)
        b = torch.randn(n, n, device="cuda", dtype=dtype)
        seconds, spread = timed(torch, lambda: torch.mm(a, b))
        del a, b
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    return {"tflops": 2.0 * n ** 3 / seconds / 1e12, "size": n, "spread_pct": spread}


def attempt(out, key, fn):
    try:
        out[key] = fn()
    except Exception as e:  # noqa: BLE001 - a figure that fails is a fact
        out[key] = {"error": "%s: %s" % (type(e).__name__, e)}


def main():
    out = {"python": sys.executable, "python_version": "%d.%d.%d" % sys.version_info[:3]}
    try:
        import torch
    except Exception as e:  # noqa: BLE001
        out["error"] = "import torch: %s: %s" % (type(e).__name__, e)
        print(json.dumps(out))
        return 0
    out["torch"] = str(torch.__version__)
    out["cuda"] = torch.version.cuda
    if not torch.cuda.is_available():
        out["error"] = "torch.cuda.is_available() is False"
        print(json.dumps(out))
        return 0
    major, minor = torch.cuda.get_device_capability(0)
    out["device"] = {"index": 0, "name": torch.cuda.get_device_name(0),
                     "capability": "%d.%d" % (major, minor)}
    attempt(out, "copy", lambda: measure_copy(torch))
    kinds = [("fp32", torch.float32, False)]
    if major >= 8:
        kinds.append(("tf32", torch.float32, True))
    kinds.append(("fp16", torch.float16, False))
    if major >= 8 and torch.cuda.is_bf16_supported():
        kinds.append(("bf16", torch.bfloat16, False))
    out["matmul"] = {}
    for name, dtype, tf32 in kinds:
        attempt(out["matmul"], name, lambda: measure_matmul(torch, dtype, tf32))
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
