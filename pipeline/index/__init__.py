"""Index stage: Pagefind's browser index of the pages and the Whoosh index of the command-line search."""

# The longest search query read, in characters: the browser's search boxes (``maxlength``, and busca.js
# cuts a longer ``?q=``) and the command line (a longer query is refused). Parsing a 100,000-character
# query took Whoosh 81 s.
MAX_QUERY = 200
# The longest a command-line search may run, in seconds, before it answers with what it found.
QUERY_SECONDS = 10.0
