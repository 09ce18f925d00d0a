#!/usr/bin/python3
"""Computes ref/<launch id>.ref for pressure.launch with PoCL, through
../reference.py (same generators, same format), with this directory as
its source, launch and reference directory. Run with Debian's python3:

    /usr/bin/python3 testdata/kernels/pressure/reference.py
"""
import importlib.util
import os
import sys

here = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("reference", os.path.join(here, "..", "reference.py"))
ref = importlib.util.module_from_spec(spec)
spec.loader.exec_module(ref)
ref.HERE, ref.LAUNCH_DIR, ref.REF_DIR = here, here, os.path.join(here, "ref")
ref.main()
