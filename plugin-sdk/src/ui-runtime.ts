/**
 * What the shell hands a plugin's UI remote. A remote exposes one module, `./register`, whose
 * default export is a `RegisterFn`: the shell calls it once with this runtime, and the plugin
 * adds its routes, menu entries, connect forms and translations through it. A plugin imports
 * these types from the SDK and never the shell's code.
 */
import type { ComponentType, ReactNode } from "react";

export type UiLocale = "pt-BR" | "en" | "es" | "ru";
export type UiProfile = "user" | "supervisor" | "admin" | "super";
export type UiTier = "FREE" | "BASIC" | "PLUS" | "PREMIUM";

export interface UiApiError extends Error {
  status: number;
  /** The catalogue code (`ERR_…`), or "ERR_UNIDENTIFIED". */
  code: string;
  /** Translated title and detail, as the server sent them. */
  title: string;
  detail: string;
  data: Record<string, unknown>;
}

export interface UiRequestOptions {
  query?: Record<string, string | number | boolean | Array<string | number> | undefined | null>;
  /** Do not show the error notice (the caller shows the error itself). */
  silent?: boolean;
  /** Show the success notice ("Tudo certo...") when the call succeeds. */
  successNotice?: boolean | string;
  signal?: AbortSignal;
}

export interface UiApi {
  get<T = unknown>(path: string, opts?: UiRequestOptions): Promise<T>;
  post<T = unknown>(path: string, body?: unknown, opts?: UiRequestOptions): Promise<T>;
  put<T = unknown>(path: string, body?: unknown, opts?: UiRequestOptions): Promise<T>;
  patch<T = unknown>(path: string, body?: unknown, opts?: UiRequestOptions): Promise<T>;
  delete<T = unknown>(path: string, opts?: UiRequestOptions): Promise<T>;
}

export interface UiUser {
  id: number;
  name: string;
  profile: UiProfile;
  isAdmin: boolean;
  queues: number[];
}

export interface UiTenant {
  id: number;
  name: string;
  tier: UiTier;
}

export interface UiNotify {
  success(message?: string): void;
  info(message: string): void;
  /** An error from `api` (shows its title and detail) or a plain message. */
  error(err: unknown): void;
}

/** A page a plugin adds under the main layout, at `/<path>` (hash route). */
export interface UiRoute {
  path: string;
  /** Lazy page: only fetched when the route is opened. */
  load: () => Promise<{ default: ComponentType }>;
  /** Lowest profile that may open it (default "user"). */
  access?: UiProfile;
}

/** A text per locale; the shell picks the current one (pt-BR when missing). */
export type UiLabel = Partial<Record<UiLocale, string>> & { "pt-BR": string };

export interface UiMenuItem {
  key: string;
  path: string;
  label: UiLabel;
  access?: UiProfile;
  /** A name of the SDK's PLUGIN_ICONS or an image URL (default: the plugin's manifest icon). */
  icon?: string;
}

/** Settings of a connection of the plugin's channel type, edited in the connection form. */
export type ConnectionSettings = Record<string, unknown>;

export interface ConnectFormProps {
  value: ConnectionSettings;
  onChange(next: ConnectionSettings): void;
  /** Field → translated message, from `validate` or from the server's validation error. */
  errors: Record<string, string>;
  /** The connection being edited (absent when creating one). */
  connection?: { id: number; name: string; status: string; token?: string | null };
  runtime: ShellRuntime;
}

export interface ConnectFormDefinition {
  /** The channel type this form edits: the plugin's id. */
  type: string;
  component: ComponentType<ConnectFormProps>;
  /** Field → message for what is wrong; an empty object when the settings can be saved. */
  validate?(value: ConnectionSettings, t: ShellRuntime["t"]): Record<string, string>;
  defaults?: ConnectionSettings;
}

/** The tabs of the attendance screen's chat list. */
export type UiChatListTab = "open" | "closed" | "group";

export interface ChatListActionProps {
  runtime: ShellRuntime;
  /** The tab the action was opened from. */
  tab: UiChatListTab;
  /** Closes what the action opened (the plugin draws its own modal and calls this when done). */
  onClose(): void;
}

/**
 * A button a plugin adds to the chat list's header on some tabs (a channel's "new WhatsApp
 * group" on the Groups tab). Pressing it mounts `component`, which draws its own modal.
 */
export interface ChatListActionDefinition {
  /** Unique within the plugin. */
  key: string;
  tabs: UiChatListTab[];
  label: Partial<Record<UiLocale, string>> & { "pt-BR": string };
  /** The button's icon (default: a "group add" icon); tells apart several actions on one tab. */
  icon?: ReactNode;
  /** Lowest profile that sees it (default "user"). */
  access?: UiProfile;
  component: ComponentType<ChatListActionProps>;
}

/** The ticket an attendance-screen slot is drawn for. */
export interface UiTicket {
  id: number;
  status: "open" | "pending" | "closed" | "group" | "chatbot";
  contactId: number;
  connectionId: number | null;
  queueId: number | null;
  userId: number | null;
  isGroup: boolean;
  /** The connection's channel type ("whatsapp", "telegram", …), when known. */
  channel?: string | null;
  /**
   * The provider's customer-service window, on channels that declare one (manifest
   * `serviceWindowHours`), kept current by the shell as messages arrive and time passes:
   * a composer replacement offering templates applies when `open` is false.
   */
  serviceWindow?: { hours: number; open: boolean; closesAt: number | null } | null;
}

/**
 * The settings menu is drawn beside a settings page. A page that needs the whole width (a
 * canvas, such as a flow builder) marks an element of its own with this attribute: while that
 * element is on screen the menu steps aside.
 */
export const SETTINGS_WIDE_ATTRIBUTE = "data-settings-wide";

/** A page under /configuracoes/<path> (admins only, like every settings page), listed in the settings menu. */
export interface SettingsSectionDefinition {
  /** The child path, e.g. "prompt" → /configuracoes/prompt. */
  path: string;
  label: UiLabel;
  load: () => Promise<{ default: ComponentType }>;
}

export interface ComposerActionProps {
  runtime: ShellRuntime;
  ticket: UiTicket;
  /** The composer's current text. */
  text: string;
  /** Replaces the composer's text (an AI rewrite, a template). */
  setText(text: string): void;
  /** Sends a text message on the ticket now. */
  send(body: string): Promise<void>;
  onClose(): void;
}

/** A button beside the composer's send button; pressing it mounts `component` (its own popover or modal). */
export interface ComposerActionDefinition {
  key: string;
  label: UiLabel;
  icon?: ReactNode;
  access?: UiProfile;
  component: ComponentType<ComposerActionProps>;
}

export interface ComposerReplacementProps {
  runtime: ShellRuntime;
  ticket: UiTicket;
}

/**
 * Draws instead of the composer when `applies(ticket)` is true, e.g. a template picker when a
 * WhatsApp Cloud ticket's 24-hour window is closed. The first registered that applies wins.
 */
export interface ComposerReplacementDefinition {
  key: string;
  applies(ticket: UiTicket): boolean;
  component: ComponentType<ComposerReplacementProps>;
}

export interface ClosingDialogProps {
  runtime: ShellRuntime;
  ticket: UiTicket;
  /** Lets the ticket close (after the plugin saved what it asked). */
  done(): void;
  /** Keeps the ticket open. */
  cancel(): void;
}

/** Shown when an agent closes a ticket, before it closes (a closure questionnaire); `applies` may skip it. */
export interface ClosingDialogDefinition {
  key: string;
  applies?(ticket: UiTicket): boolean;
  component: ComponentType<ClosingDialogProps>;
}

export interface ContactPanelSectionProps {
  runtime: ShellRuntime;
  contactId: number;
  ticket?: UiTicket;
}

/** A section of the attendance screen's contact panel. */
export interface ContactPanelSectionDefinition {
  key: string;
  label: UiLabel;
  access?: UiProfile;
  component: ComponentType<ContactPanelSectionProps>;
}

export interface FormSectionProps {
  runtime: ShellRuntime;
  /** The edited object's id (absent while creating it). */
  id?: number;
  /** The plugin's own values for this object (it saves them itself, through its routes, on `onSaved`). */
  value: Record<string, unknown>;
  onChange(next: Record<string, unknown>): void;
}

/**
 * A section of the connection form (for some channel types) or of the queue form: a chatbot
 * plugin adds its settings there. `save` runs after the core saved the object, with its id.
 */
export interface FormSectionDefinition {
  key: string;
  label: UiLabel;
  /** Connection form only: the channel types it applies to (default: all). */
  types?: string[];
  component: ComponentType<FormSectionProps>;
  load?(id: number, runtime: ShellRuntime): Promise<Record<string, unknown>>;
  save?(id: number, value: Record<string, unknown>, runtime: ShellRuntime): Promise<void>;
}

/** A block of the dashboard (/home). */
export interface DashboardBlockDefinition {
  key: string;
  title: UiLabel;
  access?: UiProfile;
  component: ComponentType<{ runtime: ShellRuntime }>;
}

export interface UiRealtime {
  /**
   * Hears the plugin's own pushes (the core API's realtime.push with this `event`), as
   * `plugin:<id>:<event>` on the socket; returns the unsubscribe.
   */
  on(event: string, handler: (payload: unknown) => void): () => void;
}

export interface ShellRuntime {
  /** The plugin this runtime was made for. */
  pluginId: string;
  api: UiApi;
  user: UiUser;
  tenant: UiTenant;
  locale: UiLocale;
  /** Translates a key of the plugin's own texts (see addTranslations), then the shell's. */
  t(key: string, vars?: Record<string, unknown>): string;
  addTranslations(resources: Partial<Record<UiLocale, Record<string, unknown>>>): void;
  notify: UiNotify;
  addRoute(route: UiRoute): void;
  addMenuItem(item: UiMenuItem): void;
  registerConnectForm(form: ConnectFormDefinition): void;
  /** Adds a button to the chat list (see ChatListActionDefinition). */
  registerChatListAction(action: ChatListActionDefinition): void;
  realtime: UiRealtime;
  addSettingsSection(section: SettingsSectionDefinition): void;
  registerComposerAction(action: ComposerActionDefinition): void;
  registerComposerReplacement(replacement: ComposerReplacementDefinition): void;
  registerClosingDialog(dialog: ClosingDialogDefinition): void;
  registerContactPanelSection(section: ContactPanelSectionDefinition): void;
  registerConnectionFormSection(section: FormSectionDefinition): void;
  registerQueueFormSection(section: FormSectionDefinition): void;
  addDashboardBlock(block: DashboardBlockDefinition): void;
}

export type RegisterFn = (runtime: ShellRuntime) => void | Promise<void>;

/** Identity helper so a remote's register function is typed: `export default defineUi((rt) => …)`. */
export function defineUi(register: RegisterFn): RegisterFn {
  return register;
}

/** The socket event name of a plugin's push (the core API's realtime.push), shared with the core. */
export { pluginRealtimeEvent } from "./core-api/contract";
