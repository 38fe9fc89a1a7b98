#!/usr/bin/env python3
"""mig-layout-gone.py IN OUT [GI...]: the host model IN after a reboot
without its MIG layout: the GPU instances GI (capability names, default
gpu0/mig/gi1) and their CIs gone from capabilities (the driver's
mig_minors table keeps them), written to OUT."""
import re
import sys

s = open(sys.argv[1]).read()
i, j = s.index("capabilities:"), s.index("mig_minors:")
gone = "|".join(re.escape(g) for g in sys.argv[3:] or ["gpu0/mig/gi1"])
caps = re.sub(r"- name: (?:%s)(/ci[0-9])?\n  minor: [0-9]+\n" % gone, "", s[i:j])
open(sys.argv[2], "w").write(s[:i] + caps + s[j:])
