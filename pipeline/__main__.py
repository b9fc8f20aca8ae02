"""Command line: ``python -m pipeline generate|validate|build``. The only place that prints and exits."""

from __future__ import annotations

import argparse
import gc
import json
import sys
from contextlib import AbstractContextManager, nullcontext
from pathlib import Path
from typing import TYPE_CHECKING

from . import SAMPLE_DIR
from .contract.settings import Settings, SettingsError, help_text, parse_as_of
from .tools.folders import FolderBusy, exclusive, overlap, refusal
from .tools.progress import for_stream

if TYPE_CHECKING:  # the build (pandas, Frictionless, Pelican) is imported by the commands that run it
    from .validate import Report

MAX_SHOWN = 50  # problems printed on the console; all of them are in validacao.json
_CONTROL = dict.fromkeys([*range(0x00, 0x20), 0x7F], "\ufffd")


def clean(text: str) -> str:
    """Data is hostile: control characters (terminal escape sequences) are never printed raw, nor a CPF in
    any shape (LGPD: what the command prints is a report too)."""
    from .contract.identifiers import mask_cpf

    return mask_cpf(text.translate(_CONTROL))


def os_reason(exc: OSError) -> str:
    """An operating-system error in pt-BR (problems.os_reason), fit to print."""
    from .contract.problems import os_reason as reason

    return clean(reason(exc))


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f'"{text}" não é um número inteiro maior que zero')
    return value


def _print_report(report: Report, stream=None) -> None:
    stream = stream or sys.stderr  # looked up at each call: the process's stderr may have been replaced
    for problem in report.errors[:MAX_SHOWN]:
        print(f"ERRO  {clean(problem.mensagem)}", file=stream)
    if len(report.errors) > MAX_SHOWN:
        print(f"... e mais {len(report.errors) - MAX_SHOWN} erro(s)", file=stream)
    for problem in report.warnings[:MAX_SHOWN]:
        print(f"AVISO {clean(problem.mensagem)}", file=stream)
    for note in report.notes:
        print(f"nota: {note}", file=stream)


def locked(out: Path) -> AbstractContextManager:
    """The lock of an output folder the tool may replace; none for one it refuses (it says why, unwritten)."""
    return exclusive(out) if refusal("de saída (--out)", out) is None else nullcontext()


def cmd_generate(args) -> int:
    from .sample import generate

    try:
        with locked(Path(args.out)):
            counts = generate(args.scale, args.seed, Path(args.out))
    except OSError as exc:
        print(f"erro: não foi possível gravar em {clean(args.out)}: {os_reason(exc)}", file=sys.stderr)
        return 1
    for table, n in counts.items():
        print(f"{table}: {n} linhas")
    return 0


def cmd_ingest(args) -> int:
    from .adapters import ADAPTERS, REPORT_NAME, IngestError, SourceOptions, ingest

    options = SourceOptions(url=args.fonte_url or "", data=args.data_referencia or "", licenca=args.licenca or "")
    adapter, files = args.adapter, args.file
    if adapter is not None and adapter not in ADAPTERS and Path(adapter).exists():  # no adapter named: a file
        adapter, files = None, [adapter, *files]
    try:
        with locked(Path(args.out)):
            report = ingest(adapter, [Path(f) for f in files], Path(args.out), options=options)
    except IngestError as exc:
        print(f"erro: {clean(str(exc))}", file=sys.stderr)
        return 1
    except OSError as exc:
        print(f"erro: não foi possível gravar em {clean(args.out)}: {os_reason(exc)}", file=sys.stderr)
        return 1
    for item in report.rejeitadas_detalhe[:MAX_SHOWN]:
        where = f"{item['arquivo']} linha" if "arquivo" in item else "linha"  # several files: each names its own
        print(clean(f"REJEITADA {where} {item['linha']}: {item['motivo']}"), file=sys.stderr)
    if report.rejeitadas > MAX_SHOWN:
        print(f"... e mais {report.rejeitadas - MAX_SHOWN} rejeitada(s)", file=sys.stderr)
    for c in report.conflitos[:MAX_SHOWN]:
        print(
            clean(f"CONFLITO {c['chave']} {c['valor_chave']}: {c['campo']} \"{c['ignorado']}\" nas linhas "
                  f"{', '.join(map(str, c['linhas']))}; mantido \"{c['mantido']}\" (linha {c['mantido_linha']})"),
            file=sys.stderr,
        )
    print(f"fonte: {clean(report.fonte)} ({report.adaptador}, {report.codificacao})")
    when = report.data_da_fonte
    print(clean(f"data dos dados: {when.get('data') or 'não informada'} ({when.get('origem', '')})"))
    for count in ("lidas", "mantidas", "mescladas", "duplicadas", "rejeitadas"):
        print(f"{count}: {getattr(report, count)}")
    for table, n in report.tabelas.items():
        print(f"{table}.csv: {n} linhas")
    print(f"{report.lidas} lidas = {report.mantidas} mantidas + {report.mescladas} mescladas + "
          f"{report.duplicadas} duplicadas + {report.rejeitadas} rejeitadas; {report.principal}.csv: "
          f"{report.tabelas.get(report.principal)} linhas")
    print(f"sinalizadas: {len(report.sinalizadas)}")
    for s in report.sinalizadas:
        print(clean(f"  {s['tabela']} {s['cnpj']} {s['razao_social']}: {s['motivo']}"))
    print(f"conflitos: {len(report.conflitos)}")
    print(f"municípios sem código IBGE: {len(report.municipios_nao_resolvidos)}")
    for m in report.municipios_nao_resolvidos:
        print(f"  {clean(m['municipio'])}/{clean(m['uf'])}: {clean(m['motivo'])}")
    print(f"relatório: {clean(str(Path(args.out) / REPORT_NAME))}")
    return 0


def cmd_validate(args) -> int:
    from .build import check

    settings = Settings(data=tuple(args.data), lenient=False)
    if args.report:  # the report is not written into a package, nor over one
        reason = overlap([("--report", args.report), *(("a pasta de dados", folder) for folder in settings.data)],
                         read_only={"a pasta de dados"})
        if reason:
            raise SettingsError(reason)
    report = check(settings, progress=for_stream())
    _print_report(report)
    if args.report:
        try:
            Path(args.report).write_text(json.dumps(report.to_dict(), ensure_ascii=False, indent=2), encoding="utf-8")
        except OSError as exc:
            print(f"erro: não foi possível gravar o relatório em {clean(args.report)}: {os_reason(exc)}", file=sys.stderr)
            return 1
    total = sum(report.rows_read.values())
    if report.valid:
        print(f"válido: {total} linhas em {len(report.rows_read)} tabelas, {len(report.warnings)} aviso(s)")
        return 0
    print(f"inválido: {len(report.errors)} erro(s) em {total} linhas", file=sys.stderr)
    return 1


def cmd_build(args) -> int:
    from .build import BuildError, build

    overrides = {
        "data": tuple(args.data),
        "out": Path(args.out),
        "lenient": args.lenient,
        "allow_mixed_sources": args.permitir_ficticios_com_reais,
        "base_path": args.base_path,
        "site_url": args.site_url,
        "previous": args.anterior,
        "versions_url": args.versoes_url,
        "release_folder": Path(args.pasta_release) if args.pasta_release else None,
        "search_index": not args.no_search,
        "whoosh_dir": None if args.sem_whoosh else Path(args.index),
        "contact_email": args.contato_email,
        "update_frequency": args.frequencia,
    }
    if args.processos is not None:
        overrides["workers"] = args.processos
    if args.as_of is not None:  # an empty --as-of is an error, not "today"
        overrides["as_of"] = parse_as_of(args.as_of)
    settings = Settings(**overrides)
    try:
        result = build(settings, progress=for_stream())
    except OSError as exc:  # a full disk, a folder that cannot be read or written: the previous site was kept
        print(f"falhou: não foi possível ler ou gravar um arquivo ({os_reason(exc)}); o site anterior foi mantido",
              file=sys.stderr)
        return 1
    except BuildError as exc:
        if exc.report is not None:
            _print_report(exc.report)
        print(f"falhou: {exc}", file=sys.stderr)
        return 1
    _print_report(result.report)
    for table, c in result.report.accounting.items():
        if result.report.covered(table):
            published = result.derived.rows(table)
            assert published == c["mantidas"], f"{table}: {published} publicadas != {c['mantidas']} mantidas"
            print(f"{table}: {c['lidas']} lidas = {c['mantidas']} mantidas + {c['duplicadas']} duplicadas + "
                  f"{c['rejeitadas']} rejeitadas")
    for warning in result.warnings:  # published, but over a budget of its host (pipeline/publish/hosting.py)
        print(f"aviso: {warning}")
    rejected = len([p for p in result.report.errors if p.linha is not None])
    print(
        f"site gerado em {result.out}: {result.pages} páginas, data de referência {settings.as_of.isoformat()}"
        + (f"; {rejected} problema(s) em linhas rejeitadas publicados em dados/rejeitados.csv" if rejected else "")
    )
    return 0


SEARCH_HINT = ("Dica: confira a grafia (os acentos não importam), use menos palavras, termine com * o começo de uma "
               "palavra (ex.: caldas nov*) ou use um campo (ex.: municipio:goiania uf:GO, transportadora:gontijo); "
               "os campos estão em --help.")


def cmd_search(args) -> int:
    from .index.query import run_search
    from .index.whoosh import BadQuery, IndexMissing

    text = " ".join(args.query)
    try:
        total, hits, notes = run_search(Path(args.index), text, args.limit, args.table)
    except BadQuery as exc:
        print(f"consulta inválida: {clean(str(exc))}", file=sys.stderr)
        return 2
    except IndexMissing as exc:
        print(str(exc), file=sys.stderr)
        return 2
    for note in notes:
        print(clean(note), file=sys.stderr)
    if not hits:
        where = f" em {args.table}" if args.table else ""
        print(clean(f"Nenhum resultado para “{text}”{where}."), file=sys.stderr)
        if args.table:
            print("Dica: busque sem --table para ver os registros das outras tabelas.", file=sys.stderr)
        print(SEARCH_HINT, file=sys.stderr)
        return 1
    if args.json:  # one JSON object per line, for scripts
        for hit in hits:
            print(json.dumps(hit.as_dict(), ensure_ascii=False))
        return 0
    for hit in hits:
        print(clean(f"{hit.tipo:<15} {hit.chave:<28} {hit.titulo}  {hit.url}"))
    print(f"{total} resultado(s)" + (f", {len(hits)} mostrados" if total > len(hits) else ""))
    return 0


def cmd_nightly(args) -> int:
    import os

    from .nightly import NightlyError, Summary, load_config, run

    overrides = {"out": Path(args.out) if args.out else None, "state": Path(args.state) if args.state else None,
                 "as_of": parse_as_of(args.as_of) if args.as_of is not None else None, "base_path": args.base_path,
                 "site_url": args.site_url, "previous": args.anterior, "versions_url": args.versoes_url,
                 "contato": args.contato}
    try:
        config = load_config(Path(args.config), **overrides)
    except NightlyError as exc:
        print(f"erro: {clean(str(exc))}", file=sys.stderr)
        return 2
    # the summary is written after the site is swapped in: never into the published folder
    reason = overlap([("--resumo", args.resumo), ("--out", config.out)]) if args.resumo else None
    if reason:
        raise SettingsError(reason)
    summary, code = Summary(configured=len(config.sources)), 0
    try:
        summary = run(config, progress=for_stream())
    except (NightlyError, OSError) as exc:  # the summary of what the job did before it stopped
        summary = getattr(exc, "summary", summary)
        summary.failure, code = (str(exc) if isinstance(exc, NightlyError) else os_reason(exc)), 1
        print(f"falhou: {clean(summary.failure)}; nada foi publicado, o site anterior foi mantido", file=sys.stderr)
    text = summary.markdown(config.as_of)
    from .nightly import state_refusal

    target = Path(args.resumo) if args.resumo else config.state / "resumo.md"
    if args.resumo or not state_refusal(config.state):  # never into a --state that is not the job's
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if os.environ.get("GITHUB_STEP_SUMMARY"):
        with open(os.environ["GITHUB_STEP_SUMMARY"], "a", encoding="utf-8") as fh:
            fh.write(text)
    print(clean(text).replace("\ufffd", "\n"))
    if code == 0 and summary.stale:  # published, but with the last good copy of a source that failed tonight
        print(f"aviso: {len(summary.stale)} fonte(s) não atualizada(s) hoje: {', '.join(summary.stale)}", file=sys.stderr)
        return 3
    return code


class _AdapterNames(argparse.HelpFormatter):
    """Names the adapters when ``ingest --help`` is printed: importing them (pandas) is not paid by every command."""

    def _expand_help(self, action):
        text = super()._expand_help(action)
        if "{adaptadores}" in text:
            from .adapters import ADAPTERS

            text = text.replace("{adaptadores}", ", ".join(ADAPTERS))
        return text


def parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m pipeline", description=__doc__)
    sub = p.add_subparsers(dest="command", required=True)

    g = sub.add_parser("generate", help="gera um pacote de origem sintético, deterministicamente")
    g.add_argument("--scale", choices=["small", "national", "national-8-years"], default="small")
    g.add_argument("--seed", type=int, default=None, help="semente (padrão: a da amostra)")
    g.add_argument("--out", required=True, help="pasta de saída")
    g.set_defaults(func=cmd_generate)

    i = sub.add_parser(
        "ingest",
        help="converte uma exportação do regulador (Latin-1, ';', DD/MM/AAAA) em pacote de origem",
        description="Grava na pasta de saída as tabelas do contrato, datapackage.json e ingest-report.json.",
        formatter_class=_AdapterNames,
    )
    i.add_argument("adapter", nargs="?", default=None, metavar="ADAPTADOR",
                   help="formato da exportação: {adaptadores} (padrão: o adaptador cujo cabeçalho o "
                   "arquivo tem)")
    i.add_argument("file", nargs="+", metavar="ARQUIVO",
                   help="arquivo exportado pelo regulador; vários (os mensais do Monitriip) num só pacote, na ordem dada")
    i.add_argument("--out", required=True, help="pasta de saída do pacote de origem")
    i.add_argument("--fonte-url", help="endereço de onde a exportação foi baixada (padrão: o portal de dados abertos da ANTT)")
    i.add_argument("--data-referencia", help="data dos dados ou da extração, AAAA, AAAA-MM ou AAAA-MM-DD "
                   "(padrão: o ano no nome do arquivo, quando houver um só; com vários arquivos, o mês mais "
                   "recente MM_AAAA dos nomes)")
    i.add_argument("--licenca", help="licença da fonte (padrão: dados abertos governamentais, Decreto nº 8.777/2016)")
    i.set_defaults(func=cmd_ingest)

    v = sub.add_parser("validate", help="valida um pacote de origem")
    v.add_argument("data", nargs="+", help=help_text("data"))
    v.add_argument("--report", help="grava o relatório em JSON neste arquivo")
    v.set_defaults(func=cmd_validate)

    b = sub.add_parser("build", help="valida, calcula e gera o site")
    b.add_argument("--data", action="append", default=None, help=help_text("data"))
    b.add_argument("--out", default="output", help=help_text("out"))
    b.add_argument("--as-of", help=help_text("as_of"))
    b.add_argument("--lenient", action="store_true", help=help_text("lenient"))
    b.add_argument("--permitir-ficticios-com-reais", action="store_true", help=help_text("allow_mixed_sources"))
    b.add_argument("--base-path", default="", help=help_text("base_path"))
    b.add_argument("--site-url", default="", help=help_text("site_url"))
    b.add_argument("--anterior", default="", help=help_text("previous"))
    b.add_argument("--versoes-url", default="", help=help_text("versions_url"))
    b.add_argument("--pasta-release", default="", help=help_text("release_folder"))
    b.add_argument("--no-search", action="store_true", help="não gera o índice de busca (mais rápido)")
    b.add_argument("--index", default=str(Settings.__dataclass_fields__["whoosh_dir"].default), help=help_text("whoosh_dir"))
    b.add_argument("--sem-whoosh", action="store_true",
                   help="não grava o índice Whoosh da busca por linha de comando (a do navegador, o Pagefind, continua)")
    b.add_argument("--processos", type=positive_int, help=help_text("workers"))
    b.add_argument("--contato-email", default="", help=help_text("contact_email"))
    b.add_argument("--frequencia", default="IRREG", help=help_text("update_frequency"))
    b.set_defaults(func=cmd_build)

    n = sub.add_parser("nightly", help="baixa as fontes, ingere, valida, gera, verifica os links e publica",
                       description="O job noturno: uma fonte que falha mantém a sua última cópia boa (e o site diz "
                                   "desde quando); nada é publicado se o build ou a verificação de links falhar. "
                                   "Saída 0: publicado, todas as fontes atualizadas; 3: publicado com fonte(s) "
                                   "desatualizada(s); 1: nada publicado; 2: configuração inválida.")
    n.add_argument("--config", default="nightly.toml",
                   help="arquivo com as fontes ([[fonte]] nome, adaptador, pagina e arquivo ou url; ver o README)")
    n.add_argument("--out", help="pasta do site publicado (padrão: output)")
    n.add_argument("--state", help="pasta dos downloads, pacotes e do site candidato (padrão: .cache/nightly)")
    n.add_argument("--as-of", help=help_text("as_of"))
    n.add_argument("--base-path", default=None, help=help_text("base_path"))
    n.add_argument("--site-url", default=None, help=help_text("site_url"))
    n.add_argument("--anterior", default=None, help=help_text("previous") + " (padrão: o site em --out, se houver)")
    n.add_argument("--versoes-url", default=None, help=help_text("versions_url"))
    n.add_argument("--contato", default=None,
                   help="como o regulador pode falar com quem roda o job (um endereço), dito no User-Agent")
    n.add_argument("--resumo", help="arquivo do resumo (padrão: <state>/resumo.md)")
    n.set_defaults(func=cmd_nightly)

    from .contract.schema import load_schema
    from .index.whoosh import TABLES, fields_help

    s = sub.add_parser(
        "search", help="busca por campos nos registros (Whoosh), depois de um build",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Busca nos registros publicados: palavras soltas (sem acento ou com) e campos. Nomes (cidades, "
                    "transportadoras, títulos) valem como escritos: caiçara não acha Caicó, e uma palavra no "
                    "singular acha também o plural (transporte acha TRANSPORTES); textos descritivos (enquadramentos, "
                    "observações) valem pelo radical (passageiro acha passageiros). Um traço, barra ou vírgula "
                    "soltos só separam palavras: \"São Paulo - SP\", \"Goiânia – Brasília\", \"Goiânia/GO\"."
                    "\n\nCampos (e as colunas publicadas que guardam):\n" + fields_help(load_schema())
                    + "\n\nIntervalos: data:[2024-01-01 TO 2024-12-31], valor:[100 TO 500], valor:>500. "
                    "Operadores: AND, OR, NOT (para excluir: goiania NOT brasilia), parênteses, \"frase exata\", "
                    "prefixo*.",
        epilog="Primeiro vêm os registros que a consulta nomeia, pela mesma regra da busca do site: um "
               "identificador como digitado, a ligação entre duas cidades (\"sao paulo rio de janeiro\", \"de BH a "
               "Rio\", \"Goiânia - Brasília\"), a cidade (\"santa maria rs\", apelidos como BH e Sampa, erros de "
               "digitação: \"Você quis dizer...\" na saída de erros), os nomes; depois a busca por texto, os "
               "empates pela quantidade de linhas.\n\nSaída: 0 com resultados; 1 sem resultados (dito na saída "
               "de erros); 2 consulta inválida, uso errado (a mensagem dá um exemplo), ou sem índice de busca ou "
               "com ele danificado (a mensagem diz como gerá-lo).")
    s.add_argument("query", nargs="+", help="a consulta, ex.: transportadora:gontijo uf:GO")
    s.add_argument("--table", choices=sorted(TABLES), help="só os registros desta tabela publicada")
    s.add_argument("--json", action="store_true", help="um objeto JSON por linha (tipo, chave, titulo, url)")
    s.add_argument("--index", default=str(Settings.__dataclass_fields__["whoosh_dir"].default), help=help_text("whoosh_dir"))
    s.add_argument("--limit", type=positive_int, default=20, help="quantos resultados mostrar (1 ou mais)")
    s.set_defaults(func=cmd_search)
    return p


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if getattr(args, "data", None) is None and args.command == "build":
        args.data = [str(SAMPLE_DIR)]
    if args.command == "generate" and args.seed is None:
        from .sample import DEFAULT_SEED

        args.seed = DEFAULT_SEED
    try:
        return args.func(args)
    except SettingsError as exc:
        print(f"erro de configuração: {clean(str(exc))}", file=sys.stderr)
        return 2
    except OSError as exc:  # a folder that cannot be read, a file that vanished: a message, never a traceback
        print(f"erro: {os_reason(exc)}", file=sys.stderr)
        return 1
    except FolderBusy as exc:  # another run writes the same folder: nothing was written
        print(f"erro: {clean(str(exc))}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    code = main()
    # The process ends here: Python's last collection at exit would walk every object the run made (the build
    # hands them back to the collector when it ends) to free memory the exit frees anyway.
    gc.freeze()
    sys.exit(code)
