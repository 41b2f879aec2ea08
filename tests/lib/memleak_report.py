"""What the leak collector and the leak scenarios print, as the boot
tests read it: one pattern per line kind, shared so that a change of
format is made in one place.
"""
import re

# 'memleak': one per reported block: (address, size)
REPORT = re.compile(r"^unreferenced object (0x[0-9a-f]{8}) \(size (\d+)\):$", re.M)
# 'leaktest SCENARIO': a block the scenario leaks: (address, size)
EXPECT = re.compile(r"^leaktest: expect unreferenced object (0x[0-9a-f]{8}) "
                    r"\(size (\d+)\)$", re.M)
# 'memleak': the closing line: (new, total)
SUMMARY = re.compile(r"^memleak: (\d+) new suspected memory leaks \((\d+) total\)$", re.M)
