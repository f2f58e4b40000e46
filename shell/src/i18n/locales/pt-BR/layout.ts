/** Texts of the main layout (pt-BR): menu, header, user menu. */
export default {
  menu: {
    home: "Painel",
    atendimento: "Atendimentos",
    contatos: "Contatos",
    configuracoes: "Configurações",
    plugins: "Módulos",
  },
  collapse: "Recolher menu",
  expand: "Expandir menu",
  openMenu: "Abrir menu",
  realtime: {
    connected: "Tempo real ativo",
    connecting: "Conectando...",
    disconnected: "Reconectando...",
    failed: "Sem conexão em tempo real",
    idle: "Tempo real desligado",
  },
  theme: { dark: "Modo escuro", light: "Modo claro" },
  profiles: { user: "Atendente", supervisor: "Supervisor", admin: "Administrador", super: "Super administrador" },
  plan: "Plano {{tier}}",
  licenceUntil: "Licença válida até {{date}}",
  version: "Versão {{version}}",
  versionUnknown: "Versão desconhecida",
  logout: "Sair",
  unread: "{{count}} conversas não lidas",
  account: "Minha conta",
} as const;
