"""The templates compiled once per process: Jinja's bytecode of each template, kept in memory and checked
against the template's source (Jinja recompiles a template whose source changed). Pelican makes a new
Jinja environment for every build; a process that builds more than once (the test suite, a nightly that
builds again) no longer compiles the theme each time."""

from __future__ import annotations

from jinja2.bccache import Bucket, BytecodeCache


class InMemory(BytecodeCache):
    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: Bucket) -> None:
        code = self._code.get(bucket.key)
        if code is not None:
            bucket.bytecode_from_string(code)  # reset by Jinja when the source's checksum differs

    def dump_bytecode(self, bucket: Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


TEMPLATES = InMemory()
