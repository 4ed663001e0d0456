#!/usr/bin/env python3
"""Check a wheel the way an index and an installer rely on it, more strictly than pip does.

    check_wheel.py WHEEL

pip and uv install a wheel whose RECORD hashes do not match its files (they trust the
index's hash, see run.sh); this fails on it: every file listed once with the right sha256
and size, RECORD listing itself without a hash, the WHEEL tags matching the file name,
the program under .data/scripts/ with mode 0o100755 and everything else 0o100644, one
fixed time on every entry, and the entries in the order make-wheel.py writes them.
"""
import base64
import hashlib
import sys
import zipfile


def fail(msg):
    print("check_wheel: %s" % msg, file=sys.stderr)
    sys.exit(1)


def main(path):
    base = path.rsplit("/", 1)[-1]
    if not base.endswith(".whl") or base.count("-") != 4:
        fail("%s: not NAME-VERSION-PY-ABI-PLATFORM.whl" % base)
    name, version, py, abi, platform = base[:-4].split("-")
    dist_info = "%s-%s.dist-info/" % (name, version)
    scripts = "%s-%s.data/scripts/" % (name, version)
    with zipfile.ZipFile(path) as z:
        infos = z.infolist()
        names = [i.filename for i in infos]
        if len(set(names)) != len(names):
            fail("duplicate entries")
        if names[-1] != dist_info + "RECORD":
            fail("RECORD is not the last entry")
        data = [n for n in names if not n.startswith(dist_info)]
        meta = [n for n in names if n.startswith(dist_info)]
        if names != sorted(data) + sorted(meta[:-1]) + meta[-1:]:
            fail("entries not in the fixed order (data sorted, then dist-info, RECORD last)")
        if len({i.date_time for i in infos}) != 1:
            fail("entries have different times: not reproducible")
        programs = [n for n in data if n.startswith(scripts)]
        if not programs or len(data) != len(programs):
            fail("expected only programs under %s, found %s" % (scripts, data))
        for i in infos:
            want = 0o100755 if i.filename in programs else 0o100644
            if i.external_attr >> 16 != want:
                fail("%s has mode %o, wants %o" % (i.filename, i.external_attr >> 16, want))
        record = z.read(dist_info + "RECORD").decode("utf-8").splitlines()
        listed = {}
        for line in record:
            file, digest, size = line.rsplit(",", 2)
            listed[file] = (digest, size)
        if set(listed) != set(names):
            fail("RECORD lists %s, the wheel holds %s" % (sorted(listed), names))
        if listed[dist_info + "RECORD"] != ("", ""):
            fail("RECORD's own line must have no hash")
        for n in names[:-1]:
            body = z.read(n)
            digest = "sha256=" + base64.urlsafe_b64encode(
                hashlib.sha256(body).digest()).rstrip(b"=").decode("ascii")
            if listed[n] != (digest, str(len(body))):
                fail("%s: hash mismatch with RECORD (%s, %d bytes; RECORD says %s, %s)"
                     % (n, digest, len(body), listed[n][0], listed[n][1]))
        wheel = z.read(dist_info + "WHEEL").decode("utf-8").splitlines()
        tags = sorted(line[5:] for line in wheel if line.startswith("Tag: "))
        want = sorted("%s-%s-%s" % (py, abi, p) for p in platform.split("."))
        if tags != want:
            fail("WHEEL tags %s, file name says %s" % (tags, want))
        if "Root-Is-Purelib: false" not in wheel:
            fail("WHEEL must say Root-Is-Purelib: false (a platform wheel)")
        metadata = z.read(dist_info + "METADATA").decode("utf-8")
        if "\nName: %s\n" % name not in metadata or "\nVersion: %s\n" % version not in metadata:
            fail("METADATA's Name/Version differ from the file name")
    print("check_wheel: %s: %d entries, RECORD hashes match, modes and order fixed"
          % (base, len(names)))


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print("usage: check_wheel.py WHEEL", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1])
