"""Checks a `dlenv lint --sarif` document (tests/lint/run.sh).

With a schema file (argv[2]: the OASIS SARIF 2.1.0 schema, which tests/lint/sarif_schema.sh
takes from a pinned PyPI package, never committed) the document is validated against it
with jsonschema (formats included where jsonschema can check them). Always, the fields
SARIF 2.1.0 requires (and GitHub code scanning reads) are checked by hand, so tests/lint/
run.sh means something offline too. Prints one line per problem; nothing when it is valid.
"""
import json
import sys

LEVELS = {"none", "note", "warning", "error"}


def by_hand(doc):
    bad = []
    if doc.get("version") != "2.1.0":
        bad.append("version is not 2.1.0")
    runs = doc.get("runs")
    if not isinstance(runs, list) or not runs:
        return bad + ["runs is not a non-empty array"]
    for r, run in enumerate(runs):
        driver = run.get("tool", {}).get("driver", {})
        if not isinstance(driver.get("name"), str) or not driver["name"]:
            bad.append(f"runs[{r}].tool.driver.name missing")
        rules = driver.get("rules", [])
        ids = [rule.get("id") for rule in rules]
        if any(not isinstance(i, str) or not i for i in ids):
            bad.append(f"runs[{r}]: a rule without an id")
        if len(set(ids)) != len(ids):
            bad.append(f"runs[{r}]: rule ids repeat")
        for k, res in enumerate(run.get("results", [])):
            where = f"runs[{r}].results[{k}]"
            msg = res.get("message", {})
            if not isinstance(msg.get("text"), str) and "id" not in msg:
                bad.append(f"{where}.message has neither text nor id")
            if "level" in res and res["level"] not in LEVELS:
                bad.append(f"{where}.level {res['level']!r}")
            if "ruleIndex" in res and (not 0 <= res["ruleIndex"] < len(ids) or
                                       ids[res["ruleIndex"]] != res.get("ruleId")):
                bad.append(f"{where}.ruleIndex does not name ruleId")
            if "ruleId" in res and res["ruleId"] not in ids:
                bad.append(f"{where}.ruleId {res['ruleId']!r} is not a rule")
            for loc in res.get("locations", []):
                phys = loc.get("physicalLocation", {})
                if not phys.get("artifactLocation", {}).get("uri"):
                    bad.append(f"{where}: a location without artifactLocation.uri")
                reg = phys.get("region")
                if reg is not None:
                    for key in ("startLine", "startColumn"):
                        if key in reg and (not isinstance(reg[key], int) or reg[key] < 1):
                            bad.append(f"{where}.region.{key} {reg[key]!r}")
            for fix in res.get("fixes", []):
                changes = fix.get("artifactChanges")
                if not isinstance(changes, list) or not changes:
                    bad.append(f"{where}: a fix without artifactChanges")
                    continue
                for ch in changes:
                    if not ch.get("artifactLocation", {}).get("uri"):
                        bad.append(f"{where}: an artifactChange without a uri")
                    reps = ch.get("replacements")
                    if not isinstance(reps, list) or not reps:
                        bad.append(f"{where}: an artifactChange without replacements")
                        continue
                    for rep in reps:
                        reg = rep.get("deletedRegion")
                        if not isinstance(reg, dict) or not isinstance(
                                reg.get("byteOffset"), int) or reg["byteOffset"] < 0 or \
                                reg.get("byteLength", 0) < 0:
                            bad.append(f"{where}: a replacement without a byte region")
                        if not isinstance(rep.get("insertedContent", {}).get("text", ""), str):
                            bad.append(f"{where}: insertedContent.text is not a string")
    return bad


def by_schema(doc, schema_path):
    import jsonschema  # only where the test installed it
    with open(schema_path, encoding="utf-8") as fh:
        schema = json.load(fh)
    cls = jsonschema.validators.validator_for(schema)
    cls.check_schema(schema)
    validator = cls(schema, format_checker=cls.FORMAT_CHECKER)
    return [f"schema: {e.message} at {list(e.absolute_path)}"
            for e in validator.iter_errors(doc)]


def main():
    with open(sys.argv[1], encoding="utf-8") as fh:
        doc = json.load(fh)
    bad = by_hand(doc)
    if len(sys.argv) > 2:
        bad += by_schema(doc, sys.argv[2])
    for line in bad[:20]:
        print(line)


main()
