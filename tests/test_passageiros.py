"""Worked examples of the passenger rules (pipeline/legal/passageiros.py) and the /direitos/ page that
shows them: summaries beside the articles, calculators and the poster of art. 34."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal

import pytest
from conftest import page_text

from pipeline.legal import passageiros as p


def test_art_65_excess_baggage_worked_examples():
    # 38 kg in the hold, 5 kg on board, fare R$ 100,00: 8 kg over x 0.5 % x 100 = R$ 4,00
    assert p.excess_baggage("100.00", 38, 5) == {"excesso_kg": Decimal("8.0"), "maximo": Decimal("4.00"),
                                                 "por_kg": Decimal("0.50")}
    # both franchises exceeded: 2.5 kg + 1 kg over, fare R$ 137,90 -> 3.5 x 0.6895 = 2.41325 -> R$ 2,41
    assert p.excess_baggage("137.90", 32.5, 6)["maximo"] == Decimal("2.41")
    assert p.excess_baggage("80", 30, 5)["maximo"] == Decimal("0.00")  # exactly the franchise
    with pytest.raises(p.InvalidInput, match="maior que zero"):
        p.excess_baggage("0", 31, 0)
    with pytest.raises(p.InvalidInput, match="negativo"):
        p.excess_baggage("10", -1, 0)


def test_art_64_six_hours_before_departure():
    departure = datetime(2026, 12, 24, 22, 0)
    assert p.refund_deadline(departure) == datetime(2026, 12, 24, 16, 0)
    assert p.may_refund(departure, datetime(2026, 12, 24, 16, 0)) is True
    assert p.may_refund(departure, datetime(2026, 12, 24, 16, 1)) is False
    with pytest.raises(p.InvalidInput, match="posterior à partida"):
        p.may_refund(departure, datetime(2026, 12, 24, 22, 1))


def test_art_32_xvii_children_up_to_five_without_a_seat():
    assert p.child_travels_free(5, own_seat=False) is True
    assert p.child_travels_free(5, own_seat=True) is False
    assert p.child_travels_free(6, own_seat=False) is False
    with pytest.raises(p.InvalidInput):
        p.child_travels_free(-1, own_seat=False)


def test_rights_page_has_a_summary_beside_each_article_and_the_calculators(site):
    text = page_text(site / "direitos" / "index.html")
    for n in (32, 33, 35, 37, 65, 66, 67, 68, 69):
        assert p.SUMMARIES[n][:40] in text, n
    assert "Decreto revogado." in text
    assert "Franquia: 30 kg no bagageiro e 5 kg no porta-embrulhos." in text
    assert "no máximo 0,5% do preço da passagem convencional" in text


def test_poster_has_its_own_urls_per_paper_size(site):
    a4 = (site / "direitos" / "cartaz" / "index.html").read_text(encoding="utf-8")
    a3 = (site / "direitos" / "cartaz" / "a3" / "index.html").read_text(encoding="utf-8")
    assert "@page { size: A4 portrait" in a4 and "@page { size: A3 portrait" in a3
    text = page_text(site / "direitos" / "cartaz" / "index.html")
    assert "Art. 69" in text and "Decreto revogado." in text


def test_verification_code_is_recomputed_from_the_published_csv_with_common_tools(site):
    import hashlib
    import re
    import shutil
    import subprocess

    page = (site / "outorgas" / "out-1" / "index.html").read_text(encoding="utf-8")
    shown = re.search(r'class="codigo">([0-9A-F-]+)<', page)[1]
    lines = (site / "dados" / "outorgas.csv").read_bytes().decode("utf-8").split("\r\n")
    line = next(x for x in lines if x.startswith("OUT-1,"))
    digits = hashlib.sha256(line.encode("utf-8")).hexdigest()[:12].upper()  # what /verificar/ tells a reader
    assert shown == f"{digits[:4]}-{digits[4:8]}-{digits[8:]}"
    if shutil.which("sha256sum") and shutil.which("grep"):  # the recipe /verificar/ gives, as a shell runs it
        out = subprocess.run(["bash", "-c", "grep '^OUT-1,' outorgas.csv | tr -d '\\r\\n' | sha256sum | cut -c1-12"],
                             cwd=site / "dados", capture_output=True, text=True, check=True).stdout.strip()
        assert out.upper() == shown.replace("-", "")
    shard = (site / "verificar" / f"{shown[:2].lower()}.json").read_text(encoding="utf-8")
    assert f'"{shown.replace("-", "").lower()}":"/outorgas/out-1/"' in shard
