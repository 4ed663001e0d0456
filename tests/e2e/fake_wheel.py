#!/usr/bin/env python3
"""fake_wheel.py OUTDIR NAME VERSION [BEHAVIOUR [EXTRA...]]: writes OUTDIR/NAME-VERSION-py3-none-any.whl,
a real wheel (dist-info, RECORD with hashes) that real pip installs, holding a package that
behaves as BEHAVIOUR says when imported. The broken-machine tests install these into real
venvs: each fails `import torch` in one real way.

BEHAVIOUR (for torch; other packages are plain):
  healthy          answers everything dlenv's runtime probe asks, like a CPU build
  healthy_cuda:NAME:CC[;NAME:CC...]  the same for a CUDA build (the version's +cuXYZ)
                   seeing these GPUs (one per NAME:CC)
  cdll:LIB         loads LIB with ctypes at import (the loader's own error when it is missing)
  raise:TYPE:MSG   raises TYPE(MSG) at import (OSError, ImportError, ...)
  segv             reads address 0 in native code at import (SIGSEGV)
  hang             sleeps at import
  needs:MODULE     imports MODULE first (a missing dependency)
  not_pytorch      a module named torch without PyTorch's API

EXTRA (any package; the extension-package tests):
  requires=REQ     a Requires-Dist: REQ line in METADATA
  file=PATH:TEXT   one more file in the wheel (a library name, a version file)
  pad=BYTES        one more file of BYTES random (incompressible) bytes: a wheel that large
  mm=right|wrong|slow  (torch) randn and mm enough for the runtime probe's CPU matrix
                   product (`dlenv verify`, setup's proof): right, off by 1000 in every
                   element, or right but 50 ms a product (under 1 GFLOPS: far below any CPU).
                   Lazy: an element is computed when read, so a 4096x4096 product is instant.
                   The GPU products (torch.cuda events, device tensors) need real torch.
"""
import base64
import hashlib
import os
import sys
import zipfile

HEALTHY = r'''
import sys as _sys
__version__ = "{version}"

class _NS(object):
    pass

version = _NS()
version.__version__ = __version__
version.cuda = None
version.hip = None
version.git_version = "0000000"

def _false():
    return False

def _zero():
    return 0

cuda = _NS()
cuda.is_available = _false
cuda.device_count = _zero

backends = _NS()
for _name in ("cudnn", "mkl", "mkldnn", "openmp", "mps"):
    _b = _NS()
    _b.is_available = _false if _name in ("cudnn", "mps") else (lambda: True)
    _b.version = lambda: None
    setattr(backends, _name, _b)

class _Config(object):
    @staticmethod
    def show():
        return "PyTorch built with:\n  - Build settings: BLAS_INFO=mkl, BUILD_TYPE=Release,\n"

__config__ = _Config()

def get_num_threads():
    return 2

def get_num_interop_threads():
    return 2
'''

VERSION_PY = '__version__ = "{version}"\ncuda = {cuda}\nhip = None\ngit_version = "0000000"\n'


CUDA = r'''
version.cuda = {cuda}
cuda.is_available = lambda: True
_devices = {devices!r}
cuda.device_count = lambda: len(_devices)
cuda.get_arch_list = lambda: ["sm_50", "sm_60", "sm_70", "sm_75", "sm_80", "sm_86", "sm_90"]

class _Props(object):
    def __init__(self, i):
        self.name, (self.major, self.minor) = _devices[i][0], _devices[i][1]
        self.total_memory = 25757220864

cuda.get_device_properties = lambda i: _Props(i)
backends.cudnn.is_available = lambda: True
backends.cudnn.version = lambda: 90100
'''


MATMUL = r'''
class _Vector(list):
    def double(self):
        return self

    def __mul__(self, other):
        return _Vector(x * y for x, y in zip(self, other))

    def sum(self):
        return float(sum(self))


class _Matrix(object):
    # element (i, j) of a seeded matrix, made when read
    def __init__(self, n, seed):
        self.n, self.seed = n, seed

    def at(self, i, j):
        return ((i * 7919 + j * 104729 + self.seed * 31) % 2003) / 1001.5 - 1.0

    def __getitem__(self, key):
        if isinstance(key, tuple):
            i, j = key
            if isinstance(i, slice):
                return _Vector(self.at(k, j) for k in range(self.n))
            return self.at(i, j)
        return _Vector(self.at(key, k) for k in range(self.n))


class _Product(_Matrix):
    def __init__(self, a, b):
        _Matrix.__init__(self, a.n, 0)
        self.a, self.b = a, b

    def at(self, i, j):
        return sum(self.a.at(i, k) * self.b.at(k, j) for k in range(self.n)) + {offset}


_seeds = [0]


def randn(n, m, **kw):
    _seeds[0] += 1
    return _Matrix(n, _seeds[0])


def mm(a, b):
    if {delay}:
        import time
        time.sleep({delay})
    return _Product(a, b)
'''


def torch_init(behaviour, version):
    kind, _, arg = behaviour.partition(":")
    if kind == "healthy":
        return HEALTHY.format(version=version)
    if kind == "healthy_cuda":
        devices = []
        for device in arg.split(";"):
            name, _, cc = device.rpartition(":")
            major, _, minor = cc.partition(".")
            devices.append((name, (int(major), int(minor))))
        return HEALTHY.format(version=version) + CUDA.format(cuda=cuda_of(version),
                                                             devices=devices)
    if kind == "cdll":
        return "import ctypes\nctypes.CDLL(%r)\n" % arg + HEALTHY.format(version=version)
    if kind == "raise":
        etype, _, msg = arg.partition(":")
        return "raise %s(%r)\n" % (etype, msg)
    if kind == "segv":
        return "import ctypes\nctypes.string_at(0)\n"
    if kind == "hang":
        return "import time\ntime.sleep(600)\n"
    if kind == "needs":
        return "import %s\n" % arg + HEALTHY.format(version=version)
    if kind == "not_pytorch":
        return "# not PyTorch: a placeholder package that happens to be named torch\n"
    raise SystemExit("fake_wheel.py: unknown behaviour %r" % behaviour)


def cuda_of(version):
    tag = version.partition("+")[2]
    if tag.startswith("cu") and tag[2:].isdigit():
        digits = tag[2:]
        return repr("%s.%s" % (digits[:-1], digits[-1]))
    return "None"


def record_line(path, data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (path, digest, len(data))


def main():
    out, name, version = sys.argv[1:4]
    behaviour = sys.argv[4] if len(sys.argv) > 4 else "healthy"
    requires = []
    files = {}
    for extra in sys.argv[5:]:
        key, _, value = extra.partition("=")
        if key == "requires":
            requires.append("Requires-Dist: %s\n" % value)
        elif key == "mm":
            files["mm"] = MATMUL.format(offset="1000.0" if value == "wrong" else "0.0",
                                        delay="0.05" if value == "slow" else "0")
        elif key == "pad":
            files["%s/pad.bin" % name] = os.urandom(int(value))
        elif key == "file":
            path, _, text = value.partition(":")
            files[path] = text
        else:
            raise SystemExit("fake_wheel.py: unknown extra %r" % extra)
    if name == "torch":
        files["torch/__init__.py"] = torch_init(behaviour, version) + files.pop("mm", "")
        if behaviour != "not_pytorch":
            files["torch/version.py"] = VERSION_PY.format(version=version, cuda=cuda_of(version))
    else:
        # file=NAME/__init__.py:TEXT gives the package its own behaviour at import
        files.setdefault("%s/__init__.py" % name, '__version__ = "%s"\n' % version)
    dist = "%s-%s.dist-info" % (name, version)
    files[dist + "/METADATA"] = ("Metadata-Version: 2.1\nName: %s\nVersion: %s\n" % (name, version)
                                 + "".join(requires))
    files[dist + "/WHEEL"] = ("Wheel-Version: 1.0\nGenerator: dlenv-tests\nRoot-Is-Purelib: true\n"
                              "Tag: py3-none-any\n")
    records = [record_line(p, d if isinstance(d, bytes) else d.encode())
               for p, d in sorted(files.items())]
    records.append(dist + "/RECORD,,")
    files[dist + "/RECORD"] = "\n".join(records) + "\n"
    path = os.path.join(out, "%s-%s-py3-none-any.whl" % (name, version))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for p in sorted(files):
            z.writestr(p, files[p])
    print(path)


main()
