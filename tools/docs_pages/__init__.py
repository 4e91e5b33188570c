"""Pages of the documentation site that tools/gen_docs.py writes, kept apart so gen_docs.py stays readable."""
