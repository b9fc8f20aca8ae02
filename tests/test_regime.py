"""Which regime the records belong to is said per table and source, never assumed (pipeline/read/provenance.py
``regime_sentence``): the decree's for the records its regime made (revoked, and never called the law in
force), the one that replaced it for ANTT's exports and the tables that exist only under it, nothing for a
source that does not say. Worked examples first, then the sentences of real and fictional builds."""

from __future__ import annotations

import json

import pytest
from bs4 import BeautifulSoup
from conftest import page_text

from pipeline.read.provenance import DECREE_REGIME, LATER_REGIME, REVOKED, regime_phrase, regime_sentence

LABELS = {"linhas": "linhas", "horarios": "horários", "outorgas": "outorgas", "bilhetes": "bilhetes vendidos"}
DECREE_CLAIMS = ("conforme o Decreto", "seguem o regime", "regime do Decreto nº 952/1993 (revogado em 1998)")


def test_one_regime_for_every_table_is_said_of_the_records_without_naming_them():
    later = regime_sentence({"linhas": {LATER_REGIME}, "horarios": {LATER_REGIME}}, LABELS)
    assert later == ("Os registros são do regime que substituiu o Decreto nº 952/1993 (revogado pelo Decreto nº "
                     "2.521/1998): nenhuma regra do decreto se aplica a eles.")
    decree = regime_sentence({"linhas": {DECREE_REGIME}, "outorgas": {DECREE_REGIME}}, LABELS)
    assert decree.startswith("Os registros seguem o regime descrito pelo Decreto nº 952/1993, revogado pelo Decreto "
                             "nº 2.521/1998") and "não apresenta o decreto como lei em vigor" in decree
    assert regime_phrase({"linhas": {LATER_REGIME}}) == "registros do regime que substituiu o Decreto nº 952/1993"


def test_both_regimes_name_their_tables_and_an_unknown_one_is_not_claimed():
    both = regime_sentence({"outorgas": {DECREE_REGIME}, "bilhetes": {LATER_REGIME}, "linhas": set()}, LABELS)
    assert both == ("Os registros de outorgas seguem o regime descrito pelo Decreto nº 952/1993, revogado pelo "
                    "Decreto nº 2.521/1998, e o portal não apresenta o decreto como lei em vigor; os de bilhetes "
                    "vendidos são do regime que o substituiu, ao qual nenhuma regra do decreto se aplica.")
    partial = regime_sentence({"bilhetes": {LATER_REGIME}, "linhas": set()}, LABELS)
    assert partial.startswith("Os registros de bilhetes vendidos são do regime que substituiu")  # not "linhas"
    assert regime_sentence({"linhas": set()}, LABELS) == "" and regime_phrase({"linhas": set()}) == ""
    assert "revogado pelo Decreto nº 2.521/1998" in REVOKED and "lei em vigor" in REVOKED


@pytest.mark.slow
def test_the_real_export_is_said_to_be_of_the_regime_that_replaced_the_decree(real_only_site):
    home = BeautifulSoup((real_only_site / "index.html").read_text(encoding="utf-8"), "html.parser")
    said = [home.find("meta", attrs={"name": "description"})["content"], " ".join(home.select_one("p.lead").get_text(" ").split()),
            page_text(real_only_site / "dados" / "index.html")]
    said += [" ".join(BeautifulSoup(p.read_text(encoding="utf-8"), "html.parser").find("footer").get_text(" ").split())
             for p in [real_only_site / "index.html", real_only_site / "linhas" / "12-0140-00" / "index.html",
                       real_only_site / "sobre" / "index.html", real_only_site / "decreto" / "index.html"]]
    for text in said:
        assert not any(claim in text for claim in DECREE_CLAIMS), text
        assert "regime que substituiu o Decreto nº 952/1993" in text, text
    package = json.loads((real_only_site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    assert package["sources"][0]["x-regime"] == LATER_REGIME
    catalogue = json.loads((real_only_site / "data.json").read_text(encoding="utf-8"))
    for dataset in catalogue["dataset"]:
        assert not any(claim in dataset["description"] for claim in DECREE_CLAIMS), dataset["title"]


def test_the_sample_says_which_of_its_tables_are_of_each_regime(sample_site):
    footer = " ".join(BeautifulSoup((sample_site / "index.html").read_text(encoding="utf-8"), "html.parser")
                      .find("footer").get_text(" ").split())
    decree, later = footer.split(" seguem o regime descrito pelo Decreto nº 952/1993")
    assert "outorgas" in decree and "tarifas máximas" in decree and "bilhetes" not in decree
    assert "os de habilitações" in later and "bilhetes vendidos são do regime que o substituiu" in later
    package = json.loads((sample_site / "dados" / "datapackage.json").read_text(encoding="utf-8"))
    regimes = {r["name"]: r.get("x-regime") for r in package["resources"]}
    assert regimes["outorgas"] == DECREE_REGIME and regimes["bilhetes"] == LATER_REGIME and regimes["linhas"] is None
    assert package["sources"][0]["x-regime"] == DECREE_REGIME  # its lines and timetables: the decree's regime
