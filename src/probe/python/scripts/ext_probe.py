# dlenv's extension-import probe: imports each package with native code for torch
# (xformers, flash_attn, bitsandbytes, torchvision, ...) in the user's interpreter, after
# torch, and records how each went. Runs as `python -c <this text> SECONDS PKG=MODULE...`
# in a child process that dlenv stops at SECONDS; prints one line, "@@DLENV@@" + JSON
# ({"extensions": [records]}), after whatever else was printed. A record's unknown value
# is {"unknown": "reason"}. Written for any Python from 2.7 on.
#
# Why one child per package, started from here: an import can hang in native code (holding
# the GIL, so no alarm in the same process fires) or kill its process (abort, SIGSEGV), and
# either must cost only that package's record. A single child importing them in turn loses
# every record after the one that hangs; importing them in this process loses all of them.
# So each import runs in its own child, at most a few at a time (each imports torch, which
# costs memory), and this parent, which imports nothing, stops any child still running at
# its own deadline, a little before dlenv's, so the records always come back. Each child's
# output goes to a file rather than a pipe, so a chatty import never blocks on a full pipe.
import json, os, re, subprocess, sys, tempfile, time

MARKER = "@@DLENV@@"
START = "@@DLENV-IMPORT@@"

# What each child runs: torch first (as the user's code does, and so the time and output
# counted are the package's own), then the package, with every warning shown. The
# faulthandler prints the stack of a crash, and of a hang just before the parent's
# deadline, on the output the parent keeps.
CHILD = r'''
import sys, time, json, warnings
try:
    import faulthandler
    faulthandler.enable()
    if float(sys.argv[2]) > 0.5:
        faulthandler.dump_traceback_later(float(sys.argv[2]) - 0.3, exit=False)
except Exception:
    pass
import torch
sys.stdout.write("\n@@DLENV-IMPORT@@\n")
sys.stdout.flush()
warnings.simplefilter("always")
rec = {}
start = time.time()
try:
    __import__(sys.argv[1])
    rec["status"] = "imported"
except BaseException as e:
    rec["status"] = "import_failed"
    rec["error_type"] = type(e).__name__
    rec["error"] = str(e)
rec["import_ms"] = (time.time() - start) * 1000.0
try:
    faulthandler.cancel_dump_traceback_later()
except Exception:
    pass
sys.stdout.flush()
sys.stderr.flush()
sys.stdout.write("\n@@DLENV@@" + json.dumps(rec) + "\n")
sys.stdout.flush()
'''

MAX_LINE = 300
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def unknown(why):
    return {"unknown": why}


def clean_lines(text):
    # Colour codes and control characters out, each line trimmed and bounded, blanks out.
    lines = []
    for line in ANSI.sub("", text).splitlines():
        line = "".join(c for c in line if c >= " " or c == "\t").strip()
        # the import machinery's own frames in a stack say nothing about the package
        # (nor do faulthandler's thread addresses)
        if line and not line.startswith(('File "<frozen ', 'File "<string>"', "Current thread 0x",
                                         "Thread 0x")):
            lines.append(line if len(line) <= MAX_LINE else line[:MAX_LINE] + "...")
    return lines


def bounded(lines, head, tail):
    # The first head and the last tail lines, joined as dlenv joins an error's lines: the
    # first says what failed (xFormers' "built for", bitsandbytes' "CUDA Setup failed"),
    # the last where.
    if len(lines) > head + tail:
        lines = lines[:head] + ["..."] + lines[-tail:]
    return " | ".join(lines)


def read_output(path):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except (IOError, OSError):
        return ""
    return data.decode("utf-8", "replace")


def record_of(pkg, module, child, path, started, why_stopped):
    rec = {"package": pkg, "module": module}
    text = read_output(path)
    answer = None
    at = text.rfind(MARKER)
    if at >= 0:
        try:
            answer = json.loads(text[at + len(MARKER):].strip().splitlines()[0])
        except (ValueError, IndexError):
            answer = None
        text = text[:at]
    # only what the package's import printed, not torch's
    start = text.find(START)
    printed = text[start + len(START):] if start >= 0 else text
    rec["output"] = bounded(clean_lines(printed), 3, 9)
    if why_stopped:
        rec["status"] = "timed_out"
        rec["error"] = "%s; it was stopped" % why_stopped  # where: in the output
    elif answer is not None:
        rec["status"] = answer.get("status", "import_failed")
        rec["import_ms"] = answer.get("import_ms", unknown("the child did not say"))
        if rec["status"] == "import_failed":
            rec["error"] = "%s: %s" % (answer.get("error_type", "Exception"),
                                       bounded(clean_lines(answer.get("error", "")), 2, 6))
    elif start < 0:
        rec["status"] = "import_failed"
        rec["error"] = "import torch failed before the package was imported (exit code %s): %s" % (
            child.returncode, bounded(clean_lines(text), 0, 4))
    else:
        rec["status"] = "crashed"
        code = child.returncode
        if code is not None and code < 0:
            rec["signal"] = -code
            what = "signal %d" % -code
            try:
                import signal
                what += ", %s" % signal.Signals(-code).name
            except (ImportError, AttributeError, ValueError):
                pass
        else:
            what = "exit code %s" % code
        rec["error"] = "the interpreter died (%s) while importing %s" % (what, module)
    if "import_ms" not in rec:
        rec["import_ms"] = unknown("it did not finish")
    if not rec["output"]:
        del rec["output"]  # it printed nothing
    return rec


def main():
    budget = float(sys.argv[1])
    wanted = [a.split("=", 1) for a in sys.argv[2:] if "=" in a]
    # dlenv stops this process at budget; every child is stopped a little before that
    deadline = time.time() + max(0.5, budget * 0.9 - 0.5)
    try:
        import importlib.util
        present = lambda m: importlib.util.find_spec(m) is not None
    except ImportError:  # Python 2
        import imp

        def present(m):
            try:
                imp.find_module(m)
                return True
            except ImportError:
                return False
    try:
        cores = os.cpu_count() or 2
    except AttributeError:
        cores = 2
    slots = max(2, min(4, cores))
    records, queue, running = {}, [], []
    for pkg, module in wanted:
        try:
            found = present(module)
        except Exception as e:  # noqa: BLE001 - a broken parent package: the fact
            found = True
            records[pkg] = {"package": pkg, "module": module, "status": "import_failed",
                            "error": "%s: %s" % (type(e).__name__, e),
                            "import_ms": unknown("it was not imported")}
            continue
        if not found:
            records[pkg] = {"package": pkg, "module": module, "status": "not_found",
                            "error": "its metadata is installed, but this interpreter finds "
                                     "no module %s" % module,
                            "import_ms": unknown("it was not imported")}
            continue
        queue.append((pkg, module))
    while queue or running:
        now = time.time()
        while queue and len(running) < slots and now < deadline:
            pkg, module = queue.pop(0)
            fd, path = tempfile.mkstemp(prefix="dlenv-ext-")
            out = os.fdopen(fd, "wb")
            child = subprocess.Popen([sys.executable, "-u", "-c", CHILD, module,
                                      "%.3f" % (deadline - now)],
                                     stdin=subprocess.PIPE, stdout=out, stderr=subprocess.STDOUT)
            child.stdin.close()
            running.append((pkg, module, child, out, path, now))
        if queue and now >= deadline:
            for pkg, module in queue:
                records[pkg] = {"package": pkg, "module": module, "status": "not_run",
                                "error": "the time for imports (%.0f s) ran out before it "
                                         "started" % budget,
                                "import_ms": unknown("it was not imported")}
            queue = []
        still = []
        for item in running:
            pkg, module, child, out, path, started = item
            why = None
            if child.poll() is None:
                if time.time() < deadline:
                    still.append(item)
                    continue
                why = "the import did not finish within %.1f s" % (deadline - started)
                child.kill()
                child.wait()
            out.close()
            records[pkg] = record_of(pkg, module, child, path, started, why)
            try:
                os.remove(path)
            except OSError:
                pass
        running = still
        if running:
            time.sleep(0.05)
    result = [records[pkg] for pkg, _ in wanted if pkg in records]
    sys.stdout.write("\n" + MARKER + json.dumps({"extensions": result}) + "\n")
    sys.stdout.flush()


main()
