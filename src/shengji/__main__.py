"""`python -m shengji ...` runs the command line."""

from shengji.cli.main import main

raise SystemExit(main())
