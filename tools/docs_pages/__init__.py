"""Pages of the documentation site that tools/gen_docs.py writes, one module a kind of page.

Pages: ``rulebook`` (a page a variant, and their index), ``compare``, ``disputes``, ``examples``, ``tutorial``
(Settle a dispute), ``scenario_format``, ``protocol``, ``hooks``, ``implementations`` and ``nav`` (mkdocs.yml).
What they share: ``model`` (the Site every page is made from), ``drawings`` (a scenario drawn), ``cards``,
``markup``, ``spec_text``, ``paths`` and ``reports``.
"""
