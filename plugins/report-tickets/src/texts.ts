/** What the server writes in exports, in the four languages (the UI's texts are in ui/texts.ts). */
import type { SlaClass } from "@openatende/report-kit";
import type { TicketStatus } from "./projection";

export type Locale = "pt-BR" | "en" | "es" | "ru";
export const LOCALES: Locale[] = ["pt-BR", "en", "es", "ru"];

export interface ExportTexts {
  title: string;
  period: string;
  page: string;
  columns: Record<"id" | "protocol" | "contact" | "number" | "queue" | "user" | "status" | "createdAt" | "closedAt" | "minutes" | "sla", string>;
  status: Record<TicketStatus, string>;
  sla: Record<SlaClass, string>;
}

export const EXPORT_TEXTS: Record<Locale, ExportTexts> = {
  "pt-BR": {
    title: "Relatório de tickets",
    period: "Período",
    page: "Página",
    columns: { id: "Ticket", protocol: "Protocolo", contact: "Contato", number: "Telefone", queue: "Fila", user: "Atendente", status: "Status", createdAt: "Abertura", closedAt: "Fechamento", minutes: "Tempo (min)", sla: "SLA" },
    status: { open: "Em atendimento", pending: "Pendente", closed: "Fechado", group: "Grupo", chatbot: "Chatbot" },
    sla: { onTime: "No prazo", attention: "Atenção", overdue: "Atrasado" },
  },
  en: {
    title: "Tickets report",
    period: "Period",
    page: "Page",
    columns: { id: "Ticket", protocol: "Protocol", contact: "Contact", number: "Phone", queue: "Queue", user: "Attendant", status: "Status", createdAt: "Opened", closedAt: "Closed", minutes: "Time (min)", sla: "SLA" },
    status: { open: "In service", pending: "Pending", closed: "Closed", group: "Group", chatbot: "Chatbot" },
    sla: { onTime: "On time", attention: "Attention", overdue: "Overdue" },
  },
  es: {
    title: "Informe de tickets",
    period: "Período",
    page: "Página",
    columns: { id: "Ticket", protocol: "Protocolo", contact: "Contacto", number: "Teléfono", queue: "Cola", user: "Agente", status: "Estado", createdAt: "Apertura", closedAt: "Cierre", minutes: "Tiempo (min)", sla: "SLA" },
    status: { open: "En atención", pending: "Pendiente", closed: "Cerrado", group: "Grupo", chatbot: "Chatbot" },
    sla: { onTime: "A tiempo", attention: "Atención", overdue: "Atrasado" },
  },
  ru: {
    title: "Отчёт по тикетам",
    period: "Период",
    page: "Страница",
    columns: { id: "Тикет", protocol: "Протокол", contact: "Контакт", number: "Телефон", queue: "Очередь", user: "Оператор", status: "Статус", createdAt: "Открыт", closedAt: "Закрыт", minutes: "Время (мин)", sla: "SLA" },
    status: { open: "В работе", pending: "Ожидает", closed: "Закрыт", group: "Группа", chatbot: "Чат-бот" },
    sla: { onTime: "В срок", attention: "Внимание", overdue: "Просрочен" },
  },
};

export function exportTexts(locale: string | undefined): ExportTexts {
  return EXPORT_TEXTS[(LOCALES as string[]).includes(locale ?? "") ? (locale as Locale) : "pt-BR"];
}
