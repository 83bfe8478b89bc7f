#!/usr/bin/env python3
"""Lints Grafana dashboards (classic JSON model) the way grafana/dashboard-linter does, plus a
PromQL parse of every query by promtool. Python 3 standard library only.

    scripts/lint-dashboard.py [--promtool PATH] DASHBOARD.json...
    scripts/lint-dashboard.py --self-test        # proves each rule catches what it should

Rules (the names are printed with every finding):
  template-datasource   a variable `datasource` of type datasource for prometheus
  template-job          a query variable `job` (label_values over $datasource)
  template-instance     a query variable `instance`, chained on $job
  template-variables    every $variable used in a query is defined (or a Grafana built-in)
  panel-datasource      every panel and target uses ${datasource}
  panel-title           every panel has a title
  panel-description     every panel has a description
  panel-units           every panel has fieldConfig.defaults.unit, from Grafana's unit ids
  panel-targets         every panel has at least one target with an expr; refIds are unique
  panel-ids             panel ids are unique
  target-job            every series selector has job=~"$job"
  target-instance       every series selector has instance=~"$instance"
  target-rate-interval  every range selector is [$__rate_interval] (no fixed [5m], no subqueries)
  target-promql         every query parses (promtool check rules over a generated rule file)
  target-retired-name   no query selects a family syncmon no longer exposes (syncmon_summary,
                        now syncmon_status): such a panel parses but shows nothing

Exit status: 0 clean, 1 findings, 2 usage or environment errors.
"""

import copy
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# Grafana unit ids a panel may use (a subset of Grafana's list: the ones that fit this kind of
# data). An unknown id renders as a plain number in Grafana, so a typo would go unnoticed.
KNOWN_UNITS = {
    "none", "short", "percent", "percentunit", "bool", "bool_yes_no", "bool_on_off",
    "s", "ms", "µs", "ns", "m", "h", "d", "dtdurations", "dtdhms", "clocks",
    "dateTimeAsIso", "dateTimeAsUS", "dateTimeFromNow",
    "bytes", "decbytes", "bits", "kbytes", "mbytes", "gbytes", "Bps", "binBps", "bps",
    "cps", "ops", "reqps", "rps", "wps", "iops", "cpm", "opm", "rpm", "wpm",
    "hertz", "locale",
}
BUILTIN_VARIABLES = {"__rate_interval", "__interval", "__interval_ms", "__range", "__range_s",
                     "__range_ms", "__from", "__to", "__dashboard", "__name", "__org", "__user"}
# Values substituted before promtool parses a query.
SUBSTITUTIONS = {"__rate_interval": "5m", "__interval": "1m", "__interval_ms": "60000",
                 "__range": "1h", "__range_s": "3600", "__range_ms": "3600000"}
RANGE_FUNCTIONS = ("rate", "irate", "increase", "deriv", "delta", "idelta", "changes", "resets",
                   "predict_linear", "holt_winters", "absent_over_time", "present_over_time")
# Families syncmon used to expose, and what replaced them. A query on a retired name parses and
# returns nothing, so only a lint notices it before an operator does.
RETIRED_NAMES = {"syncmon_summary": "syncmon_status"}
VARIABLE_RE = re.compile(r"\$(?:\{(\w+)(?::\w+)?\}|(\w+)|\[\[(\w+)(?::\w+)?\]\])")
DATASOURCE_REFS = {"$datasource", "${datasource}"}


class Finding:
    def __init__(self, rule, where, message):
        self.rule, self.where, self.message = rule, where, message

    def __str__(self):
        return f"{self.rule}: {self.where}: {self.message}"


def variables_in(text):
    return {next(g for g in match.groups() if g) for match in VARIABLE_RE.finditer(text)}


def substitute(expr):
    """The query as Prometheus would get it: Grafana variables replaced by sample values."""
    def replace(match):
        name = next(g for g in match.groups() if g)
        return SUBSTITUTIONS.get(name, ".+")
    return VARIABLE_RE.sub(replace, expr)


def strip_strings(expr):
    """expr with the contents of string literals blanked (so braces or words inside them do not count)."""
    return re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'|`[^`]*`', lambda m: m.group(0)[0] + " " * (len(m.group(0)) - 2) + m.group(0)[0], expr)


def selectors(expr):
    """(metric name or '', matcher text) for every series selector in expr.

    A selector is a `{...}` group (with or without a metric name before it) or a bare metric name.
    Bare names are told apart from functions, keywords and label names by what surrounds them.
    """
    blank = strip_strings(expr)
    found = []
    keywords = {"by", "without", "on", "ignoring", "group_left", "group_right", "bool", "and", "or",
                "unless", "offset", "atan2", "inf", "nan"}
    index = 0
    label_list_depth = None
    while index < len(blank):
        char = blank[index]
        if char == "{":
            end = blank.index("}", index)
            start = index
            name_match = re.search(r"([a-zA-Z_:][a-zA-Z0-9_:]*)\s*$", blank[:start])
            name = name_match.group(1) if name_match and name_match.group(1) not in keywords else ""
            found.append((name, expr[start + 1:end]))
            index = end + 1
            continue
        match = re.match(r"[a-zA-Z_:][a-zA-Z0-9_:]*", blank[index:])
        if match and (index == 0 or not re.match(r"[a-zA-Z0-9_:.$]", blank[index - 1])):
            word = match.group(0)
            after = blank[index + len(word):].lstrip()
            before = blank[:index].rstrip()
            is_label_list = re.search(r"\b(by|without|on|ignoring|group_left|group_right)\s*\($", before) or (
                before.endswith(",") and label_list_depth is not None)
            if word in keywords:
                if after.startswith("("):
                    label_list_depth = 0
            elif after.startswith("(") or after.startswith("{") or re.match(r"(by|without)\b", after):
                pass  # a function or aggregation, or a name whose selector the "{" branch takes
            elif is_label_list:
                pass
            elif re.match(r"^\d", word) or before.endswith("[") or re.match(r"[smhdwy]\b", word):
                pass
            else:
                found.append((word, None))
            index += len(word)
            continue
        if char == ")":
            label_list_depth = None
        index += 1
    return found


def has_matcher(matchers, label, variable):
    if matchers is None:
        return False
    pattern = rf'(^|[{{,\s]){label}\s*=~?\s*"\$(\{{{variable}\}}|{variable})"'
    return re.search(pattern, matchers) is not None


def lint(dashboard, where, findings, promtool_queries):
    templating = {v.get("name"): v for v in dashboard.get("templating", {}).get("list", [])}

    datasource = templating.get("datasource")
    if not datasource or datasource.get("type") != "datasource" or datasource.get("query") != "prometheus":
        findings.append(Finding("template-datasource", where, 'needs a variable "datasource" of type datasource with query "prometheus"'))
    for name, rule in (("job", "template-job"), ("instance", "template-instance")):
        variable = templating.get(name)
        if not variable or variable.get("type") != "query":
            findings.append(Finding(rule, where, f'needs a query variable "{name}"'))
            continue
        if not datasource_ok(variable.get("datasource")):
            findings.append(Finding(rule, f"{where}: variable {name}", "datasource must be ${datasource}"))
        query = variable.get("query")
        text = query.get("query", "") if isinstance(query, dict) else (query or "")
        if "label_values(" not in text:
            findings.append(Finding(rule, f"{where}: variable {name}", f"query must be label_values(...): {text!r}"))
        if name == "instance" and not has_matcher(text, "job", "job"):
            findings.append(Finding(rule, f"{where}: variable instance", 'query must select job=~"$job"'))
        if not variable.get("multi") and not variable.get("includeAll"):
            pass
    defined = set(templating) | BUILTIN_VARIABLES
    for name, variable in templating.items():
        if variable.get("type") != "query":
            continue
        query = variable.get("query")
        text = query.get("query", "") if isinstance(query, dict) else (query or "")
        inner = re.match(r"\s*label_values\((.*),\s*([a-zA-Z_]\w*)\s*\)\s*$", text, re.S)
        if inner:
            promtool_queries.append((f"{where}: variable {name}", inner.group(1)))
            lint_retired_names(inner.group(1), f"{where}: variable {name}", findings)
        for used in variables_in(text):
            if used not in defined:
                findings.append(Finding("template-variables", f"{where}: variable {name}", f"${used} is not defined"))

    ids = {}
    for panel in all_panels(dashboard.get("panels", [])):
        if panel.get("type") == "row":
            continue
        title = panel.get("title") or ""
        here = f"{where}: panel {panel.get('id')} {title!r}"
        if panel.get("id") in ids:
            findings.append(Finding("panel-ids", here, f"id {panel.get('id')} is also used by {ids[panel.get('id')]!r}"))
        ids[panel.get("id")] = title
        if not title.strip():
            findings.append(Finding("panel-title", here, "has no title"))
        if not (panel.get("description") or "").strip():
            findings.append(Finding("panel-description", here, "has no description"))
        unit = panel.get("fieldConfig", {}).get("defaults", {}).get("unit")
        if not unit:
            findings.append(Finding("panel-units", here, "has no fieldConfig.defaults.unit"))
        elif unit not in KNOWN_UNITS:
            findings.append(Finding("panel-units", here, f"unit {unit!r} is not a known Grafana unit id"))
        if not datasource_ok(panel.get("datasource")):
            findings.append(Finding("panel-datasource", here, f"datasource must be ${{datasource}}, not {panel.get('datasource')!r}"))
        targets = [t for t in panel.get("targets", []) if not t.get("hide")]
        if not targets:
            findings.append(Finding("panel-targets", here, "has no targets"))
        refs = set()
        for target in targets:
            ref = target.get("refId", "?")
            at = f"{here} target {ref}"
            if ref in refs:
                findings.append(Finding("panel-targets", at, "duplicate refId"))
            refs.add(ref)
            if "datasource" in target and not datasource_ok(target["datasource"]):
                findings.append(Finding("panel-datasource", at, f"datasource must be ${{datasource}}, not {target['datasource']!r}"))
            expr = target.get("expr") or ""
            if not expr.strip():
                findings.append(Finding("panel-targets", at, "has no expr"))
                continue
            lint_expr(expr, at, defined, findings)
            promtool_queries.append((at, expr))


def lint_retired_names(expr, at, findings):
    for name, _ in selectors(expr):
        if name in RETIRED_NAMES:
            findings.append(Finding("target-retired-name", at, f"{name} is no longer exposed; use {RETIRED_NAMES[name]}"))


def lint_expr(expr, at, defined, findings):
    lint_retired_names(expr, at, findings)
    for used in variables_in(expr):
        if used not in defined:
            findings.append(Finding("template-variables", at, f"${used} is not defined"))
    found = selectors(expr)
    if not found:
        findings.append(Finding("target-job", at, "no series selector found"))
    for name, matchers in found:
        shown = f"{name}{{{matchers}}}" if matchers is not None else name
        if not has_matcher(matchers, "job", "job"):
            findings.append(Finding("target-job", at, f'selector {shown} has no job=~"$job"'))
        if not has_matcher(matchers, "instance", "instance"):
            findings.append(Finding("target-instance", at, f'selector {shown} has no instance=~"$instance"'))
    blank = strip_strings(expr)
    for match in re.finditer(r"\[([^\]]*)\]", blank):
        if match.group(1).strip() != "$__rate_interval":
            findings.append(Finding("target-rate-interval", at, f"range [{match.group(1)}] must be [$__rate_interval]"))
    for function in RANGE_FUNCTIONS:
        for match in re.finditer(rf"\b{function}\s*\(", blank):
            depth, index = 1, match.end()
            while index < len(blank) and depth:
                depth += {"(": 1, ")": -1}.get(blank[index], 0)
                index += 1
            if "[" not in blank[match.end():index]:
                findings.append(Finding("target-rate-interval", at, f"{function}() without a range selector"))


def datasource_ok(value):
    if isinstance(value, str):
        return value in DATASOURCE_REFS
    if isinstance(value, dict):
        return value.get("uid") in DATASOURCE_REFS
    return False


def all_panels(panels):
    for panel in panels:
        yield panel
        yield from all_panels(panel.get("panels", []))


def promtool_check(promtool, queries, findings):
    """Parses every query with promtool: one recording rule per query, each in its own group so
    that every error names its query."""
    if not queries:
        return
    groups = [{"name": f"q{index}", "rules": [{"record": f"lint:query{index}", "expr": substitute(expr)}]}
              for index, (_, expr) in enumerate(queries)]
    with tempfile.TemporaryDirectory(prefix="lint-dashboard.") as directory:
        path = os.path.join(directory, "queries.rules.json")  # JSON is YAML; promtool reads it
        with open(path, "w") as file:
            json.dump({"groups": groups}, file, indent=1)
        result = subprocess.run([promtool, "check", "rules", path], capture_output=True, text=True)
    if result.returncode == 0:
        return
    output = result.stdout + result.stderr
    matched = False
    for line in output.splitlines():
        group = re.search(r"group \"?q(\d+)\"?", line)
        if group:
            index = int(group.group(1))
            findings.append(Finding("target-promql", queries[index][0], f"{line.strip()} — query: {substitute(queries[index][1])}"))
            matched = True
    if not matched:
        findings.append(Finding("target-promql", "promtool", output.strip()))


def run(paths, promtool):
    findings = []
    for path in paths:
        try:
            with open(path) as file:
                dashboard = json.load(file)
        except (OSError, ValueError) as error:
            findings.append(Finding("json", path, str(error)))
            continue
        queries = []
        lint(dashboard, path, findings, queries)
        promtool_check(promtool, queries, findings)
    return findings


def self_test(promtool, dashboard_path):
    """Breaks a copy of the real dashboard in one way at a time; each break must be reported by the
    rule meant to catch it, and the unbroken dashboard must be clean."""
    with open(dashboard_path) as file:
        original = json.load(file)

    def panels(d):
        return [p for p in all_panels(d["panels"]) if p.get("type") != "row"]

    def first_with(d, word):
        return next(p for p in panels(d) if any(word in t.get("expr", "") for t in p.get("targets", [])))

    def set_expr(word, old, new):
        def mutate(d):
            panel = first_with(d, word)
            for target in panel["targets"]:
                if old in target["expr"]:
                    target["expr"] = target["expr"].replace(old, new, 1)
                    return
            raise AssertionError(f"{old!r} not in {word}")
        return mutate

    def drop_variable(name):
        def mutate(d):
            d["templating"]["list"] = [v for v in d["templating"]["list"] if v["name"] != name]
        return mutate

    cases = [
        ("template-datasource", drop_variable("datasource")),
        ("template-job", drop_variable("job")),
        ("template-instance", drop_variable("instance")),
        ("template-variables", drop_variable("engine")),
        ("panel-datasource", lambda d: panels(d)[0].__setitem__("datasource", {"type": "prometheus", "uid": "P1809F7CD0C75ACF3"})),
        ("panel-datasource", lambda d: panels(d)[1]["targets"][0].__setitem__("datasource", "Prometheus")),
        ("panel-title", lambda d: panels(d)[2].__setitem__("title", "")),
        ("panel-description", lambda d: panels(d)[3].pop("description")),
        ("panel-units", lambda d: panels(d)[4]["fieldConfig"]["defaults"].pop("unit")),
        ("panel-units", lambda d: panels(d)[4]["fieldConfig"]["defaults"].__setitem__("unit", "seconds")),
        ("panel-targets", lambda d: panels(d)[5].__setitem__("targets", [])),
        ("panel-ids", lambda d: panels(d)[6].__setitem__("id", panels(d)[7]["id"])),
        ("target-job", set_expr("syncmon_pending_changes", 'job=~"$job", ', "")),
        ("target-job", set_expr("process_resident_memory_bytes", '{job=~"$job", instance=~"$instance"}', "")),
        ("target-instance", set_expr("syncmon_errors_total", ', instance=~"$instance"', "")),
        ("target-instance", set_expr("syncmon_status", 'instance=~"$instance"', 'instance=~"$job"')),
        ("target-rate-interval", set_expr("syncmon_records_sent_total", "[$__rate_interval]", "[5m]")),
        ("target-rate-interval", set_expr("process_cpu_seconds_total", "[$__rate_interval]", "[$__rate_interval:1m]")),
        ("target-promql", set_expr("syncmon_records_fetched_total", "sum by (change)", "sum by (change")),
        ("target-promql", set_expr("syncmon_events_rejected_total", "rate(", "rated(")),
        # A type error, not a syntax error: a range vector where an instant vector is needed.
        ("target-promql", set_expr("syncmon_stalled", '"$engine"})', '"$engine"}[$__rate_interval])')),
        ("target-retired-name", set_expr("syncmon_status", "syncmon_status{", "syncmon_summary{")),
    ]

    failures = 0
    with tempfile.TemporaryDirectory(prefix="lint-dashboard-selftest.") as directory:
        def lint_copy(d, name):
            path = os.path.join(directory, name)
            with open(path, "w") as file:
                json.dump(d, file)
            return run([path], promtool)

        clean = lint_copy(original, "original.json")
        if clean:
            failures += 1
            print("self-test: FAIL: the shipped dashboard is not clean:", *clean, sep="\n  ")
        else:
            print("self-test: ok: shipped dashboard is clean")
        for index, (rule, mutate) in enumerate(cases):
            broken = copy.deepcopy(original)
            mutate(broken)
            got = lint_copy(broken, f"case{index}.json")
            if any(f.rule == rule for f in got):
                print(f"self-test: ok: {rule} caught case {index}")
            else:
                failures += 1
                print(f"self-test: FAIL: case {index} should be caught by {rule}; got:", *(got or ["nothing"]), sep="\n  ")
    return failures


def main(argv):
    promtool = os.environ.get("PROMTOOL", "promtool")
    args = list(argv)
    if "--promtool" in args:
        at = args.index("--promtool")
        promtool = args[at + 1]
        del args[at:at + 2]
    if not shutil.which(promtool):
        print(f"lint-dashboard: promtool not found ({promtool}); install Debian's prometheus package", file=sys.stderr)
        return 2
    if args[:1] == ["--self-test"]:
        path = args[1] if len(args) > 1 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "dashboards", "syncmon.json")
        failures = self_test(promtool, path)
        print("self-test:", "FAILED" if failures else "passed")
        return 1 if failures else 0
    if not args or any(a.startswith("-") for a in args):
        print(__doc__, file=sys.stderr)
        return 2
    findings = run(args, promtool)
    for finding in findings:
        print(finding)
    queries = 0
    for path in args:
        try:
            with open(path) as file:
                dashboard = json.load(file)
            queries += sum(len(p.get("targets", [])) for p in all_panels(dashboard.get("panels", [])))
        except (OSError, ValueError):
            pass
    print(f"lint-dashboard: {len(args)} dashboard(s), {queries} queries, {len(findings)} finding(s)")
    return 1 if findings else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
