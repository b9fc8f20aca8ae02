"""What a search query may be, for the browser's search boxes (their ``maxlength``, and busca.js cuts a
longer ``?q=``) and for the command line (pipeline/index/whoosh.py refuses a longer one). Parsing a
100,000-character query took Whoosh 81 s."""

MAX_QUERY = 200  # characters
QUERY_SECONDS = 10.0  # the longest a command-line search may run before it answers that it took too long
