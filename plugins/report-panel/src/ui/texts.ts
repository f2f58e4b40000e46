/** The panel's texts in the four languages (every key in all four, checked by the API test). */
export const LOCALES = ["pt-BR", "en", "es", "ru"] as const;
export type Locale = (typeof LOCALES)[number];

const ptBR = {
  title: "Painel de atendimentos",
  total: "Todas as filas",
  noQueue: "Sem fila",
  waiting: "Aguardando",
  inService: "Em atendimento",
  longestWait: "Maior espera",
  online: "Atendentes online",
  noQueues: "Nenhuma fila cadastrada",
  updated: "Atualizado às {{time}}",
  fullscreen: "Tela cheia",
};

type Texts = typeof ptBR;

const en: Texts = {
  title: "Service panel",
  total: "All queues",
  noQueue: "No queue",
  waiting: "Waiting",
  inService: "In service",
  longestWait: "Longest wait",
  online: "Agents online",
  noQueues: "No queues yet",
  updated: "Updated at {{time}}",
  fullscreen: "Full screen",
};

const es: Texts = {
  title: "Panel de atenciones",
  total: "Todas las colas",
  noQueue: "Sin cola",
  waiting: "En espera",
  inService: "En atención",
  longestWait: "Mayor espera",
  online: "Agentes en línea",
  noQueues: "No hay colas",
  updated: "Actualizado a las {{time}}",
  fullscreen: "Pantalla completa",
};

const ru: Texts = {
  title: "Панель обслуживания",
  total: "Все очереди",
  noQueue: "Без очереди",
  waiting: "Ожидают",
  inService: "В работе",
  longestWait: "Дольше всех ждёт",
  online: "Операторы онлайн",
  noQueues: "Очередей пока нет",
  updated: "Обновлено в {{time}}",
  fullscreen: "Во весь экран",
};

export const texts: Record<Locale, Texts> = { "pt-BR": ptBR, en, es, ru };

/** The menu entry's label in the four languages. */
export const menuLabel = () => ({ "pt-BR": ptBR.title, en: en.title, es: es.title, ru: ru.title });
