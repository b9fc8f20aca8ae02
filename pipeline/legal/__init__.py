"""The decree's rules, one small function each, citing its article.

``dates`` holds all the date arithmetic (art. 96; Código Civil art. 132 § 3; business days);
one module per table holds that table's derived fields. :mod:`pipeline.derive.findings` applies the
rules across tables.
"""

from datetime import date

# Decreto nº 952 was signed on 7 October 1993 and, by art. 100, took effect on its publication in the
# Diário Oficial da União of 8 October 1993. (The Planalto text's closing line reads "D.O.U. de
# 5.4.1993", a date before the signature, so it cannot be the publication: it is a slip of that copy.)
DECREE_PUBLICATION = date(1993, 10, 8)
