"""The documentation `--help` points to, shipped inside the package (read it with `ttlayout help bank-model`)."""
