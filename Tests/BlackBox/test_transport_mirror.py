"""The transport's socket-free codec tests (Tests/UnderstudyTransportTests) run every case of
test_http1_conformance.py from a generated Swift mirror; this fails when the mirror has fallen behind
the cases here (regenerate it with `python3 Tests/UnderstudyTransportTests/mirror_conformance.py`)."""
import subprocess
import sys
import unittest


class TransportMirrorTests(unittest.TestCase):
    def test_the_codec_tests_mirror_every_conformance_case(self):
        result = subprocess.run(
            [sys.executable, "Tests/UnderstudyTransportTests/mirror_conformance.py", "--check"],
            capture_output=True, text=True)
        self.assertEqual(result.returncode, 0, result.stderr + result.stdout)


if __name__ == "__main__":
    unittest.main()
