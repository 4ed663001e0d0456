#!/usr/bin/env python3
"""Write a wheel whose only content is one native program, the way ruff and uv ship theirs.

    make-wheel.py --binary PATH --version V --platform TAG --readme README.md --out DIR

The program goes to dlenv-V.data/scripts/, which pip and uv install into the environment's
bin/ (Scripts\\ on Windows), with the zip mode 0o100755 that keeps its run bit. The wheel is
reproducible: every entry has the time SOURCE_DATE_EPOCH (default 1980-01-01), the same
mode rules and a fixed order, so the same binary always gives a byte-identical file.
Only the standard library: it runs before anything else is installed.
"""
import argparse
import base64
import hashlib
import os
import sys
import time
import zipfile

NAME = "dlenv"
SUMMARY = "Diagnoses and fixes PyTorch/CUDA environments: one native binary, no Python needed"
ZIP_EPOCH_MIN = 315532800  # 1980-01-01, the first time a zip file can hold


def record_hash(data):
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=")
    return "sha256=" + digest.decode("ascii")


def metadata(version, readme):
    head = [
        "Metadata-Version: 2.1",
        "Name: " + NAME,
        "Version: " + version,
        "Summary: " + SUMMARY,
        "Keywords: pytorch,cuda,nvidia,gpu,diagnostics",
        "Classifier: Environment :: Console",
        "Classifier: Environment :: GPU :: NVIDIA CUDA",
        "Classifier: Programming Language :: C",
        "Classifier: Topic :: Scientific/Engineering :: Artificial Intelligence",
        "Description-Content-Type: text/markdown",
    ]
    return ("\n".join(head) + "\n\n" + readme).encode("utf-8")


def wheel_file(tag):
    return ("Wheel-Version: 1.0\nGenerator: dlenv make-wheel.py\nRoot-Is-Purelib: false\n"
            "Tag: " + tag + "\n").encode("utf-8")


def entry(name, epoch, mode):
    info = zipfile.ZipInfo(name, date_time=time.gmtime(max(epoch, ZIP_EPOCH_MIN))[:6])
    info.compress_type = zipfile.ZIP_DEFLATED
    info.create_system = 3  # Unix: the high 16 bits of external_attr are st_mode
    info.external_attr = mode << 16
    return info


def build(binary, version, platform, readme_path, out_dir, epoch):
    with open(binary, "rb") as f:
        program = f.read()
    with open(readme_path, encoding="utf-8") as f:
        readme = f.read()
    dist_info = "%s-%s.dist-info" % (NAME, version)
    program_name = os.path.basename(binary)
    tags = ["py3-none-" + p for p in platform.split(".")]
    # Data first, then dist-info with RECORD last, as pip and `wheel pack` write them.
    files = [
        ("%s-%s.data/scripts/%s" % (NAME, version, program_name), program, 0o100755),
        (dist_info + "/METADATA", metadata(version, readme), 0o100644),
        (dist_info + "/WHEEL", wheel_file("\nTag: ".join(tags)), 0o100644),
    ]
    record = "".join("%s,%s,%d\n" % (n, record_hash(d), len(d)) for n, d, _ in files)
    record += dist_info + "/RECORD,,\n"
    files.append((dist_info + "/RECORD", record.encode("utf-8"), 0o100644))

    wheel_name = "%s-%s-py3-none-%s.whl" % (NAME, version, platform)
    path = os.path.join(out_dir, wheel_name)
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w") as z:
        for name, data, mode in files:
            z.writestr(entry(name, epoch, mode), data, compress_type=zipfile.ZIP_DEFLATED,
                       compresslevel=9)
    os.replace(tmp, path)
    return path


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--binary", required=True)
    p.add_argument("--version", required=True)
    p.add_argument("--platform", required=True,
                   help="platform tag(s), e.g. manylinux_2_17_x86_64.manylinux2014_x86_64")
    p.add_argument("--readme", required=True)
    p.add_argument("--out", required=True)
    a = p.parse_args()
    epoch = int(os.environ.get("SOURCE_DATE_EPOCH", ZIP_EPOCH_MIN))
    print(build(a.binary, a.version, a.platform, a.readme, a.out, epoch))
    return 0


if __name__ == "__main__":
    sys.exit(main())
