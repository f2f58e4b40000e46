/**
 * The plugin's rows in its own database (migrations/0001-typebot.ts), always through the SDK's
 * tenant-scoped repository: another tenant's rows are simply not there.
 */
import { randomUUID } from "node:crypto";
import { DuplicateRowError, type PluginData } from "@openatende/plugin-sdk";
import type { MenuChoice } from "./render";
import type { ApiGeneration, FailureKind } from "./typebot-client";

export type SettingsRow = {
  id: number;
  viewerUrl: string | null;
  builderUrl: string | null;
  apiToken: string | null;
  apiGeneration: ApiGeneration;
  sessionTimeoutMinutes: number;
  queueId: number | null;
  updatedAt: number;
};

export type ConnectionRow = {
  connectionId: number;
  enabled: boolean;
  publicId: string;
  restartKeyword: string;
  invalidMessage: string | null;
  updatedAt: number;
};

/** The input Typebot waits on: its block id and, for a choice input, the menu shown. */
export interface Waiting {
  inputId: string | null;
  items: MenuChoice[];
}

export type SessionRow = {
  ticketId: number;
  connectionId: number | null;
  publicId: string;
  generation: ApiGeneration;
  sessionId: string | null;
  status: "active" | "ended";
  lastAt: number;
  choices: Waiting | null;
  handled: string[] | null;
  updatedAt: number;
};

export type FailureRow = {
  id: string;
  ticketId: number;
  connectionId: number | null;
  kind: FailureKind | "config";
  status: number | null;
  message: string;
  at: number;
};

const SETTINGS_ID = 1;
/** The inbound ids a session remembers (deliveries are in order per ticket: a repeat is one of the last). */
const HANDLED_KEPT = 30;

export const EMPTY_SETTINGS: Omit<SettingsRow, "id" | "updatedAt"> = { viewerUrl: null, builderUrl: null, apiToken: null, apiGeneration: "latest", sessionTimeoutMinutes: 0, queueId: null };

const bool = (v: unknown) => v === true || v === 1 || v === "1";
const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));
const json = <T>(v: unknown): T | null => (v === null || v === undefined ? null : typeof v === "string" ? (JSON.parse(v) as T) : (v as T));

export class TypebotStore {
  constructor(private readonly data: PluginData) {}

  private t<R extends Record<string, unknown>>(tenantId: number, name: string) {
    return this.data.forTenant(tenantId).table<R>(name);
  }

  async settings(tenantId: number): Promise<SettingsRow | null> {
    const r = await this.t<SettingsRow>(tenantId, "settings").get({ id: SETTINGS_ID });
    return r ? { ...r, queueId: num(r.queueId), sessionTimeoutMinutes: Number(r.sessionTimeoutMinutes ?? 0), updatedAt: Number(r.updatedAt) } : null;
  }

  async saveSettings(tenantId: number, row: Omit<SettingsRow, "id">): Promise<void> {
    await this.t<SettingsRow>(tenantId, "settings").upsert({ ...row, id: SETTINGS_ID });
  }

  async connection(tenantId: number, connectionId: number): Promise<ConnectionRow | null> {
    const r = await this.t<ConnectionRow>(tenantId, "connections").get({ connectionId });
    return r ? { ...r, enabled: bool(r.enabled), updatedAt: Number(r.updatedAt) } : null;
  }

  async saveConnection(tenantId: number, row: ConnectionRow): Promise<void> {
    await this.t<ConnectionRow>(tenantId, "connections").upsert(row);
  }

  async session(tenantId: number, ticketId: number): Promise<SessionRow | null> {
    const r = await this.t<SessionRow>(tenantId, "sessions").get({ ticketId });
    if (!r) return null;
    return { ...r, connectionId: num(r.connectionId), lastAt: Number(r.lastAt), updatedAt: Number(r.updatedAt), choices: json<Waiting>(r.choices), handled: json<string[]>(r.handled) };
  }

  async saveSession(tenantId: number, row: SessionRow): Promise<void> {
    const handled = (row.handled ?? []).slice(-HANDLED_KEPT);
    await this.t<SessionRow>(tenantId, "sessions").upsert({ ...row, handled });
  }

  async dropSession(tenantId: number, ticketId: number): Promise<void> {
    await this.t<SessionRow>(tenantId, "sessions").delete({ ticketId });
  }

  async recordFailure(tenantId: number, f: Omit<FailureRow, "id">): Promise<FailureRow> {
    const row = { ...f, message: f.message.slice(0, 2000), id: randomUUID() };
    try {
      await this.t<FailureRow>(tenantId, "failures").insert(row);
    } catch (err) {
      if (!(err instanceof DuplicateRowError)) throw err;
    }
    return row;
  }

  async failures(tenantId: number, limit = 20): Promise<FailureRow[]> {
    const rows = await this.t<FailureRow>(tenantId, "failures").find({}, { orderBy: [["at", "desc"]], limit });
    return rows.map((r) => ({ ...r, status: num(r.status), connectionId: num(r.connectionId), ticketId: Number(r.ticketId), at: Number(r.at) }));
  }
}
