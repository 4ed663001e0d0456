#!/usr/bin/env python3
"""fatbin_archs.py LIB.so: the SASS and PTX architectures compiled into a CUDA library.

Reads the fatbin containers (magic 0xBA55ED50) embedded in the file, e.g. a wheel's
torch/lib/libtorch_cuda.so, and counts per entry kind (SASS = ELF cubin, PTX) and
architecture how many containers carry one: how data/wheel_arches.csv rows marked
"observed (fatbin)" were read, where no cuobjdump is installed.

    pip download torch==2.15.0 --no-deps --only-binary=:all: \
        --platform manylinux_2_28_x86_64 --python-version 3.12 -d /tmp/w
    unzip -q /tmp/w/torch-*.whl torch/lib/libtorch_cuda.so -d /tmp/w/x
    python3 scripts/fatbin_archs.py /tmp/w/x/torch/lib/libtorch_cuda.so

Layout (public descriptions of the fatbin format): a container header of magic (u32),
version (u16), header size (u16, 16), payload size (u64); then entries, each with kind
(u16: 1 PTX, 2 ELF), version (u16), header size (u32), padded payload size (u64), and the
SM version (u32) at offset 28 of the entry header.
"""
import collections
import struct
import sys

MAGIC = struct.pack("<I", 0xBA55ED50)


def entries(data, start, size):
    """(kind, sm) of each entry of the container whose payload starts at start."""
    p, end = start, start + size
    while p + 64 <= end:
        kind, _, header, padded = struct.unpack_from("<HHIQ", data, p)
        if kind not in (1, 2) or not 64 <= header <= 256:
            return
        yield ("PTX" if kind == 1 else "SASS"), struct.unpack_from("<I", data, p + 28)[0]
        p += header + padded


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: fatbin_archs.py LIB.so")
    with open(sys.argv[1], "rb") as f:
        data = f.read()
    seen, containers = collections.Counter(), 0
    pos = data.find(MAGIC)
    while pos >= 0:
        _, header, size = struct.unpack_from("<HHQ", data, pos + 4)
        if header != 16 or not 0 < size < len(data) - pos:
            pos = data.find(MAGIC, pos + 4)
            continue
        containers += 1
        seen.update(entries(data, pos + header, size))
        pos = data.find(MAGIC, pos + header + size)
    print("fatbin containers: %d" % containers)
    for (kind, sm), n in sorted(seen.items()):
        print("%-4s sm_%-4d in %d" % (kind, sm, n))


if __name__ == "__main__":
    main()
