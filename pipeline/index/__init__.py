"""Index stage: Pagefind's browser index of the pages and the Whoosh index of the command-line search."""
