"""The release, once every download is written: the version it is (its name, the files kept under it,
``SHA256SUMS``, ``versoes.json``: :mod:`.versions`), what changed since the previous one (:mod:`.changes`)
and the catalogues that describe it to harvesters (DCAT-AP, Project Open Data, schema.org:
:mod:`.catalog`). It reads what publish wrote and writes beside it; the pages come after it."""
