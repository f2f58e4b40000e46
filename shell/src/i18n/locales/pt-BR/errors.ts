/** Client-side error texts (pt-BR); the server's codes come translated from the catalogue. */
export default {
  unidentified: "Não identificado",
  generic: { title: "Ocorreu um erro" },
  network: { title: "Sem conexão com o servidor", detail: "Verifique sua internet e tente novamente." },
  sessionExpired: { title: "Sessão expirada", detail: "Faça login novamente." },
  chunk: { title: "Falha ao carregar a página", detail: "Não foi possível carregar esta parte do sistema. Recarregue a página." },
  plugin: { title: "Módulo indisponível", detail: "O módulo {{id}} não pôde ser carregado." },
} as const;
