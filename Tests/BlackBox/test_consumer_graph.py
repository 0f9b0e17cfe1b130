"""What a package that uses the test kit pays: a scratch package depending only on UnderstudyTesting (and
one on RESTNetworking) resolves and builds none of SwiftNIO, swift-nio-ssl (BoringSSL), swift-crypto,
AsyncHTTPClient, OpenAPIKit or Yams. Package.swift keeps them behind the AsyncHTTPClient and OpenAPI
traits, off by default; SwiftPM leaves a package out of a dependent's graph only when every target
dependency on it is conditional on a trait that is off, so one unconditional `.product(...)` added to a
library target brings all of them back, and this test fails.

Both ways a user adds Understudy: by path (this checkout, as the examples do) and by URL (a `file://`
clone of this checkout's HEAD, as a published package is added)."""
import json
import os
import pathlib
import re
import subprocess
import tempfile
import textwrap
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Packages (Package.resolved identities) and modules (build directories) that must stay out.
HEAVY_PACKAGES = {"swift-nio", "swift-nio-ssl", "swift-crypto", "async-http-client", "openapikit", "yams",
                  "swift-certificates", "swift-asn1", "swift-nio-http2", "swift-nio-extras",
                  "swift-nio-transport-services", "swift-docc-plugin"}
HEAVY_MODULE_PREFIXES = ("NIO", "CNIO", "AsyncHTTPClient", "Crypto", "CCrypto", "_Crypto", "X509", "OpenAPIKit",
                         "Yams", "CYaml", "SwiftASN1")
# What the kit's graph may hold: swift-argument-parser (the daemon's CLI, a target of the same package),
# OpenCombine and swift-http-structured-headers (RESTNetworking's).
LIGHT_PACKAGES = {"swift-argument-parser", "opencombine", "swift-http-structured-headers"}


def swift(args, cwd, timeout):
    result = subprocess.run(["swift", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if result.returncode != 0:
        raise AssertionError(f"swift {' '.join(args)} failed in {cwd}:\n{result.stdout[-3000:]}\n{result.stderr[-3000:]}")
    return result.stdout


def write_consumer(directory, dependency, package_name, product):
    (directory / "Sources" / "Client").mkdir(parents=True)
    (directory / "Tests" / "ClientTests").mkdir(parents=True)
    (directory / "Package.swift").write_text(textwrap.dedent(f"""\
        // swift-tools-version:6.0
        import PackageDescription
        let package = Package(
            name: "Consumer",
            platforms: [.macOS(.v13)],
            dependencies: [{dependency}],
            targets: [
                .target(name: "Client"),
                .testTarget(
                    name: "ClientTests",
                    dependencies: ["Client", .product(name: "{product}", package: "{package_name}")]),
            ]
        )
        """))
    (directory / "Sources" / "Client" / "Client.swift").write_text("public let answer = 42\n")
    (directory / "Tests" / "ClientTests" / "ClientTests.swift").write_text(textwrap.dedent(f"""\
        import Client
        import {product}
        import Testing

        @Test func answers() {{ #expect(answer == 42) }}
        """))


def resolved_identities(directory):
    path = directory / "Package.resolved"
    if not path.exists():  # nothing remote in the graph
        return set()
    return {pin["identity"] for pin in json.loads(path.read_text())["pins"]}


class CommittedGraphTests(unittest.TestCase):
    def test_the_committed_package_resolved_pins_every_trait_s_packages(self):
        # A `swift build` here without `--enable-all-traits` rewrites Package.resolved with the default
        # traits' 5 pins; committed like that, every CI run would resolve the rest afresh.
        manifest = (ROOT / "Package.swift").read_text()
        direct = {url.rstrip("/").split("/")[-1].removesuffix(".git").lower()
                  for url in re.findall(r'\.package\(url: "([^"]+)"', manifest)}
        # The committed blob, not the file: `.ci/run` resolves with every trait on before the tests,
        # which rewrites the working copy with all pins and once hid a 5-pin file committed in 835cd59.
        committed = subprocess.run(["git", "-C", str(ROOT), "show", "HEAD:Package.resolved"],
                                   capture_output=True, text=True)
        if committed.returncode == 0:
            pinned = {pin["identity"] for pin in json.loads(committed.stdout)["pins"]}
        else:  # not a git checkout (an unpacked archive): the file is all there is
            pinned = resolved_identities(ROOT)
        self.assertTrue(direct, "no `.package(url:` found in Package.swift: this test reads it wrong")
        self.assertLessEqual(direct, pinned, f"not pinned: {sorted(direct - pinned)}")
        self.assertLessEqual({"swift-nio", "swift-nio-ssl", "swift-crypto", "yams"}, pinned)


class ConsumerGraphTests(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.work = tempfile.TemporaryDirectory(prefix="understudy-consumer-")
        cls.base = pathlib.Path(cls.work.name)

    @classmethod
    def tearDownClass(cls):
        cls.work.cleanup()

    def assert_light(self, directory):
        identities = resolved_identities(directory)
        self.assertFalse(identities & HEAVY_PACKAGES, f"resolved: {sorted(identities)}")
        self.assertLessEqual(identities, LIGHT_PACKAGES | {"understudy"}, f"resolved: {sorted(identities)}")
        checkouts = directory / ".build" / "checkouts"
        fetched = {p.name.lower() for p in checkouts.iterdir()} if checkouts.exists() else set()
        self.assertFalse(fetched & HEAVY_PACKAGES, f"checked out: {sorted(fetched)}")

    def test_a_test_kit_consumer_by_path_resolves_and_builds_nothing_heavy(self):
        consumer = self.base / "by-path"
        write_consumer(consumer, f'.package(path: "{ROOT}")', ROOT.name, "UnderstudyTesting")
        swift(["package", "resolve"], consumer, timeout=1800)
        self.assert_light(consumer)
        swift(["build", "--build-tests"], consumer, timeout=3600)
        bin_path = pathlib.Path(swift(["build", "--show-bin-path"], consumer, timeout=600).strip())
        built = {p.name.split(".")[0] for p in bin_path.iterdir() if p.suffix == ".build"}
        self.assertIn("UnderstudyTesting", built)
        self.assertFalse({m for m in built if m.startswith(HEAVY_MODULE_PREFIXES)}, f"built: {sorted(built)}")
        modules = bin_path / "Modules"
        if modules.exists():
            names = {p.name.split(".")[0] for p in modules.iterdir()}
            self.assertFalse({m for m in names if m.startswith(HEAVY_MODULE_PREFIXES)}, f"modules: {sorted(names)}")

    def test_consumers_by_url_resolve_nothing_heavy(self):
        # A clone of this checkout's HEAD, added by file:// URL at its commit, as a published package is.
        clone = self.base / "understudy"
        subprocess.run(["git", "clone", "--quiet", str(ROOT), str(clone)], check=True)
        head = subprocess.run(["git", "rev-parse", "HEAD"], cwd=clone, capture_output=True, text=True,
                              check=True).stdout.strip()
        for product in ("UnderstudyTesting", "RESTNetworking"):
            with self.subTest(product=product):
                consumer = self.base / f"by-url-{product}"
                write_consumer(consumer, f'.package(url: "file://{clone}", revision: "{head}")', "understudy",
                               product)
                swift(["package", "resolve"], consumer, timeout=1800)
                self.assertIn("understudy", resolved_identities(consumer))
                self.assert_light(consumer)


if __name__ == "__main__":
    unittest.main()
