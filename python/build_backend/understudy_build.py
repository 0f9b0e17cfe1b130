"""The package's own PEP 517 build backend (pyproject.toml's `backend-path`): no setuptools, hatchling or
network needed, so `pip wheel python/` works offline.

It writes the platform wheel `understudy-VERSION-py3-none-manylinux_2_X_ARCH.whl`, which bundles the
release archive's binaries under `understudy/bin/` (as ruff and uv ship theirs). The archive is
$UNDERSTUDY_RELEASE_ARCHIVE, or dist/understudy-VERSION-linux-ARCH.tar.gz at the repository's root
(scripts/release makes it). The manylinux tag is the newest glibc symbol version the daemon asks for,
read from the binary itself. VERSION is the repository's VERSION file (or $UNDERSTUDY_VERSION).
"""

from __future__ import annotations

import base64
import hashlib
import io
import os
import platform
import re
import tarfile
import zipfile
from pathlib import Path
from typing import Dict, List, Optional, Tuple

HERE = Path(__file__).resolve().parent.parent  # python/
ROOT = HERE.parent
NAME = "understudy"


def _version() -> str:
    return os.environ.get("UNDERSTUDY_VERSION") or (ROOT / "VERSION").read_text().strip()


def _binaries(version: str) -> Dict[str, bytes]:
    arch = platform.machine()
    archive = Path(os.environ.get("UNDERSTUDY_RELEASE_ARCHIVE") or ROOT / "dist" / f"understudy-{version}-linux-{arch}.tar.gz")
    if not archive.is_file():
        raise RuntimeError(
            f"understudy's wheel bundles the release binary: {archive} is missing. Run scripts/release first, "
            "or set UNDERSTUDY_RELEASE_ARCHIVE to a release archive."
        )
    found: Dict[str, bytes] = {}
    with tarfile.open(archive) as tar:
        for member in tar.getmembers():
            base = member.name.rsplit("/", 1)[-1]
            if member.isfile() and base in ("understudy", "understudy-openapi"):
                extracted = tar.extractfile(member)
                assert extracted is not None
                found[base] = extracted.read()
    if "understudy" not in found:
        raise RuntimeError(f"{archive} has no understudy binary")
    return found


def _platform_tag(binary: bytes) -> str:
    versions = [tuple(int(part) for part in match.split(b".")) for match in re.findall(rb"GLIBC_(2\.[0-9]+)", binary)]
    major, minor = max(versions) if versions else (2, 17)
    return f"manylinux_{major}_{minor}_{platform.machine()}"


def _metadata(version: str) -> str:
    readme = (HERE / "README.md").read_text()
    return (
        "Metadata-Version: 2.1\n"
        f"Name: {NAME}\n"
        f"Version: {version}\n"
        "Summary: Understudy, a fast stub HTTP server, bundled for Python tests, with a pytest plugin\n"
        "License: see the project's repository\n"
        "Requires-Python: >=3.8\n"
        "Classifier: Framework :: Pytest\n"
        "Classifier: Operating System :: POSIX :: Linux\n"
        "Classifier: Typing :: Typed\n"
        "Provides-Extra: xdist\n"
        "Requires-Dist: pytest-xdist; extra == \"xdist\"\n"
        "Description-Content-Type: text/markdown\n"
        "\n" + readme
    )


def _record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return f"{path},sha256={digest},{len(data)}"


def _files(version: str) -> Tuple[List[Tuple[str, bytes, int]], str]:
    """(path in the wheel, content, mode) of every file but RECORD, and the platform tag."""
    binaries = _binaries(version)
    tag = _platform_tag(binaries["understudy"])
    files: List[Tuple[str, bytes, int]] = []
    for source in sorted((HERE / "src" / NAME).iterdir()):
        if source.is_file() and (source.suffix == ".py" or source.name == "py.typed"):
            files.append((f"{NAME}/{source.name}", source.read_bytes(), 0o644))
    for name, data in sorted(binaries.items()):
        files.append((f"{NAME}/bin/{name}", data, 0o755))
    info = f"{NAME}-{version}.dist-info"
    files.append((f"{info}/METADATA", _metadata(version).encode(), 0o644))
    files.append((
        f"{info}/WHEEL",
        f"Wheel-Version: 1.0\nGenerator: understudy_build\nRoot-Is-Purelib: false\nTag: py3-none-{tag}\n".encode(),
        0o644,
    ))
    files.append((
        f"{info}/entry_points.txt",
        b"[console_scripts]\nunderstudy = understudy.__main__:main\n\n[pytest11]\nunderstudy = understudy.pytest_plugin\n",
        0o644,
    ))
    return files, tag


def build_wheel(wheel_directory: str, config_settings: Optional[dict] = None, metadata_directory: Optional[str] = None) -> str:
    version = _version()
    files, tag = _files(version)
    wheel_name = f"{NAME}-{version}-py3-none-{tag}.whl"
    record_path = f"{NAME}-{version}.dist-info/RECORD"
    record = "\n".join([_record_line(path, data) for path, data, _ in files] + [f"{record_path},,", ""])
    with zipfile.ZipFile(Path(wheel_directory) / wheel_name, "w", zipfile.ZIP_DEFLATED) as wheel:
        for path, data, mode in files + [(record_path, record.encode(), 0o644)]:
            entry = zipfile.ZipInfo(path, date_time=(2020, 1, 1, 0, 0, 0))
            entry.external_attr = (0o100000 | mode) << 16  # a regular file with these permissions
            entry.compress_type = zipfile.ZIP_DEFLATED
            wheel.writestr(entry, data)
    return wheel_name


def get_requires_for_build_wheel(config_settings: Optional[dict] = None) -> List[str]:
    return []


def build_sdist(sdist_directory: str, config_settings: Optional[dict] = None) -> str:
    """The Python sources only (no binary: building a wheel from it needs a release archive)."""
    version = _version()
    name = f"{NAME}-{version}"
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as tar:
        for path in ["pyproject.toml", "README.md", "build_backend/understudy_build.py"] + [
            f"src/{NAME}/{p.name}" for p in sorted((HERE / "src" / NAME).iterdir()) if p.is_file()
        ]:
            tar.add(HERE / path, arcname=f"{name}/{path}")
        data = _metadata(version).encode()
        info = tarfile.TarInfo(f"{name}/PKG-INFO")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    (Path(sdist_directory) / f"{name}.tar.gz").write_bytes(buffer.getvalue())
    return f"{name}.tar.gz"
