/** Texts of the main layout (en): menu, header, user menu. */
export default {
  menu: {
    home: "Dashboard",
    atendimento: "Conversations",
    contatos: "Contacts",
    configuracoes: "Settings",
    plugins: "Modules",
  },
  collapse: "Collapse menu",
  expand: "Expand menu",
  openMenu: "Open menu",
  realtime: {
    connected: "Real time on",
    connecting: "Connecting...",
    disconnected: "Reconnecting...",
    failed: "No real-time connection",
    idle: "Real time off",
  },
  theme: { dark: "Dark mode", light: "Light mode" },
  profiles: { user: "Agent", supervisor: "Supervisor", admin: "Administrator", super: "Super administrator" },
  plan: "{{tier}} plan",
  licenceUntil: "Licence valid until {{date}}",
  version: "Version {{version}}",
  versionUnknown: "Unknown version",
  logout: "Sign out",
  unread: "{{count}} unread conversations",
  account: "My account",
} as const;
