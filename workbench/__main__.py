"""``python -m workbench``: batch runs from the command line (see ``workbench.designer.cli``)."""

import sys

from workbench.designer.cli import main

if __name__ == "__main__":
    sys.exit(main())
