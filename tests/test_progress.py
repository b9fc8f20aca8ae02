"""Progress output: a bar with counts on a terminal, one line per stage elsewhere."""

import io

from pipeline.tools.progress import BarProgress, LineProgress, for_stream


class Terminal(io.StringIO):
    def isatty(self):
        return True


def test_terminal_gets_a_bar_with_counts():
    stream = Terminal()
    progress = for_stream(stream)
    assert isinstance(progress, BarProgress)
    with progress.stage("publicação"):
        progress.advance(3, 12)
    out = stream.getvalue()
    assert "[publicação] [#######-----------------------] 3/12" in out
    assert out.rstrip().endswith("s") and "[publicação] " in out.splitlines()[-1]


def test_ci_gets_one_line_per_stage():
    stream = io.StringIO()
    progress = for_stream(stream)
    assert type(progress) is LineProgress
    with progress.stage("leitura"):
        progress.advance(1, 2)  # no bar in logs
    with progress.stage("validação"):
        pass
    lines = stream.getvalue().splitlines()
    assert [line.split("]")[0] for line in lines] == ["[leitura", "[validação"]
    assert set(progress.timings()) == {"leitura", "validação"}
