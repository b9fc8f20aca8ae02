"""Input problems as data: a rule slug, a pt-BR message template and where it happened.

Frictionless errors and the portal's own checks both become :class:`Problem`; the report decides the
exit code and only the CLI prints. Every message names the file, the row, the column, the value and
the rule broken.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field

# slug -> message template (pt-BR). Placeholders: {valor} and the keyword arguments of Problem.of.
RULES: dict[str, str] = {
    # structure (read stage)
    "codificacao": "o arquivo não está em UTF-8 ({detalhe})",
    "coluna-ausente": "a coluna obrigatória do esquema está ausente do cabeçalho",
    "coluna-opcional-ausente": "coluna opcional ausente do cabeçalho; lida como vazia",
    "conflito-entre-fontes": "o registro tem a mesma chave que {primeira}, mas outros valores; vale o primeiro",
    "coluna-desconhecida": "coluna desconhecida, ignorada (não faz parte do esquema)",
    "largura-da-linha": "a linha tem {valor} células, mas o cabeçalho tem {esperado}",
    "caminho-inseguro": 'o caminho "{valor}" sai da pasta do pacote e foi recusado',
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
    "url-insegura": 'o endereço "{valor}" deve começar com http:// ou https://',
    "dado-pessoal": "o texto parece conter um CPF; dados de pessoas físicas não são publicados (LGPD)",
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
