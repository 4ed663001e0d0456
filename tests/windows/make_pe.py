#!/usr/bin/env python3
"""make_pe.py OUT BITS: a minimal PE image (an .exe with one empty section and no imports),
32- or 64-bit, for fixtures that only need python.exe's header (its bits) to be real:
MinGW-w64 on Debian builds 64-bit code only."""
import struct
import sys


def pe(bits):
    machine, magic, opt_size = (0x8664, 0x20B, 240) if bits == 64 else (0x14C, 0x10B, 224)
    dos = b"MZ" + b"\0" * 58 + struct.pack("<I", 64)
    coff = b"PE\0\0" + struct.pack("<HHIIIHH", machine, 1, 0, 0, 0, opt_size, 0x0102)
    if bits == 64:
        opt = struct.pack("<HBBIIIIIQIIHHHHHHIIIIHHQQQQII", magic, 14, 0, 0x200, 0, 0, 0x1000,
                          0x1000, 0x140000000, 0x1000, 0x200, 6, 0, 0, 0, 6, 0, 0, 0x2000,
                          0x200, 0, 3, 0x8160, 0x100000, 0x1000, 0x100000, 0x1000, 0, 16)
    else:
        opt = struct.pack("<HBBIIIIIIIIIHHHHHHIIIIHHIIIIII", magic, 14, 0, 0x200, 0, 0, 0x1000,
                          0x1000, 0x1000, 0x400000, 0x1000, 0x200, 6, 0, 0, 0, 6, 0, 0, 0x2000,
                          0x200, 0, 3, 0x8140, 0x100000, 0x1000, 0x100000, 0x1000, 0, 16)
    opt += b"\0" * (16 * 8)
    section = struct.pack("<8sIIIIIIHHI", b".text", 0x200, 0x1000, 0x200, 0x200, 0, 0, 0, 0,
                          0x60000020)
    head = dos + coff + opt + section
    return head + b"\0" * (0x200 - len(head)) + b"\xc3" + b"\0" * 0x1FF


with open(sys.argv[1], "wb") as f:
    f.write(pe(int(sys.argv[2])))
