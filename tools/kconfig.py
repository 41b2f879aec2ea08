#!/usr/bin/env python3
"""Configuration front end: wraps kconfiglib for the Makefile.

usage: kconfig.py defconfig|olddefconfig|menuconfig|genconfig BUILD_DIR

The configuration lives in BUILD_DIR/.config; genconfig writes
BUILD_DIR/include/generated/autoconf.h. ARCH must be in the environment.
"""
import os
import sys

try:
    import kconfiglib
except ImportError:
    sys.exit("kconfig: python3-kconfiglib is missing (run tools/setup)")


def load(build):
    os.environ["KCONFIG_CONFIG"] = os.path.join(build, ".config")
    return kconfiglib.Kconfig("Kconfig", warn_to_stderr=True)


def write_header(kconf, build):
    path = os.path.join(build, "include", "generated", "autoconf.h")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    kconf.write_autoconf(path)


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    action, build = sys.argv[1], sys.argv[2]
    os.makedirs(build, exist_ok=True)
    config = os.path.join(build, ".config")
    arch = os.environ.get("ARCH", "")
    kconf = load(build)

    if action == "defconfig":
        defconfig = os.path.join("arch", arch, "defconfig")
        if os.path.exists(defconfig):
            print(kconf.load_config(defconfig))
        print(kconf.write_config(config))
    elif action == "olddefconfig":
        print(kconf.load_config(config) if os.path.exists(config) else
              "kconfig: no .config yet, using defaults")
        print(kconf.write_config(config))
    elif action == "menuconfig":
        import menuconfig
        menuconfig.menuconfig(kconf)
    elif action == "genconfig":
        kconf.load_config(config)
        write_header(kconf, build)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
