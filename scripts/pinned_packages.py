"""Runs a fixture script inside a virtual environment that holds pinned PyPI packages.

The fixture scripts need packages `make test` never needs (the vendors' SDKs, spotify-confidence,
statsmodels): each calls `rerun_with` first, which installs the pinned versions into a virtual
environment under .build/ and runs the same script there, with the same arguments.
"""
import os
import subprocess
import sys
import venv


def rerun_with(packages, env, marker, script, system_site_packages=False):
    """Returns at once inside the environment (`marker` set to 1); otherwise installs `packages` into
    `env`, runs `script` there and exits with its status."""
    if os.environ.get(marker) == "1":
        return
    python = env / "bin" / "python"
    if not python.exists():
        venv.create(env, with_pip=True, system_site_packages=system_site_packages)
    subprocess.run([str(python), "-m", "pip", "install", "-q", *packages], check=True)
    environment = dict(os.environ, **{marker: "1"})
    sys.exit(subprocess.run([str(python), str(script), *sys.argv[1:]], env=environment).returncode)
