"""enquadramentos: every alínea of art. 78, built from the decree's text."""

from collections import Counter

from pipeline import DECREE_PATH
from pipeline.legal.decree import load_decree
from pipeline.legal.enquadramentos import rows


def test_counts_per_group_match_the_decree():
    # Counted in the decree's art. 78: Grupo I a-c, II a-f, III a-f, IV a-i, V a-f, VI a-n without k.
    assert Counter(r["grupo"] for r in rows()) == {"I": 3, "II": 6, "III": 6, "IV": 9, "V": 6, "VI": 13}
    # The same counts from the decree parser, an independent reading of the text.
    groups = load_decree().article(78).caput.children
    assert [len(g.children) for g in groups] == [3, 6, 6, 9, 6, 13]


def test_codes_and_exact_texts():
    by_code = {r["codigo"]: r for r in rows()}
    assert "78-VI-k" not in by_code and "78-VI-l" in by_code
    assert by_code["78-I-a"]["descricao"] == "descumprimento das obrigações previstas nos arts. 60 a 64 deste Decreto;"
    assert by_code["78-VI-a"]["descricao"] == "execução dos serviços de que trata este Decreto sem prévia outorga;"
    assert by_code["78-IV-b"]["grupo"] == "IV"
    for r in rows():
        assert r["descricao"] in DECREE_PATH.read_text(encoding="utf-8")
