import sys

from tclint.analyzer.cli import main

sys.exit(main())
