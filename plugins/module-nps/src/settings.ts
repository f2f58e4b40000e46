/**
 * A tenant's NPS settings (spec §3): whether the survey goes out, the scale's maximum (spec §9:
 * 10), how long a survey waits for the reply, and its four texts with {{name}} and {{max}}.
 * A tenant that never saved them has the defaults (off: an admin turns the survey on).
 */
import { PluginError, type PluginData } from "@openatende/plugin-sdk";
import { DEFAULT_SCALE, SCALE_MAX, SCALE_MIN } from "./scale";

export interface NpsSettings {
  enabled: boolean;
  scale: number;
  timeoutMinutes: number;
  requestMessage: string;
  thanksMessage: string;
  invalidMessage: string;
  timeoutMessage: string;
}

interface SettingsRow extends NpsSettings, Record<string, unknown> {
  id: number;
  updatedAt: number;
}

/** The claim a survey holds lasts at most a week (the core's limit for platform.inbound.claim). */
export const TIMEOUT_MIN = 1;
export const TIMEOUT_MAX = 10_080;
export const MESSAGE_MAX = 1000;
export const MESSAGE_FIELDS = ["requestMessage", "thanksMessage", "invalidMessage", "timeoutMessage"] as const;

export const DEFAULT_SETTINGS: NpsSettings = {
  enabled: false,
  scale: DEFAULT_SCALE,
  timeoutMinutes: 60,
  requestMessage: "Olá {{name}}! De 0 a {{max}}, quanto você recomendaria nosso atendimento a um amigo? Responda só com o número.",
  thanksMessage: "Obrigado pela sua avaliação, {{name}}!",
  invalidMessage: "Não entendi, {{name}}. Responda com um número de 0 a {{max}}.",
  timeoutMessage: "A pesquisa de satisfação foi encerrada. Obrigado, {{name}}!",
};

/** Checks a change against what is stored: the merged settings, or the field's code. */
export function checkSettings(current: NpsSettings, change: Partial<NpsSettings>): NpsSettings {
  const next = { ...current, ...Object.fromEntries(Object.entries(change).filter(([, v]) => v !== undefined)) } as NpsSettings;
  if (!Number.isInteger(next.scale) || next.scale < SCALE_MIN || next.scale > SCALE_MAX) throw new PluginError("ERR_NPS_SCALE_INVALID", 400, { field: "scale", min: SCALE_MIN, max: SCALE_MAX });
  if (!Number.isInteger(next.timeoutMinutes) || next.timeoutMinutes < TIMEOUT_MIN || next.timeoutMinutes > TIMEOUT_MAX) {
    throw new PluginError("ERR_NPS_TIMEOUT_INVALID", 400, { field: "timeoutMinutes", min: TIMEOUT_MIN, max: TIMEOUT_MAX });
  }
  for (const f of MESSAGE_FIELDS) {
    next[f] = String(next[f] ?? "").trim();
    if (!next[f]) throw new PluginError("ERR_NPS_MESSAGE_REQUIRED", 400, { field: f });
  }
  return next;
}

export class SettingsStore {
  constructor(private readonly data: PluginData) {}

  private table(tenantId: number) {
    return this.data.forTenant(tenantId).table<SettingsRow>("settings");
  }

  async get(tenantId: number): Promise<NpsSettings> {
    const row = await this.table(tenantId).get({ id: 1 });
    if (!row) return { ...DEFAULT_SETTINGS };
    const { id: _id, updatedAt: _u, ...s } = row;
    return { ...s, enabled: !!s.enabled };
  }

  async save(tenantId: number, s: NpsSettings, now: number): Promise<NpsSettings> {
    await this.table(tenantId).upsert({ id: 1, ...s, updatedAt: now });
    return this.get(tenantId);
  }
}
