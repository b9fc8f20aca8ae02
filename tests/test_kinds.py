"""A kind of record is declared once (pipeline/contract/kinds.py): its records in SiteData, its pages and index,
its place in the menu, its search documents and its identifier lookup all follow from the declaration. A
synthetic kind, declared here with one template and nothing else, is rendered by the portal's own render stage."""

from __future__ import annotations

import dataclasses
import shutil
from datetime import date

import pytest
from conftest import PROJECT_ROOT, page_text

from pipeline.contract import kinds
from pipeline.contract.kinds import RECORD_KINDS, RecordKind
from pipeline.contract.settings import Settings
from pipeline.site import urls

AS_OF = date(2026, 6, 30)

# the infraction notices, given pages of their own: a kind the portal does not have
SYNTHETIC = RecordKind("auto_teste", "infracoes", "numero_auto", "autos-teste/{slug}/", "autos-teste",
                       "Autos (teste)", order=("numero_auto",), lookup_label="Auto {numero_auto}",
                       lookup_type="Auto (teste)")
TEMPLATE = """{% extends "base.html" %}
{% block title %}Auto {{ auto_teste.numero_auto }} — {{ SITENAME }}{% endblock %}
{% block content %}<h1>Auto de infração {{ auto_teste.numero_auto }}</h1>
<p>Enquadramento {{ auto_teste.enquadramento }}.</p>{% endblock %}
"""


def test_the_menu_lists_every_declared_kind_by_its_index_then_the_other_pages(monkeypatch):
    labels = [label for _, label in urls.menu()]
    assert labels[:len(RECORD_KINDS)] == [k.menu for k in RECORD_KINDS]
    assert labels[0] == "Cidades" and labels[-1] == "Busca"
    monkeypatch.setattr(kinds, "RECORD_KINDS", RECORD_KINDS + (SYNTHETIC,))
    assert urls.menu()[len(RECORD_KINDS)] == ("/autos-teste/", "Autos (teste)")


@pytest.mark.slow
def test_a_synthetic_kind_is_rendered_from_its_declaration_and_one_template(tmp_path, monkeypatch, schema):
    from pipeline.build import check, render
    from pipeline.derive import derive
    from pipeline.index.whoosh import kind_documents
    from pipeline.publish import publish
    from pipeline.site.context import SiteData
    from pipeline.site.identifiers import shards

    settings = Settings(data=(PROJECT_ROOT / "datasets",), as_of=AS_OF)
    report = check(settings, schema)
    derived = derive(report.accepted, schema, AS_OF, coverage=report.coverage, file_sources=report.file_sources)
    published = publish(derived, report, schema, tmp_path / "dados")
    data = SiteData.build(derived, schema, report, published.descriptor, published.lines)
    notices = derived.tables["infracoes"]
    records = sorted(({"numero_auto": n, "enquadramento": e, "slug": n.lower(), "url": f"/autos-teste/{n.lower()}/"}
                      for n, e in zip(notices["numero_auto"], notices["enquadramento"])),
                     key=lambda r: r["numero_auto"])
    assert len(records) > 200  # more than one index page
    data = dataclasses.replace(data, records={**data.records, SYNTHETIC.name: records})

    # the theme with one template more, and the one declaration more
    theme = tmp_path / "theme"
    shutil.copytree(PROJECT_ROOT / "theme", theme)
    (theme / "templates" / f"{SYNTHETIC.name}.html").write_text(TEMPLATE, encoding="utf-8")
    conf = tmp_path / "pelican.conf.py"
    conf.write_text((PROJECT_ROOT / "pelican.conf.py").read_text(encoding="utf-8").replace(
        '_HERE = Path(__file__).resolve().parent', f'_HERE = Path({str(PROJECT_ROOT)!r})').replace(
        'THEME = str(_HERE / "theme")', f'THEME = {str(theme)!r}'), encoding="utf-8")
    monkeypatch.setattr(kinds, "RECORD_KINDS", RECORD_KINDS + (SYNTHETIC,))
    out = tmp_path / "site"
    rendered = render(data, dataclasses.replace(settings, pelican_conf=conf), out)

    first = records[0]
    page = page_text(out / "autos-teste" / first["slug"] / "index.html")
    assert f"Auto de infração {first['numero_auto']}" in page and f"Enquadramento {first['enquadramento']}" in page
    assert "Autos (teste)" in page  # in the menu of its own page, and of every other
    assert "Autos (teste)" in page_text(out / "index.html")
    index = (out / "autos-teste" / "index.html").read_text(encoding="utf-8")
    assert f'href="{first["url"]}"' in index and f"Auto {first['numero_auto']}" in index
    second_page = (out / "autos-teste" / "pagina" / "2" / "index.html").read_text(encoding="utf-8")
    assert f'href="{records[200]["url"]}"' in second_page and f'href="{first["url"]}"' not in second_page
    written = {p.parent.name for p in (out / "autos-teste").glob("*/index.html")}
    assert {r["slug"] for r in records} <= written
    assert (out / "autos-teste" / first["slug"] / "index.json").is_file()  # its facts for machines, as any kind's
    assert rendered.pages >= len(records) + 2

    documents = list(kind_documents(SYNTHETIC, records))
    assert documents[0] == {"tipo": SYNTHETIC.name, "chave": first["numero_auto"], "url": first["url"],
                            "titulo": f"Auto {first['numero_auto']}"}
    looked_up = {k: v for shard in shards(data).values() for k, v in shard.items()}
    assert [first["url"], f"Auto {first['numero_auto']}", "Auto (teste)"] in looked_up.values()
