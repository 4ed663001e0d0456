"""The series of a Prometheus text exposition (a file, or a URL scraped with urllib), one a
line in one form: NAME{label="value",...} VALUE with the labels sorted by name and the
value as %.10g, so what dlenv wrote and what node_exporter serves compare line by line
(node_exporter orders labels by name and writes 1.79e+09 for 1796148553). Comment lines
are dropped. With a second argument PREFIX only the metrics whose name starts with it.
Usage: prom_series.py FILE|URL [PREFIX]"""
import re
import sys
import urllib.request

SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)(?:\s+\d+)?$')
LABEL = re.compile(r'\s*([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"\s*,?')


def text_of(source):
    if source.startswith("http://"):
        with urllib.request.urlopen(source, timeout=10) as answer:
            return answer.read().decode("utf-8")
    with open(source, encoding="utf-8") as f:
        return f.read()


def labels_of(text, line):
    out, at = [], 0
    while at < len(text):
        m = LABEL.match(text, at)
        if not m:
            sys.exit("not a label list: %s" % line)
        out.append((m.group(1), m.group(2)))
        at = m.end()
    return sorted(out)


def main():
    prefix = sys.argv[2] if len(sys.argv) > 2 else ""
    series = []
    for line in text_of(sys.argv[1]).splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        m = SAMPLE.match(line)
        if not m:
            sys.exit("not a sample line: %s" % line)
        name, labels, value = m.group(1), m.group(2) or "", m.group(3)
        if not name.startswith(prefix):
            continue
        pairs = ",".join('%s="%s"' % kv for kv in labels_of(labels, line))
        series.append("%s{%s} %.10g" % (name, pairs, float(value)))
    print("\n".join(sorted(series)))


main()
