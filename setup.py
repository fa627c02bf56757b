"""Builds the qaplan Python package with CMake (see pyproject.toml).

The extension is python/CMakeLists.txt's `qaplan_python` target, built from this checkout with
only the library and the module enabled (no CLI, tests or benchmarks) for the interpreter that
runs pip. The pure-Python files come from python/qaplan/, the data (rules.toml, glossaries,
model, the benchmark's frozen inputs) from the CMake build's python/qaplan/data/.

Environment:
  QAPLAN_CMAKE_BUILD_DIR   build in this CMake build directory (default: build-pip/cmake); one
                           that is already configured (e.g. build/ of scripts/setup.sh, where
                           QAPLAN_PYTHON is ON) is used as it is, without reconfiguring it
  QAPLAN_CMAKE_ARGS        extra arguments for the CMake configure step
  CMAKE_BUILD_PARALLEL_LEVEL  build jobs (default: the number of CPUs)
"""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent
BUILD_BASE = ROOT / "build-pip"  # beside build/ (the CMake tree of scripts/setup.sh); git-ignored


def project_version() -> str:
    text = (ROOT / "CMakeLists.txt").read_text(encoding="utf-8")
    m = re.search(r"project\(qaplan\s+VERSION\s+([0-9.]+)", text)
    if not m:
        raise RuntimeError("no project(qaplan VERSION …) in CMakeLists.txt")
    return m.group(1)


class CMakeExtension(Extension):
    def __init__(self, name: str) -> None:
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext: Extension) -> None:
        build_dir = Path(os.environ.get("QAPLAN_CMAKE_BUILD_DIR") or BUILD_BASE / "cmake").resolve()
        cmake = shutil.which("cmake")
        if cmake is None:
            raise RuntimeError("cmake not found: apt-get install cmake (or run scripts/setup.sh)")
        configure = [
            cmake, "-S", str(ROOT), "-B", str(build_dir),
            "-DCMAKE_BUILD_TYPE=Release",
            "-DQAPLAN_PYTHON=ON",
            "-DQAPLAN_BUILD_TESTS=OFF", "-DQAPLAN_BUILD_TOOLS=OFF",
            "-DQAPLAN_BUILD_BENCHMARKS=OFF", "-DQAPLAN_INSTALL=OFF",
            f"-DPython_EXECUTABLE={sys.executable}",
        ]
        if shutil.which("ninja") and not (build_dir / "CMakeCache.txt").exists():
            configure += ["-G", "Ninja"]
        configure += shlex.split(os.environ.get("QAPLAN_CMAKE_ARGS", ""))
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(os.cpu_count() or 1)
        reuse = bool(os.environ.get("QAPLAN_CMAKE_BUILD_DIR")) and (build_dir / "CMakeCache.txt").exists()
        if not reuse:
            subprocess.check_call(configure)
        subprocess.check_call([cmake, "--build", str(build_dir), "--target", "qaplan_python",
                               "--parallel", jobs])
        package = build_dir / "python" / "qaplan"
        built = sorted(package.glob("_core*.so"))
        if not built:
            raise RuntimeError(f"CMake built no extension in {package}")
        target = Path(self.get_ext_fullpath(ext.name))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(built[0], target)
        data = target.parent / "data"
        if data.exists():
            shutil.rmtree(data)
        shutil.copytree(package / "data", data)


def bdist_wheel_command():
    """The bdist_wheel command pip builds with: setuptools's own (≥ 70.1), else the `wheel`
    package. A Python without either (pyenv's, with its bundled setuptools 65) may borrow Debian's
    python3-wheel: it is pure Python, and only setup.py's process sees it. Otherwise one line
    says what to install, instead of pip's "invalid command 'bdist_wheel'"."""
    try:
        from setuptools.command.bdist_wheel import bdist_wheel
        return bdist_wheel
    except ImportError:
        pass
    try:
        from wheel.bdist_wheel import bdist_wheel
        return bdist_wheel
    except ImportError:
        pass
    debian = "/usr/lib/python3/dist-packages"
    if Path(debian, "wheel", "bdist_wheel.py").is_file():
        sys.path.append(debian)  # after this Python's own packages: only what it lacks
        try:
            from wheel.bdist_wheel import bdist_wheel
            return bdist_wheel
        except ImportError:
            sys.path.remove(debian)
    sys.exit(f"qaplan: building needs the 'wheel' package for {sys.executable}: install it "
             f"({sys.executable} -m pip install wheel, or apt-get install python3-wheel)")


BUILD_BASE.mkdir(exist_ok=True)
setup(
    version=project_version(),
    packages=["qaplan"],
    package_dir={"qaplan": "python/qaplan"},
    package_data={"qaplan": ["*.pyi", "py.typed"]},
    ext_modules=[CMakeExtension("qaplan._core")],
    cmdclass={"build_ext": CMakeBuild, "bdist_wheel": bdist_wheel_command()},
    options={"build": {"build_base": str(BUILD_BASE)},
             "egg_info": {"egg_base": str(BUILD_BASE)}},
    zip_safe=False,
)
