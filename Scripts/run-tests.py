#!/usr/bin/env python3
"""Runs the XCTest suite in parallel worker processes and reports what matters at the end.

    Scripts/run-tests.py [--jobs N] [--tier full|check] [--filter REGEX] [--bundle PATH]

The test bundle built by `swift build --build-tests` is run once per test class (a class's tests may share
fixtures, so they run one after another in one process, as XCTest runs them). Classes are started longest first, by
the durations of the last run, on N workers (default: the number of cores). Each process's output is kept; a unit
that fails, crashes or exceeds its time limit has its whole output printed. At the end: the failures, the skipped
tests with their reasons, the ten slowest tests and the totals. Exit status 1 when any test failed or any process
ended abnormally, else 0. Each process runs with a temporary folder of its own as `$TMPDIR`, removed when it ends.

Durations of every run are written to .build/keyframe-test-times.json and order the next run's units; a clean
checkout orders by Tests/test-times.json, the committed durations of a full run (`--save-times` refreshes it).

`--tier check` runs the fast tier (`make check`): the classes listed in CHECK_TIER below, the loop to run after
every edit. `--filter` keeps the tests whose `Target.Class/test` name matches the regular expression.
"""

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
COMMITTED_TIMES = os.path.join(ROOT, "Tests", "test-times.json")
LOCAL_TIMES = os.path.join(ROOT, ".build", "keyframe-test-times.json")

# The fast tier: model, import, engine, raster and the CLI contract; no players, browsers, build systems or corpus
# rendering. Each entry is a regular expression over `Target.Class`.
CHECK_TIER = [
    r"KeyframeModelTests\.",
    r"KeyframeImportTests\.(?!.*Corpus)",
    r"KeyframeEngineTests\.(?!DragonBonesGolden)",
    r"KeyframeRasterTests\.(?!BulkSpan)",
    r"KeyframePNGTests\.",
    r"KeyframeCLITests\.(CLIContractTests|CLITests)$",
    r"KeyframeRobustnessTests\.(MalformedInputTests|FuzzRegressionTests)$",
]

# A unit running longer than this is stopped and reported as a failure (a hang must not stall CI).
UNIT_TIMEOUT_SECONDS = 900

CASE_LINE = re.compile(r"^Test Case '(?:-\[)?([\w.]+)[ .](\w+)\]?' (started|passed|failed|skipped)(?: \(([\d.]+) seconds\))?")
SKIP_LINE = re.compile(r"^.*?: ([\w.]+)\.(\w+) : Test skipped(?: - (.*))?$")


def bundle_path(explicit):
    if explicit:
        return explicit
    out = subprocess.run(["swift", "build", "--show-bin-path"], cwd=ROOT, capture_output=True, text=True, check=True)
    folder = out.stdout.strip()
    bundles = [name for name in os.listdir(folder) if name.endswith(".xctest")]
    if not bundles:
        sys.exit("run-tests: no .xctest bundle in %s; run `swift build --build-tests` first" % folder)
    return os.path.join(folder, sorted(bundles)[0])


def list_tests(bundle):
    out = subprocess.run([bundle, "--list-tests"], cwd=ROOT, capture_output=True, text=True, check=True)
    return [line.strip() for line in out.stdout.splitlines() if "/" in line and not line.startswith("Listing")]


def load_times():
    for path in (LOCAL_TIMES, COMMITTED_TIMES):
        try:
            with open(path) as handle:
                return json.load(handle)
        except (OSError, ValueError):
            continue
    return {}


def make_units(tests, times):
    """Groups tests by class, longest expected first."""
    classes = {}
    for test in tests:
        classes.setdefault(test.split("/")[0], []).append(test)
    units = [(sum(times.get(test, 0.5) for test in members), members) for members in classes.values()]
    units.sort(key=lambda unit: (-unit[0], unit[1][0]))
    return [members for _, members in units]


class Results:
    def __init__(self):
        self.lock = threading.Lock()
        self.durations = {}
        self.failed = []  # (test or unit name, output)
        self.skipped = []  # (test, reason)
        self.passed = 0


def run_unit(bundle, members, results, whole_class):
    spec = members[0].split("/")[0] if whole_class else ",".join(members)
    started = time.monotonic()
    # Each process gets a temporary folder of its own as $TMPDIR, removed when it ends: whatever its tests (or the
    # tools they start) leave there, a crash or time-out included, does not pile up across runs.
    temporary = tempfile.mkdtemp(prefix="keyframe-tests-")
    os.chmod(temporary, 0o711)  # other users may pass through, as through /tmp (a test runs keyframe as `nobody`)
    environment = dict(os.environ, TMPDIR=temporary)
    try:
        proc = subprocess.run([bundle, spec], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              timeout=UNIT_TIMEOUT_SECONDS, env=environment)
        output = proc.stdout.decode("utf-8", "replace")
        status = proc.returncode
    except subprocess.TimeoutExpired as expired:
        output = (expired.stdout or b"").decode("utf-8", "replace")
        output += "\nrun-tests: stopped after %d s\n" % UNIT_TIMEOUT_SECONDS
        status = None
    finally:
        shutil.rmtree(temporary, ignore_errors=True)
    seen, failed_here, running = set(), False, None
    reasons = {}
    for line in output.splitlines():
        skip = SKIP_LINE.match(line)
        if skip:
            reasons["%s/%s" % (skip.group(1), skip.group(2))] = skip.group(3) or ""
        match = CASE_LINE.match(line)
        if not match:
            continue
        cls, test, state, seconds = match.groups()
        name = "%s/%s" % (cls, test)
        full = next((m for m in members if m.endswith("." + name) or m == name), name)
        if state == "started":
            running = full
            continue
        running = None
        seen.add(full)
        with results.lock:
            results.durations[full] = float(seconds or 0)
            if state == "passed":
                results.passed += 1
            elif state == "skipped":
                results.skipped.append((full, reasons.get(name, "")))
            else:
                failed_here = True
    abnormal = status is None or (status != 0 and not failed_here) or status < 0
    with results.lock:
        if failed_here or abnormal:
            label = spec if status is not None else spec + " (timed out)"
            if running:
                label += " — ended while running " + running
            results.failed.append((label, output))
        if abnormal:
            for member in members:
                if member not in seen:
                    results.durations.setdefault(member, time.monotonic() - started)
    return not (failed_here or abnormal)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    parser.add_argument("--tier", choices=["full", "check"], default="full")
    parser.add_argument("--filter", default=None)
    parser.add_argument("--bundle", default=None)
    parser.add_argument("--save-times", action="store_true", help="write this run's durations to Tests/test-times.json")
    args = parser.parse_args()
    if args.jobs < 1:
        parser.error("--jobs must be at least 1")

    bundle = bundle_path(args.bundle)
    tests = list_tests(bundle)
    if args.tier == "check":
        patterns = [re.compile(p) for p in CHECK_TIER]
        tests = [t for t in tests if any(p.match(t.split("/")[0]) for p in patterns)]
    if args.filter:
        pattern = re.compile(args.filter)
        tests = [t for t in tests if pattern.search(t)]
    if not tests:
        sys.exit("run-tests: no test matches")

    times = load_times()
    units = make_units(tests, times)
    all_of_class = {}
    for test in tests:
        all_of_class.setdefault(test.split("/")[0], []).append(test)

    results = Results()
    queue = list(units)
    queue_lock = threading.Lock()
    started = time.monotonic()
    print("run-tests: %d tests in %d processes on %d workers (%s)" % (len(tests), len(units), args.jobs,
                                                                      os.path.relpath(bundle, ROOT)), flush=True)

    def worker():
        while True:
            with queue_lock:
                if not queue:
                    return
                members = queue.pop(0)
            cls = members[0].split("/")[0]
            whole = members == all_of_class[cls] and args.filter is None
            if not run_unit(bundle, members, results, whole):
                print("  FAIL %s" % (cls if len(members) > 1 else members[0]), flush=True)

    threads = [threading.Thread(target=worker) for _ in range(min(args.jobs, len(units)))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    wall = time.monotonic() - started

    merged = dict(load_times())
    merged.update(results.durations)
    os.makedirs(os.path.dirname(LOCAL_TIMES), exist_ok=True)
    with open(LOCAL_TIMES, "w") as handle:
        json.dump(merged, handle, indent=0, sort_keys=True)
    if args.save_times:
        with open(COMMITTED_TIMES, "w") as handle:
            json.dump({k: round(v, 2) for k, v in sorted(results.durations.items())}, handle, indent=0, sort_keys=True)
            handle.write("\n")

    for label, output in results.failed:
        print("\n==== FAILED: %s ====\n%s" % (label, output.rstrip()))
    if results.skipped:
        print("\nSkipped:")
        for test, reason in sorted(results.skipped):
            print("  %s: %s" % (test, reason or "(no reason given)"))
    print("\nSlowest tests:")
    for test, seconds in sorted(results.durations.items(), key=lambda item: -item[1])[:10]:
        print("  %7.2f s  %s" % (seconds, test))
    cpu = sum(results.durations.values())
    print("\n%d tests: %d passed, %d skipped, %d failed unit(s); %.1f s wall, %.1f s in tests, %d workers" % (
        len(tests), results.passed, len(results.skipped), len(results.failed), wall, cpu, args.jobs))
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
