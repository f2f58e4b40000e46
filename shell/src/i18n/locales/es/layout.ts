/** Texts of the main layout (es): menu, header, user menu. */
export default {
  menu: {
    home: "Panel",
    atendimento: "Atenciones",
    contatos: "Contactos",
    configuracoes: "Configuración",
    plugins: "Módulos",
  },
  collapse: "Contraer menú",
  expand: "Expandir menú",
  openMenu: "Abrir menú",
  realtime: {
    connected: "Tiempo real activo",
    connecting: "Conectando...",
    disconnected: "Reconectando...",
    failed: "Sin conexión en tiempo real",
    idle: "Tiempo real desactivado",
  },
  theme: { dark: "Modo oscuro", light: "Modo claro" },
  profiles: { user: "Agente", supervisor: "Supervisor", admin: "Administrador", super: "Superadministrador" },
  plan: "Plan {{tier}}",
  licenceUntil: "Licencia válida hasta {{date}}",
  version: "Versión {{version}}",
  versionUnknown: "Versión desconocida",
  logout: "Cerrar sesión",
  unread: "{{count}} conversaciones sin leer",
  account: "Mi cuenta",
} as const;
