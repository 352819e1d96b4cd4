#!/usr/bin/python3
"""`pip install` of integrations/python works offline: into a fresh venv that sees Debian's
python3-torch, with setuptools from the system (--no-build-isolation), no index, no
dependencies fetched. The installed package then imports from outside the source tree.

    test_install.py WORK_DIR
"""
import os
import shutil
import subprocess
import sys

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "integrations", "python")
work = os.path.abspath(sys.argv[1])
shutil.rmtree(work, ignore_errors=True)
os.makedirs(work)
# A copy, so that the build's egg-info and build/ folders stay out of the checkout.
source = os.path.join(work, "src")
shutil.copytree(SOURCE, source, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
venv = os.path.join(work, "venv")
subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], check=True, timeout=120)
python = os.path.join(venv, "bin", "python")
env = dict(os.environ, PIP_NO_INDEX="1", PIP_DISABLE_PIP_VERSION_CHECK="1", PYTHONNOUSERSITE="1")
env.pop("PYTHONPATH", None)
subprocess.run([python, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index", source],
               check=True, timeout=300, env=env)
probe = """
import noisescope, torch
from noisescope import OnlineSampler, ScheduleSampler
sigma, weight = OnlineSampler().sample(16, generator=torch.Generator().manual_seed(0))
assert sigma.shape == (16,) and bool((weight > 0).all())
print(noisescope.__file__)
"""
out = subprocess.run([python, "-c", probe], check=True, timeout=120, env=env, cwd=work,
                     capture_output=True, text=True).stdout.strip()
installed = os.path.realpath(out)
if not installed.startswith(os.path.realpath(venv)):
    sys.exit(f"FAIL: noisescope imported from {installed}, not from the venv")
print("installed offline into", venv, "->", installed)
