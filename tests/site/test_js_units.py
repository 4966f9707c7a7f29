"""The page's JavaScript unit tests (``tests/js/``, ``node --test``: the table sessions against
a fake worker, fake channels and a fake clock), run as part of the suite."""

import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_javascript_unit_tests_pass():
    node = shutil.which("node")
    assert node, "Node.js is a build dependency: it runs these tests too"
    done = subprocess.run(
        [node, "--test", "--test-timeout=20000", "tests/js/"], cwd=ROOT, capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# fail 0" in done.stdout and "# pass 0" not in done.stdout, done.stdout
