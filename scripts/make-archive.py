#!/usr/bin/env python3
"""Write a reproducible release archive: dlenv-VERSION-TARGET/ with the program and README.

    make-archive.py --binary PATH --readme README.md --out FILE.tar.gz|FILE.zip

The folder inside is FILE's name without its extension. Every entry has the time
SOURCE_DATE_EPOCH (default 1980-01-01), owner 0, mode 0755 for the program and 0644 for
the rest, in sorted order; gzip's header carries no name and no time. Same inputs, same
bytes. Only the standard library.
"""
import argparse
import gzip
import io
import os
import sys
import tarfile
import time
import zipfile

ZIP_EPOCH_MIN = 315532800  # 1980-01-01


def members(binary, readme):
    with open(binary, "rb") as f:
        program = f.read()
    with open(readme, "rb") as f:
        text = f.read()
    return sorted([(os.path.basename(binary), program, 0o755), ("README.md", text, 0o644)])


def write_tar_gz(path, top, files, epoch):
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as t:
        d = tarfile.TarInfo(top)
        d.type, d.mode, d.mtime = tarfile.DIRTYPE, 0o755, epoch
        t.addfile(d)
        for name, data, mode in files:
            info = tarfile.TarInfo(top + "/" + name)
            info.size, info.mode, info.mtime = len(data), mode, epoch
            t.addfile(info, io.BytesIO(data))
    with open(path, "wb") as f:
        with gzip.GzipFile(filename="", mode="wb", fileobj=f, compresslevel=9, mtime=0) as g:
            g.write(raw.getvalue())


def write_zip(path, top, files, epoch):
    when = time.gmtime(max(epoch, ZIP_EPOCH_MIN))[:6]
    with zipfile.ZipFile(path, "w") as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(top + "/" + name, date_time=when)
            info.create_system = 3
            info.external_attr = (0o100000 | mode) << 16
            z.writestr(info, data, compress_type=zipfile.ZIP_DEFLATED, compresslevel=9)


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", required=True)
    p.add_argument("--readme", required=True)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", ZIP_EPOCH_MIN))
    base = os.path.basename(a.out)
    files = members(a.binary, a.readme)
    tmp = a.out + ".tmp"
    if base.endswith(".tar.gz"):
        write_tar_gz(tmp, base[:-len(".tar.gz")], files, epoch)
    elif base.endswith(".zip"):
        write_zip(tmp, base[:-len(".zip")], files, epoch)
    else:
        p.error("--out must end in .tar.gz or .zip")
    os.replace(tmp, a.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
