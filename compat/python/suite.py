"""Runs the C++-client tests, each in a process of its own, and counts them.

    python suite.py [NAME_PART ...]     every test whose id contains a NAME_PART (all without)
    python suite.py --one TEST_ID       one test, in this process (what the parent runs)

A process per test keeps a crash or a hang of the C++ client inside one test:
a test whose process dies, or outlives TEST_TIMEOUT seconds (240), fails.
The last line printed is "python: N passed, N failed, N skipped".
"""
import os
import subprocess
import sys
import time
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
RESULT = 'SUITE-RESULT: '


def discover():
    """The ids of the tests, and the modules that could not be loaded (as failing tests)."""
    suite = unittest.defaultTestLoader.discover(os.path.join(HERE, 'tests'), top_level_dir=HERE)
    ids, broken = [], []

    def walk(s):
        for t in s:
            if isinstance(t, unittest.TestSuite):
                walk(t)
            elif type(t).__name__ == '_FailedTest':
                broken.append(t)
            else:
                ids.append(t.id())
    walk(suite)
    return sorted(ids), broken


def run_one(test_id):
    """Runs one test here and prints its outcome as the last line."""
    result = unittest.TextTestRunner(stream=sys.stdout, verbosity=2).run(
        unittest.defaultTestLoader.loadTestsFromName(test_id))
    if result.skipped and result.wasSuccessful() and result.testsRun == len(result.skipped):
        outcome = 'skip'
    elif result.wasSuccessful() and result.testsRun:
        outcome = 'pass'
    else:
        outcome = 'fail'
    sys.stdout.write(RESULT + outcome + '\n')
    sys.stdout.flush()
    # The C++ client's threads may still be winding down: leave without waiting for them.
    os._exit(0)


def run_child(test_id, timeout):
    start = time.monotonic()
    try:
        p = subprocess.run([sys.executable, os.path.abspath(__file__), '--one', test_id], cwd=HERE,
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=timeout)
        out, code = p.stdout.decode('utf-8', 'replace'), p.returncode
    except subprocess.TimeoutExpired as e:
        out, code = (e.stdout or b'').decode('utf-8', 'replace'), 'timeout after %d s' % timeout
    lines = [line for line in out.splitlines() if line.startswith(RESULT)]
    outcome = lines[-1][len(RESULT):] if lines else 'fail'
    took = time.monotonic() - start
    sys.stdout.write(out)
    if not lines:
        sys.stdout.write('%s: the test process ended without a result (exit %s)\n' % (test_id, code))
    sys.stdout.write('=== %s %s (%.1f s)\n' % (outcome.upper(), test_id, took))
    sys.stdout.flush()
    return outcome


def main(argv):
    if len(argv) == 2 and argv[0] == '--one':
        run_one(argv[1])
    timeout = int(os.environ.get('TEST_TIMEOUT', '240'))
    all_ids, broken = discover()
    ids = [t for t in all_ids if not argv or any(a in t for a in argv)]
    counts = {'pass': 0, 'fail': 0, 'skip': 0}
    for t in broken:  # a module that does not import: show why, count it failed
        unittest.TextTestRunner(stream=sys.stdout).run(t)
        counts['fail'] += 1
    for t in ids:
        counts[run_child(t, timeout)] += 1
    if not ids and not broken:
        print('suite.py: no test matches %s' % argv)
    print('python: %d passed, %d failed, %d skipped' % (counts['pass'], counts['fail'], counts['skip']))
    return 0 if counts['fail'] == 0 and counts['pass'] > 0 else 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
