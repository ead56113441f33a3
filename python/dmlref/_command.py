"""The `dmlref` console script: runs the command built with the package (dmlref/_bin/dmlref)."""
import os
import sys


def path():
    """The bundled command's path."""
    return os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bin", "dmlref")


def main():
    exe = path()
    if not os.access(exe, os.X_OK):
        sys.exit(f"dmlref: {exe} is missing: the package was installed without its command")
    os.execv(exe, [exe] + sys.argv[1:])


if __name__ == "__main__":
    main()
