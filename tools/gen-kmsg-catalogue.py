#!/usr/bin/env python3
# Write docs/kmsg-catalogue.md from the table in src/doctor/catalogue.c, as
# the built test-doctor prints it (test-doctor checks the page is that text).
# Usage: tools/gen-kmsg-catalogue.py [BUILD_DIR]   (default: build)
import os, subprocess, sys
root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
build = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, 'build')
exe = os.path.join(build, 'tests', 'test-doctor')
if not os.path.exists(exe):
    raise SystemExit('gen-kmsg-catalogue: %s not built (ninja -C %s tests/test-doctor)' % (exe, build))
doc = subprocess.run([exe, '--print-doc'], check=True, capture_output=True, text=True).stdout
with open(os.path.join(root, 'docs', 'kmsg-catalogue.md'), 'w') as f:
    f.write(doc)
