#!/usr/bin/env python3
"""mig-layout-gone.py IN OUT: the host model IN after a reboot without its
MIG layout: GPU 0's gi1 and its CIs gone from capabilities (the driver's
mig_minors table keeps them), written to OUT."""
import re
import sys

s = open(sys.argv[1]).read()
i, j = s.index("capabilities:"), s.index("mig_minors:")
caps = re.sub(r"- name: gpu0/mig/gi1(/ci[0-9])?\n  minor: [0-9]+\n", "", s[i:j])
open(sys.argv[2], "w").write(s[:i] + caps + s[j:])
