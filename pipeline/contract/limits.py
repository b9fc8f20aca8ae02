"""What a search query may be, for the browser's search boxes (their ``maxlength``; busca.js cuts a longer
``?q=``) and for the command line (pipeline/index/whoosh.py refuses a longer one, and stops a search that
runs too long): Whoosh takes far too long to parse a very long query. Imports nothing: the pages and the
command line's first import read it."""

MAX_QUERY = 200  # characters
QUERY_SECONDS = 10.0  # the longest a command-line search may run before it answers that it took too long
