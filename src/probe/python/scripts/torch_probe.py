# dlenv's runtime probe: imported torch in the user's interpreter, as dlenv describes it.
# Runs as `python -c <this text>` in a child process under a timeout. Catches everything:
# the failure itself is the fact. Prints one line, "@@DLENV@@" + JSON in the shape of
# dlenv's facts (an unknown value is {"unknown": "reason"}), after whatever torch printed.
# Written for any Python from 2.7 on, so an old interpreter still answers.
import json, sys, time

out = {}


def unknown(why):
    return {"unknown": why}


def attempt(key, fn):
    try:
        out[key] = fn()
    except Exception as e:  # noqa: BLE001 - the failure is the fact
        out[key] = unknown("%s: %s" % (type(e).__name__, e))


def windows_modules():
    # The DLLs this process has loaded (EnumProcessModules), as /proc/self/maps is elsewhere.
    import ctypes
    from ctypes import wintypes
    psapi, kernel32 = ctypes.WinDLL("psapi"), ctypes.WinDLL("kernel32")
    kernel32.GetCurrentProcess.restype = wintypes.HANDLE
    process = kernel32.GetCurrentProcess()
    needed = wintypes.DWORD()
    modules = (wintypes.HMODULE * 4096)()
    psapi.EnumProcessModules.argtypes = [wintypes.HANDLE, ctypes.c_void_p, wintypes.DWORD,
                                         ctypes.POINTER(wintypes.DWORD)]
    if not psapi.EnumProcessModules(process, modules, ctypes.sizeof(modules), ctypes.byref(needed)):
        raise OSError("EnumProcessModules failed")
    count = min(needed.value // ctypes.sizeof(wintypes.HMODULE), 4096)
    kernel32.GetModuleFileNameW.argtypes = [wintypes.HMODULE, wintypes.LPWSTR, wintypes.DWORD]
    paths = []
    for i in range(count):
        buf = ctypes.create_unicode_buffer(1024)
        if kernel32.GetModuleFileNameW(modules[i], buf, 1024):
            paths.append(buf.value)
    return paths


def loaded_libraries():
    wanted = ("cudnn", "cublas", "cudart", "libcuda.so", "nvrtc", "nccl", "nvJitLink", "iomp",
              "gomp", "openblas", "blas", "mkl", "amdhip", "MIOpen", "libtorch_cuda", "c10_cuda",
              "nvcuda")
    seen = []
    if sys.platform == "win32":
        wanted_lower = tuple(w.lower() for w in wanted)
        return [p for p in windows_modules() if any(w in p.lower() for w in wanted_lower)]
    with open("/proc/self/maps") as maps:
        for line in maps:
            parts = line.split()
            path = parts[-1] if len(parts) >= 6 else ""
            if path.startswith("/") and path not in seen and any(w in path for w in wanted):
                seen.append(path)
    return seen


def openblas(paths):
    # The kernel a mapped OpenBLAS chose (it falls back to an SSE kernel for a CPU model it
    # does not know), its threads and its build configuration. numpy's and scipy's own
    # copies are not torch's.
    import ctypes
    for path in paths:
        low = path.lower()
        if "blas" not in low or "numpy" in low or "scipy" in low:
            continue
        try:
            lib = ctypes.CDLL(path)
            corename = lib.openblas_get_corename
        except (OSError, AttributeError):
            continue
        corename.restype = ctypes.c_char_p
        core = corename()
        if isinstance(core, bytes):
            core = core.decode("ascii", "replace")
        threads = unknown("this OpenBLAS has no openblas_get_num_threads")
        if hasattr(lib, "openblas_get_num_threads"):
            threads = lib.openblas_get_num_threads()
        config = unknown("this OpenBLAS has no openblas_get_config")
        if hasattr(lib, "openblas_get_config"):
            # "OpenBLAS 0.3.21 NO_LAPACKE DYNAMIC_ARCH NO_AFFINITY Prescott MAX_THREADS=64"
            lib.openblas_get_config.restype = ctypes.c_char_p
            config = lib.openblas_get_config()
            if isinstance(config, bytes):
                config = config.decode("ascii", "replace")
            config = config.strip()
        return core.strip(), threads, config
    why = unknown("no OpenBLAS in this process")
    return why, why, why


def config_value(text, key):
    # "  - Build settings: BLAS_INFO=generic, BUILD_TYPE=..., ..."
    for item in text.replace("\n", ",").split(","):
        name, _, value = item.rpartition(" ")[2].partition("=")
        if name == key and value:
            return value
    return unknown("the build configuration has no %s" % key)


def real(path):
    import os
    return os.path.normcase(os.path.realpath(path))


def pth_naming(site_dirs, entry):
    # The .pth file in one of the site directories whose line adds entry to sys.path.
    import os
    for site_dir in site_dirs:
        try:
            names = sorted(n for n in os.listdir(site_dir) if n.endswith(".pth"))
        except OSError:
            continue
        for name in names:
            try:
                with open(os.path.join(site_dir, name)) as f:
                    lines = f.read().splitlines()
            except (OSError, UnicodeDecodeError):
                continue
            for line in lines:
                line = line.strip()
                if line and not line.startswith(("#", "import ", "import\t")) and \
                        real(os.path.join(site_dir, line)) == entry:
                    return os.path.join(site_dir, name)
    return None


def torch_origin(torch_file):
    # How the folder holding torch/ got onto sys.path: the interpreter's own packages, a
    # venv's --system-site-packages, the user site, PYTHONPATH, a .pth file, the current
    # directory (python -c puts it first), or something else (sys.path edited).
    import os, site
    folder = os.path.dirname(os.path.dirname(os.path.abspath(torch_file)))
    entry = real(folder)
    if entry == real(os.getcwd()) and "" in sys.path[:1]:
        return "current_directory", folder
    for p in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if p and real(p) == entry:
            return "pythonpath", folder
    own = list(getattr(site, "getsitepackages", lambda: [])())
    user = getattr(site, "getusersitepackages", lambda: None)()
    if user and getattr(site, "ENABLE_USER_SITE", False) and real(user) == entry:
        return "user_site", folder
    for p in own:
        if real(p) == entry:
            inside = real(p).startswith(real(sys.prefix) + os.sep)
            return ("own_site" if inside else "base_site"), folder
    pth = pth_naming(own + ([user] if user else []), entry)
    if pth:
        return "pth_file", pth
    return "other", folder


def describe(torch):
    import warnings
    # Where it came from first: a module that is not PyTorch stops at the next line.
    out["file"] = str(getattr(torch, "__file__", None) or "")
    if out["file"]:
        attempt("origin", lambda: torch_origin(out["file"]))
        if isinstance(out.get("origin"), tuple):
            out["origin"], out["origin_detail"] = out["origin"]
    out["version"] = str(torch.__version__)
    out["cuda"] = torch.version.cuda if torch.version.cuda else "none"
    hip = getattr(torch.version, "hip", None)
    out["hip"] = hip if hip else "none"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        attempt("cuda_available", torch.cuda.is_available)
    if caught:
        out["cuda_warning"] = " ".join(str(w.message).strip() for w in caught)
    attempt("device_count", torch.cuda.device_count)
    devices = []
    if out.get("cuda_available") is True:
        for i in range(torch.cuda.device_count()):
            p = torch.cuda.get_device_properties(i)
            devices.append({"index": i, "name": p.name, "capability": "%d.%d" % (p.major, p.minor),
                            "memory_bytes": int(p.total_memory)})
        attempt("arch_list", torch.cuda.get_arch_list)
    else:
        out["arch_list"] = unknown("torch.cuda.get_arch_list needs CUDA to be available")
    out["devices"] = devices
    attempt("cudnn_version", lambda: torch.backends.cudnn.version() or unknown("cuDNN is not available"))
    attempt("mkl", torch.backends.mkl.is_available)
    attempt("mkldnn", torch.backends.mkldnn.is_available)
    attempt("openmp", torch.backends.openmp.is_available)
    attempt("blas", lambda: config_value(torch.__config__.show(), "BLAS_INFO"))
    attempt("threads", torch.get_num_threads)
    attempt("interop_threads", torch.get_num_interop_threads)
    mps = getattr(torch.backends, "mps", None)
    out["mps_available"] = bool(mps and mps.is_available())
    xpu = getattr(torch, "xpu", None)
    out["xpu_available"] = bool(xpu and xpu.is_available())


def clock():
    return time.perf_counter() if hasattr(time, "perf_counter") else time.time()


# How long one timed CPU product should take, per level of `dlenv verify`.
PRODUCT_SECONDS = {"quick": 0.04, "default": 0.1, "full": 0.3}


def measure_level():
    return sys.argv[2] if len(sys.argv) > 2 and sys.argv[2] in PRODUCT_SECONDS else "default"


def measure_matmul(torch):
    # fp32 matrix product, sized so that one product takes >= 0.1 s (at most 4096): a
    # reference BLAS stays at a small size, an optimised one fills the cores. Warm-up,
    # three timed runs, the median; the product is checked, so a wrong result never counts.
    seconds = PRODUCT_SECONDS[measure_level()]
    n = 256
    a = b = c = None
    while True:
        a, b = torch.randn(n, n), torch.randn(n, n)
        t0 = clock()
        c = torch.mm(a, b)
        if clock() - t0 >= seconds or n >= 4096:
            break
        n *= 2
    times = []
    for _ in range(3):
        t0 = clock()
        c = torch.mm(a, b)
        times.append(clock() - t0)
    want = float((a[7].double() * b[:, 5].double()).sum())
    if abs(float(c[7, 5]) - want) > 1e-3 * (1.0 + abs(want)) * n ** 0.5:
        raise ValueError("the product is wrong: %g instead of %g" % (float(c[7, 5]), want))
    times.sort()
    out["matmul_size"] = n
    out["matmul_gflops"] = 2.0 * n ** 3 / times[1] / 1e9
    out["matmul_spread_pct"] = (times[2] - times[0]) / times[1] * 100.0


def gpu_product(torch, dtype, n):
    # One timed sample of k products between CUDA events, k chosen so a sample lasts
    # >= 10 ms; the median of 3 such samples, in seconds per product.
    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    c = torch.mm(a, b)
    torch.cuda.synchronize()
    k, times = 1, []
    while len(times) < 3:
        start = torch.cuda.Event(enable_timing=True)
        end = torch.cuda.Event(enable_timing=True)
        start.record()
        for _ in range(k):
            c = torch.mm(a, b)
        end.record()
        end.synchronize()
        seconds = start.elapsed_time(end) / 1000.0 / k
        if seconds * k < 0.01 and k < 1024:
            k = min(1024, max(2 * k, int(0.01 / max(seconds, 1e-9)) + 1))
            continue
        times.append(seconds)
    times.sort()
    return a, b, c, times


def gpu_check(a, b, c, tolerance):
    # Two rows against float64 on the CPU, from the same (rounded) inputs.
    want = a[:2].double().cpu() @ b.double().cpu()
    err = float((c[:2].double().cpu() - want).abs().max())
    scale = float(want.abs().max()) + 1e-30
    if err / scale > tolerance:
        return "differs from float64 on the CPU by %.3g of the largest value" % (err / scale)
    return "passed"


def measure_gpu_matmul(torch):
    # torch's products on its current CUDA device: fp32 with TF32 off, tf32 (Ampere and
    # newer), fp16 and bf16 (where supported), 4096 x 4096, each checked.
    if not torch.cuda.is_available():
        return None
    dev = torch.cuda.current_device()
    major = torch.cuda.get_device_capability(dev)[0]
    kinds = [("fp32", torch.float32, False, 1e-4)]
    if major >= 8:
        kinds.append(("tf32", torch.float32, True, 1e-2))
    kinds.append(("fp16", torch.float16, False, 1e-2))
    if major >= 8 and torch.cuda.is_bf16_supported():
        kinds.append(("bf16", torch.bfloat16, False, 5e-2))
    results, n = [], 4096
    old = torch.backends.cuda.matmul.allow_tf32
    try:
        for name, dtype, tf32, tolerance in kinds:
            torch.backends.cuda.matmul.allow_tf32 = tf32
            a, b, c, times = gpu_product(torch, dtype, n)
            results.append({"dtype": name, "device": dev, "size": n,
                            "tflops": 2.0 * n ** 3 / times[1] / 1e12,
                            "spread_pct": (times[2] - times[0]) / times[1] * 100.0,
                            "check": gpu_check(a, b, c, tolerance)})
            del a, b, c
    finally:
        torch.backends.cuda.matmul.allow_tf32 = old
    return results


def main():
    try:
        # A crash inside torch's native code prints the Python stack on stderr, which dlenv
        # keeps as the error: the module that was being imported when it died.
        import faulthandler
        faulthandler.enable()
    except Exception:  # noqa: BLE001 - old Pythons have none
        pass
    out["python_version"] = "%d.%d.%d" % tuple(sys.version_info[:3])
    out["python_bits"] = 64 if sys.maxsize > 2 ** 32 else 32
    start = time.time()
    try:
        import torch
    except BaseException as e:  # noqa: BLE001 - SystemExit and KeyboardInterrupt too
        out["status"] = "import_failed"
        out["error"] = "%s: %s" % (type(e).__name__, e)
    else:
        out["status"] = "imported"
        out["import_ms"] = (time.time() - start) * 1000.0
        try:
            describe(torch)
            if len(sys.argv) > 1 and sys.argv[1] == "measure":
                attempt("matmul", lambda: measure_matmul(torch))
                if out.get("matmul") is None:
                    out.pop("matmul", None)
                else:
                    out["matmul_gflops"] = out.pop("matmul")
                attempt("gpu_matmul", lambda: measure_gpu_matmul(torch))
                if out.get("gpu_matmul") is None:
                    out.pop("gpu_matmul", None)
        except BaseException as e:  # noqa: BLE001
            # It imported, but it is not the PyTorch API (a stub, a typo-squat, a folder
            # named torch): the first missing piece is the fact.
            out["status"] = "incomplete"
            out["error"] = "%s: %s" % (type(e).__name__, e)
    attempt("loaded_libraries", loaded_libraries)
    try:
        blas = openblas(out["loaded_libraries"])
        out["blas_core"], out["blas_threads"], out["blas_config"] = blas
    except Exception as e:  # noqa: BLE001 - the failure is the fact
        why = unknown("%s: %s" % (type(e).__name__, e))
        out["blas_core"] = out["blas_threads"] = out["blas_config"] = why
    sys.stdout.write("\n@@DLENV@@" + json.dumps(out) + "\n")
    sys.stdout.flush()


main()
