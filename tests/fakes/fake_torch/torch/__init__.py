"""A fake CUDA build of torch for the GPU proof kit's self-test (scripts/gpu-proof.sh).

It answers what dlenv's runtime probe asks (src/probe/python/scripts/torch_probe.py) and what the
kit's torch references measure (scripts/gpu-proof/torch_reference.py), like a CUDA build
seeing device 0 of the scenario in DLENV_FAKE_SCENARIO (dev0.name, dev0.cc,
dev0.mem_total, dev0.mem_free). Nothing is computed: CUDA events read a virtual clock
that each product and copy advances at the scenario's rates, so the figures are known in
advance:

  torch.fp32_tflops, torch.tf32_tflops, torch.fp16_tflops, torch.bf16_tflops
  torch.copy_gbps   (default dev0.mem_gbps; bytes read + written, as dlenv counts)

Products on the CPU are not faked: they raise, and dlenv records that as unknown.
"""
import os

from . import version

__version__ = version.__version__


def _scenario():
    values = {}
    path = os.environ.get("DLENV_FAKE_SCENARIO")
    if path and os.path.exists(path):
        with open(path) as f:
            for line in f:
                line = line.split(" #")[0].strip()
                key, sep, value = line.partition("=")
                if sep and not line.startswith("#"):
                    values[key.strip()] = value.strip()
    return values


_S = _scenario()


def _rate(key, default):
    return float(_S.get(key, default))


class _NS(object):
    pass


class dtype(object):
    def __init__(self, name, size):
        self.name, self.itemsize = name, size

    def __repr__(self):
        return "torch." + self.name


float32, float64 = dtype("float32", 4), dtype("float64", 8)
float16, bfloat16, uint8 = dtype("float16", 2), dtype("bfloat16", 2), dtype("uint8", 1)

_now_ms = [0.0]   # the virtual GPU clock


def _advance(seconds):
    _now_ms[0] += seconds * 1000.0


class Tensor(object):
    def __init__(self, shape, dt, device):
        self.shape, self.dtype, self.device = tuple(shape), dt, device

    def numel(self):
        n = 1
        for s in self.shape:
            n *= s
        return n

    def element_size(self):
        return self.dtype.itemsize

    def copy_(self, other):
        if self.device == "cuda":
            _advance(2.0 * self.numel() * self.element_size() /
                     (_rate("torch.copy_gbps", _S.get("dev0.mem_gbps", 900)) * 1e9))
        return self

    # What dlenv's check of a product reads: every difference is zero.
    def __getitem__(self, index):
        return self

    def __matmul__(self, other):
        return self

    def __sub__(self, other):
        return self

    def double(self):
        return self

    def cpu(self):
        return self

    def abs(self):
        return self

    def max(self):
        return self

    def __float__(self):
        return 0.0


def _new(shape, device, dt):
    if device != "cuda":
        raise RuntimeError("the fake torch computes on its virtual GPU only")
    return Tensor(shape, dt or float32, device)


def empty(*shape, **kw):
    return _new(shape, kw.get("device"), kw.get("dtype"))


def randn(*shape, **kw):
    return _new(shape, kw.get("device"), kw.get("dtype"))


def mm(a, b):
    kind = {"float16": "fp16", "bfloat16": "bf16"}.get(a.dtype.name, "fp32")
    if kind == "fp32" and backends.cuda.matmul.allow_tf32:
        kind = "tf32"
    _advance(2.0 * a.shape[0] * a.shape[1] * b.shape[1] /
             (_rate("torch.%s_tflops" % kind, 50) * 1e12))
    return Tensor((a.shape[0], b.shape[1]), a.dtype, a.device)


class _Event(object):
    def __init__(self, enable_timing=False):
        self.ms = None

    def record(self):
        self.ms = _now_ms[0]

    def synchronize(self):
        pass

    def elapsed_time(self, end):
        return end.ms - self.ms


class _Props(object):
    name = _S.get("dev0.name", "NVIDIA GeForce RTX 4090")
    major, minor = (int(x) for x in _S.get("dev0.cc", "8.9").split("."))
    total_memory = int(_S.get("dev0.mem_total", 25757220864))


cuda = _NS()
cuda.is_available = lambda: True
cuda.device_count = lambda: 1
cuda.current_device = lambda: 0
cuda.get_device_properties = lambda i: _Props()
cuda.get_device_name = lambda i=0: _Props.name
cuda.get_device_capability = lambda i=0: (_Props.major, _Props.minor)
cuda.get_arch_list = lambda: ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]
cuda.is_bf16_supported = lambda: _Props.major >= 8
cuda.synchronize = lambda: None
cuda.mem_get_info = lambda i=0: (int(_S.get("dev0.mem_free", _Props.total_memory)),
                                 _Props.total_memory)
cuda.Event = _Event

backends = _NS()
for _name in ("cudnn", "mkl", "mkldnn", "openmp", "mps"):
    _b = _NS()
    _b.is_available = (lambda: False) if _name == "mps" else (lambda: True)
    _b.version = (lambda: 90100) if _name == "cudnn" else (lambda: None)
    setattr(backends, _name, _b)
backends.cuda = _NS()
backends.cuda.matmul = _NS()
backends.cuda.matmul.allow_tf32 = False


class _Config(object):
    @staticmethod
    def show():
        return "PyTorch built with:\n  - Build settings: BLAS_INFO=mkl, BUILD_TYPE=Release,\n"


__config__ = _Config()


def get_num_threads():
    return 2


def get_num_interop_threads():
    return 2
