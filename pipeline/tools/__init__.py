"""Tools the stages share: output folders and their locks, worker processes, progress."""
