/** Texts of the main layout (ru): menu, header, user menu. */
export default {
  menu: {
    home: "Панель",
    atendimento: "Обращения",
    contatos: "Контакты",
    configuracoes: "Настройки",
    plugins: "Модули",
  },
  collapse: "Свернуть меню",
  expand: "Развернуть меню",
  openMenu: "Открыть меню",
  realtime: {
    connected: "Онлайн-обновления включены",
    connecting: "Подключение...",
    disconnected: "Переподключение...",
    failed: "Нет связи в реальном времени",
    idle: "Онлайн-обновления выключены",
  },
  theme: { dark: "Тёмная тема", light: "Светлая тема" },
  profiles: { user: "Оператор", supervisor: "Супервайзер", admin: "Администратор", super: "Суперадминистратор" },
  plan: "Тариф {{tier}}",
  licenceUntil: "Лицензия действует до {{date}}",
  version: "Версия {{version}}",
  versionUnknown: "Версия неизвестна",
  logout: "Выйти",
  unread: "Непрочитанных диалогов: {{count}}",
  account: "Моя учётная запись",
} as const;
