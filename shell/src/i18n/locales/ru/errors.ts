/** Client-side error texts (ru); the server's codes come translated from the catalogue. */
export default {
  unidentified: "Неизвестная ошибка",
  generic: { title: "Произошла ошибка" },
  network: { title: "Нет связи с сервером", detail: "Проверьте подключение к интернету и повторите попытку." },
  sessionExpired: { title: "Сессия истекла", detail: "Войдите снова." },
  chunk: { title: "Не удалось загрузить страницу", detail: "Эту часть системы не удалось загрузить. Обновите страницу." },
  plugin: { title: "Модуль недоступен", detail: "Не удалось загрузить модуль {{id}}." },
} as const;
