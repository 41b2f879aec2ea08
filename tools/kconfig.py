#!/usr/bin/env python3
"""Configuration front end: wraps kconfiglib for the Makefile.

usage: kconfig.py defconfig BUILD_DIR [FRAGMENT...]
       kconfig.py olddefconfig|menuconfig|genconfig BUILD_DIR

The configuration lives in BUILD_DIR/.config; genconfig writes
BUILD_DIR/include/generated/autoconf.h. ARCH must be in the environment.
defconfig starts from configs/ARCH_defconfig and merges each FRAGMENT
(configs/test.config) over it; it fails on any warning about those
files: an unknown symbol, a bad value, or a value that did not take
(an option whose dependencies are off).
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


def value_str(sym, value):
    if sym.orig_type in (kconfiglib.BOOL, kconfiglib.TRISTATE):
        return kconfiglib.TRI_TO_STR[value]
    return value


def load_configs(kconf, files):
    """Loads files in order, each later one over the others; returns the
    number of warnings they caused."""
    kconf.warn_assign_undef = True
    before = len(kconf.warnings)
    for i, name in enumerate(files):
        if not os.path.exists(name):
            sys.exit("kconfig: %s does not exist" % name)
        # A fragment is there to override: only its own repeats warn.
        kconf.warn_assign_override = kconf.warn_assign_redun = i == 0
        print(kconf.load_config(name, replace=i == 0))
    for sym in kconf.unique_defined_syms:
        if sym.user_value is None:
            continue
        want = value_str(sym, sym.user_value)
        if want != sym.str_value:
            kconf._warn("%s=%s in %s did not take: it is %s (dependencies?)"
                        % (sym.name, want, " + ".join(files),
                           sym.str_value or "n"))
    return len(kconf.warnings) - before


def write_header(kconf, build):
    path = os.path.join(build, "include", "generated", "autoconf.h")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    kconf.write_autoconf(path)


def main():
    if len(sys.argv) < 3 or (len(sys.argv) > 3 and sys.argv[1] != "defconfig"):
        sys.exit(__doc__)
    action, build = sys.argv[1], sys.argv[2]
    os.makedirs(build, exist_ok=True)
    config = os.path.join(build, ".config")
    arch = os.environ.get("ARCH", "")
    kconf = load(build)

    if action == "defconfig":
        files = [os.path.join("configs", arch + "_defconfig")] + sys.argv[3:]
        if load_configs(kconf, files):
            sys.exit("kconfig: fix the warnings above about %s"
                     % " + ".join(files))
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
