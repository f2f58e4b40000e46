/**
 * The engine's errors. The spec's campaign codes (§8) are the core's catalogue's
 * (ERR_CAMPAIGN_NOT_FOUND, …_NOT_EDITABLE, …_DATE_INVALID, …_CONTACTS_REQUIRED_TO_SCHEDULE,
 * …_PAST_DATE, …_CONTACTS_MISSING, ERR_INVALID_INTERVAL); the rules the spec states without a
 * code (pause, resume, delete, cancel, CSV) are each type plugin's own, named with its prefix
 * (a code belongs to one plugin), declared in its manifest from `engineManifestErrors(prefix)`.
 */
import { PluginError } from "@openatende/plugin-sdk";

export const CORE_CODES = {
  notFound: ["ERR_CAMPAIGN_NOT_FOUND", 404],
  notEditable: ["ERR_CAMPAIGN_NOT_EDITABLE", 409],
  dateInvalid: ["ERR_CAMPAIGN_DATE_INVALID", 400],
  contactsRequired: ["ERR_CAMPAIGN_CONTACTS_REQUIRED_TO_SCHEDULE", 400],
  pastDate: ["ERR_CAMPAIGN_PAST_DATE", 400],
  contactsMissing: ["ERR_CAMPAIGN_CONTACTS_MISSING", 400],
  interval: ["ERR_INVALID_INTERVAL", 400],
} as const;

type Texts = { title: string; detail: string };
type Localized = { status: number; "pt-BR": Texts; en: Texts; es: Texts; ru: Texts };

/** The engine's own codes by suffix (the plugin's code is `ERR_<PREFIX>_<SUFFIX>`), with their texts. */
export const ENGINE_ERRORS: Record<string, Localized> = {
  NOT_DELETABLE: {
    status: 409,
    "pt-BR": { title: "Campanha não pode ser excluída", detail: "Só campanhas pendentes ou canceladas podem ser excluídas." },
    en: { title: "Campaign cannot be deleted", detail: "Only pending or canceled campaigns can be deleted." },
    es: { title: "La campaña no se puede eliminar", detail: "Solo se pueden eliminar campañas pendientes o canceladas." },
    ru: { title: "Кампанию нельзя удалить", detail: "Удалить можно только ожидающие или отменённые кампании." },
  },
  HAS_CONTACTS: {
    status: 409,
    "pt-BR": { title: "Campanha com contatos", detail: "A campanha tem {{contacts}} contato(s) vinculado(s): remova-os antes de excluí-la." },
    en: { title: "Campaign has contacts", detail: "The campaign has {{contacts}} linked contact(s): remove them before deleting it." },
    es: { title: "Campaña con contactos", detail: "La campaña tiene {{contacts}} contacto(s) vinculado(s): elimínelos antes de borrarla." },
    ru: { title: "В кампании есть контакты", detail: "К кампании привязано контактов: {{contacts}}. Удалите их перед удалением кампании." },
  },
  NOT_PAUSABLE: {
    status: 409,
    "pt-BR": { title: "Campanha não pode ser pausada", detail: "Só campanhas agendadas ou em processamento podem ser pausadas." },
    en: { title: "Campaign cannot be paused", detail: "Only scheduled or processing campaigns can be paused." },
    es: { title: "La campaña no se puede pausar", detail: "Solo se pueden pausar campañas programadas o en proceso." },
    ru: { title: "Кампанию нельзя приостановить", detail: "Приостановить можно только запланированные или выполняющиеся кампании." },
  },
  NOT_RESUMABLE: {
    status: 409,
    "pt-BR": { title: "Campanha não está pausada", detail: "Só campanhas pausadas podem ser retomadas." },
    en: { title: "Campaign is not paused", detail: "Only paused campaigns can be resumed." },
    es: { title: "La campaña no está en pausa", detail: "Solo se pueden reanudar campañas en pausa." },
    ru: { title: "Кампания не приостановлена", detail: "Возобновить можно только приостановленные кампании." },
  },
  NOT_CANCELABLE: {
    status: 409,
    "pt-BR": { title: "Campanha não pode ser cancelada", detail: "A campanha já foi finalizada ou cancelada." },
    en: { title: "Campaign cannot be canceled", detail: "The campaign is already finished or canceled." },
    es: { title: "La campaña no se puede cancelar", detail: "La campaña ya terminó o fue cancelada." },
    ru: { title: "Кампанию нельзя отменить", detail: "Кампания уже завершена или отменена." },
  },
  NOT_SCHEDULABLE: {
    status: 409,
    "pt-BR": { title: "Campanha não pode ser agendada", detail: "Só campanhas pendentes ou canceladas podem ser agendadas." },
    en: { title: "Campaign cannot be scheduled", detail: "Only pending or canceled campaigns can be scheduled." },
    es: { title: "La campaña no se puede programar", detail: "Solo se pueden programar campañas pendientes o canceladas." },
    ru: { title: "Кампанию нельзя запланировать", detail: "Запланировать можно только ожидающие или отменённые кампании." },
  },
  CSV_INVALID: {
    status: 400,
    "pt-BR": { title: "CSV inválido", detail: "A linha {{line}} do CSV não tem um número válido." },
    en: { title: "Invalid CSV", detail: "Line {{line}} of the CSV has no valid number." },
    es: { title: "CSV no válido", detail: "La línea {{line}} del CSV no tiene un número válido." },
    ru: { title: "Неверный CSV", detail: "В строке {{line}} CSV нет корректного номера." },
  },
  CSV_UNKNOWN_NUMBERS: {
    status: 400,
    "pt-BR": { title: "Números sem contato", detail: "Estes números do CSV não são contatos da empresa: {{numbers}}." },
    en: { title: "Numbers without a contact", detail: "These numbers of the CSV are not the company's contacts: {{numbers}}." },
    es: { title: "Números sin contacto", detail: "Estos números del CSV no son contactos de la empresa: {{numbers}}." },
    ru: { title: "Номера без контактов", detail: "Эти номера из CSV не являются контактами компании: {{numbers}}." },
  },
  CONTENT_INVALID: {
    status: 400,
    "pt-BR": { title: "Mensagem da campanha inválida", detail: "Verifique os campos: {{fields}}." },
    en: { title: "Invalid campaign message", detail: "Check these fields: {{fields}}." },
    es: { title: "Mensaje de campaña no válido", detail: "Revise los campos: {{fields}}." },
    ru: { title: "Неверное сообщение кампании", detail: "Проверьте поля: {{fields}}." },
  },
};

export type EngineErrorSuffix = keyof typeof ENGINE_ERRORS;

/** The manifest `errors` a type plugin declares for the engine's own codes (its package.json holds exactly these). */
export function engineManifestErrors(prefix: string): Record<string, Localized> {
  return Object.fromEntries(Object.entries(ENGINE_ERRORS).map(([suffix, def]) => [`ERR_${prefix}_${suffix}`, def]));
}

/** Throws the engine's errors with a plugin's prefix, or the core's campaign codes. */
export class CampaignErrors {
  constructor(readonly prefix: string) {}

  own(suffix: EngineErrorSuffix, data: Record<string, unknown> = {}): PluginError {
    return new PluginError(`ERR_${this.prefix}_${suffix}`, ENGINE_ERRORS[suffix].status, data);
  }

  core(which: keyof typeof CORE_CODES, data: Record<string, unknown> = {}): PluginError {
    const [code, status] = CORE_CODES[which];
    return new PluginError(code, status, data);
  }
}
