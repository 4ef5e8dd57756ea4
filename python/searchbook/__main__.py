"""`python -m searchbook ...`: how the kernelspec starts the kernel (Jupyter fills in its Python)."""
from searchbook.launcher import main

raise SystemExit(main())
