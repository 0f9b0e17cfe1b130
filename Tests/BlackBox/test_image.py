"""The OCI image (scripts/image): its layers unpacked into a directory and run under chroot as the image's
non-root user, serving a stub mounted at /stubs; its compressed size printed and held to 30 MB.

The image is the layout directory $UNDERSTUDY_IMAGE_LAYOUT, else dist/understudy-VERSION-oci (scripts/image
writes it there); without one every test is skipped, saying so. Running it needs root (chroot).
"""

import gzip
import io
import json
import os
import shutil
import tarfile
import tempfile
import unittest
from pathlib import Path

from Tests.BlackBox.test_release import ALLOWED, REQUIRED, ROOT, VERSION, check_serves_journals_and_stops, serve_in_chroot

LAYOUT = Path(os.environ.get("UNDERSTUDY_IMAGE_LAYOUT") or ROOT / "dist" / f"understudy-{VERSION}-oci")
LIMIT = 30 * 1000 * 1000


def read_blob(digest):
    return (LAYOUT / "blobs" / "sha256" / digest.split(":", 1)[1]).read_bytes()


SKIP_WHY = f"no OCI layout at {LAYOUT}: run scripts/release, then scripts/image"


@unittest.skipUnless((LAYOUT / "index.json").is_file() or REQUIRED, SKIP_WHY)
class ImageTests(unittest.TestCase):
    def setUp(self):
        self.assertTrue((LAYOUT / "index.json").is_file(), SKIP_WHY)
        index = json.loads((LAYOUT / "index.json").read_text())
        self.manifest_descriptor = index["manifests"][0]
        self.manifest = json.loads(read_blob(self.manifest_descriptor["digest"]))
        self.config = json.loads(read_blob(self.manifest["config"]["digest"]))
        self.scratch = Path(tempfile.mkdtemp(prefix="understudy-image-"))
        self.addCleanup(shutil.rmtree, self.scratch, ignore_errors=True)

    def unpack_layers(self):
        root = self.scratch / "rootfs"
        root.mkdir()
        for layer in self.manifest["layers"]:
            self.assertEqual(layer["mediaType"], "application/vnd.oci.image.layer.v1.tar+gzip")
            with tarfile.open(fileobj=io.BytesIO(gzip.decompress(read_blob(layer["digest"])))) as tar:
                tar.extractall(root, numeric_owner=True)
        return root

    def test_compressed_size_is_at_most_30_mb(self):
        size = sum(layer["size"] for layer in self.manifest["layers"]) + self.manifest["config"]["size"]
        size += self.manifest_descriptor["size"]
        print(f"\nimage compressed size: {size} bytes ({size / 1e6:.1f} MB)")
        self.assertLessEqual(size, LIMIT)

    def test_it_holds_only_the_daemon_its_libraries_and_a_non_root_user(self):
        root = self.unpack_layers()
        files = sorted(str(path.relative_to(root)) for path in root.rglob("*") if not path.is_dir())
        binaries = {"usr/local/bin/understudy"}
        self.assertTrue(binaries <= set(files), files)
        others = [path for path in files if path not in binaries and path not in ("etc/passwd", "etc/group")]
        self.assertTrue(others and all(ALLOWED.match(Path(path).name) for path in others), others)
        user = self.config["config"]["User"]
        self.assertNotIn(user.split(":")[0], ("", "0", "root"))
        self.assertIn(f":{user.split(':')[0]}:", (root / "etc" / "passwd").read_text())
        self.assertEqual(
            self.config["config"]["Entrypoint"],
            ["/usr/local/bin/understudy", "serve", "/stubs", "--host", "0.0.0.0", "--allow-remote"],
        )

    @unittest.skipUnless(os.geteuid() == 0 or REQUIRED, "chroot needs root")
    def test_the_unpacked_image_serves_a_mounted_stub_as_its_user(self):
        root = self.unpack_layers()
        # The image's entry point, with the port and the files the test reads instead of the default command.
        process, url = serve_in_chroot(self, root, userspec=self.config["config"]["User"],
                                       command=self.config["config"]["Entrypoint"])
        check_serves_journals_and_stops(self, root, process, url)
        self.assertEqual((root / "run" / "journal.jsonl").stat().st_uid, int(self.config["config"]["User"].split(":")[0]))


if __name__ == "__main__":
    unittest.main()
