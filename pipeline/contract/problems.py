"""Input problems as data: a rule slug, a pt-BR message template and where it happened.

Frictionless errors and the portal's own checks both become :class:`Problem`; the report decides the
exit code and only the CLI prints. Every message names the file, the row, the column, the value and
the rule broken.
"""

from __future__ import annotations

import errno
import json
from dataclasses import asdict, dataclass, field

from .identifiers import mask_cpf


def os_reason(exc: OSError) -> str:
    """An operating-system error in pt-BR, naming the file when the error does."""
    reasons = {errno.ENOSPC: "disco cheio", errno.EACCES: "permissão negada", errno.ENOENT: "pasta inexistente",
               errno.EROFS: "sistema de arquivos somente leitura", errno.ENAMETOOLONG: "nome longo demais",
               errno.EDQUOT: "cota de disco esgotada",
               errno.EFBIG: "arquivo maior que o limite de tamanho deste processo (ulimit -f)"}
    reason = reasons.get(exc.errno, exc.strerror or type(exc).__name__)
    return f"{reason}: {exc.filename}" if exc.filename else reason


QUOTED = 40  # characters of an outside system's text (a header, an address) a message quotes, at most


def shown(text: str, limit: int = QUOTED) -> str:
    """Another system's text (a server's header or redirect, a file's first line) as a message may quote it:
    in quotes, at most ``limit`` characters, nothing but printable ASCII and no sign HTML or Markdown would
    read (``<``, ``>``, ``&``, quotes, backquotes, brackets, pipes): messages reach the nightly job's
    published summary, and what comes from outside is hostile (it may be a page of another host, a secret)."""
    kept = "".join(c if c.isascii() and c.isprintable() and c not in "<>&\"'`[]()|\\*_" else "?"
                   for c in mask_cpf(str(text)))
    return f'"{kept[:limit]}{"…" if len(kept) > limit else ""}"'

# slug -> message template (pt-BR). Placeholders: {valor} and the keyword arguments of Problem.of.
RULES: dict[str, str] = {
    # structure (read stage)
    "codificacao": "o arquivo não está em UTF-8 ({detalhe})",
    "coluna-ausente": "a coluna obrigatória do esquema está ausente do cabeçalho{dica}",
    "coluna-opcional-ausente": "coluna opcional ausente do cabeçalho; lida como vazia{dica}",
    "conflito-entre-fontes": "o registro tem a mesma chave que {primeira}, mas outros valores; vale o primeiro",
    "coluna-desconhecida": "coluna desconhecida, ignorada (não faz parte do esquema)",
    "linha-repetida": "a linha repete, célula por célula, a linha {primeira} do mesmo arquivo; publicada uma vez",
    "colunas-demais": "o cabeçalho tem {valor} colunas, mais que o limite de {limite} (a tabela tem {esperado}): "
                      "não é um arquivo desta tabela",
    "largura-da-linha": "a linha tem {valor} células, mas o cabeçalho tem {esperado}",
    "caminho-inseguro": 'o caminho "{valor}" sai da pasta do pacote e foi recusado',
    "arquivo-vazio": "o arquivo está vazio (0 bytes, sem cabeçalho); uma tabela sem registros precisa ao menos da linha de cabeçalho",
    "arquivo-ilegivel": "o arquivo não pôde ser lido ({detalhe})",
    "coluna-repetida": 'a coluna "{valor}" aparece mais de uma vez no cabeçalho',
    "separador": "o cabeçalho tem uma só coluna com {separador} dentro: o separador deve ser a vírgula",
    "aspas-sem-fechamento": (
        "as aspas abertas nesta linha não se fecham antes de {linhas} linhas seguintes, que virariam uma só "
        "célula; feche as aspas (ou duplique-as dentro do texto)"
    ),
    "csv-ilegivel": "o CSV não pôde ser lido a partir desta linha ({detalhe})",
    "descritor-invalido": "o datapackage.json da pasta não é um descritor válido ({detalhe})",
    # schema (Frictionless)
    "obrigatorio": "campo obrigatório vazio",
    "tipo": 'o valor "{valor}" não é {tipo}',
    "padrao": 'o valor "{valor}" não segue o formato exigido ({padrao})',
    "lista": 'o valor "{valor}" não é um dos permitidos: {permitidos}',
    "minimo": 'o valor "{valor}" é menor que o mínimo permitido ({limite})',
    "maior-que": 'o valor "{valor}" deve ser maior que {limite}',
    "comprimento": 'o valor "{valor}" tem comprimento fora do permitido ({detalhe})',
    "unico": 'o valor "{valor}" se repete; deve ser único na tabela',
    "chave-primaria": 'a chave "{valor}" se repete; deve ser única na tabela',
    "chave-estrangeira": 'o valor "{valor}" não existe em {referencia}',
    "estrutura": "{detalhe}",
    # the portal's cell grammar (pipeline/validate/cells.py)
    "data-invalida": 'o valor "{valor}" não é uma data válida no formato AAAA-MM-DD (dígitos 0-9)',
    "data-fora-do-intervalo": 'a data "{valor}" está fora do intervalo aceito ({inicio} a {fim})',
    "horario-formato": 'o valor "{valor}" não é um horário HH:MM (00:00 a 23:59)',
    "numero-formato": 'o valor "{valor}" não é um número decimal simples, como 1234.56 (dígitos 0-9, ponto decimal, sem expoente nem espaços)',
    "inteiro-formato": 'o valor "{valor}" não é um número inteiro simples (dígitos 0-9)',
    "numero-grande": 'o valor "{valor}" passa do limite de {digitos} dígitos',
    "booleano-formato": 'o valor "{valor}" não é true nem false',
    "caractere-de-controle": "o texto tem caracteres de controle (invisíveis), que não são publicados",
    "texto-longo": "o texto passa de {limite} caracteres (contados como numa planilha: um emoji conta dois)",
    "espacos-nas-pontas": 'o valor "{valor}" tem espaços ou quebras de linha no início ou no fim',
    "chave-longa": 'a chave "{valor}" passa de {limite} caracteres no endereço da página',
    "cpf-sem-pontuacao": "o texto tem um número de 11 dígitos com dígitos verificadores de CPF; dados de pessoas físicas não são publicados (LGPD)",
    # the portal's own checks (pipeline/validate/checks.py)
    "cnpj-digitos": 'o CNPJ "{valor}" tem dígitos verificadores inválidos',
    "motivo-extincao-obrigatorio": "extinta_em está preenchido, mas falta o motivo da extinção (art. 28)",
    "motivo-sem-extincao": 'há motivo de extinção "{valor}" sem a data extinta_em',
    "linha-obrigatoria": 'a outorga da modalidade "{modalidade}" precisa de linha (só fretamento dispensa)',
    "data-hora-formato": 'o valor "{valor}" não está no formato AAAA-MM-DDTHH:MM (segundos opcionais)',
    "duas-casas-decimais": 'o valor "{valor}" deve ter no máximo duas casas decimais (R$)',
    "fim-antes-do-inicio": 'o fim "{valor}" é anterior ao início "{inicio}"',
    "caducidade-outra-transportadora": 'a transportadora "{valor}" não é a titular da outorga "{outorga}" ({titular})',
    "chave-sem-slug": 'a chave "{valor}" não forma um endereço seguro (sobra nada após a normalização)',
    "slug-repetido": 'a chave "{valor}" forma o mesmo endereço "{endereco}" que "{outra}"',
    "algarismos-nao-ascii": 'o identificador "{valor}" tem algarismos de outra escrita (como ５ ou ٥); escreva-os 0-9',
    "url-insegura": 'o endereço "{valor}" deve começar com http:// ou https://',
    "dado-pessoal": "o texto parece conter um CPF; dados de pessoas físicas não são publicados (LGPD)",
    "dado-pessoal-metadados": "a descrição da fonte contém um CPF; dados de pessoas físicas não são publicados "
                              "(LGPD): retire-o (com --lenient ele é mascarado)",
    "cpf-mascarado": "o texto tinha um CPF, publicado mascarado (LGPD)",
    "dado-pessoal-mascarado": "a descrição da fonte continha um CPF, publicado mascarado (LGPD)",
}

TYPE_NAMES = {
    "date": "uma data no formato AAAA-MM-DD",
    "datetime": "uma data e hora no formato AAAA-MM-DDTHH:MM",
    "number": "um número (use ponto como separador decimal)",
    "integer": "um número inteiro",
    "boolean": "true ou false",
    "string": "um texto",
}


@dataclass(frozen=True)
class Problem:
    regra: str
    tabela: str
    arquivo: str
    linha: int | None
    coluna: str | None
    valor: str | None
    detalhe: str
    grave: bool = True  # False: a warning that does not reject the row nor fail the build
    registro: tuple = field(default=(), compare=False)

    def __post_init__(self):
        # one screen for every text a report publishes (validacao.json, rejeitados, the console): a CPF in a
        # value, a cell of the row, a column's name or a folder's name is masked (LGPD)
        for name in ("arquivo", "coluna", "valor", "detalhe"):
            object.__setattr__(self, name, mask_cpf(getattr(self, name)))
        if self.registro:
            object.__setattr__(self, "registro", tuple(mask_cpf(v) for v in self.registro))

    @classmethod
    def of(
        cls,
        regra: str,
        tabela: str,
        arquivo: str,
        linha: int | None,
        coluna: str | None,
        valor: str | None,
        *,
        grave: bool = True,
        registro=(),
        **context,
    ) -> Problem:
        detalhe = RULES[regra].format(valor=valor if valor is not None else "", **context)
        return cls(regra, tabela, arquivo, linha, coluna, valor, detalhe, grave, tuple(registro))

    @property
    def mensagem(self) -> str:
        where = [self.arquivo]
        if self.linha is not None:
            where.append(f"linha {self.linha}")
        if self.coluna:
            where.append(f'coluna "{self.coluna}"')
        return f"{', '.join(where)}: {self.detalhe} [regra {self.regra}]"

    def as_row(self) -> dict:
        d = asdict(self)
        d["registro"] = json.dumps(list(self.registro), ensure_ascii=False) if self.registro else ""
        d["mensagem"] = self.mensagem
        return d
