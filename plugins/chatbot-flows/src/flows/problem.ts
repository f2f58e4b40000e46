/**
 * What a flow's validation finds wrong: a catalogue code (the plugin's manifest or the core's)
 * and the data its texts' {{placeholders}} read. PURE: the builder UI imports it too, and the
 * server throws the first problem as a PluginError.
 */

export interface Problem {
  code: string;
  data: Record<string, unknown>;
}

export const problem = (code: string, data: Record<string, unknown> = {}): Problem => ({ code, data });

/** ERR_VALIDATION with the field (its text names {{field}}). */
export const invalid = (field: string, extra: Record<string, unknown> = {}): Problem => problem("ERR_VALIDATION", { field, ...extra });

export const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** A non-empty string after trim, at most `max` characters. */
export const isText = (v: unknown, max: number): v is string => typeof v === "string" && v.trim().length > 0 && v.length <= max;

/** A string (possibly empty), at most `max` characters. */
export const isString = (v: unknown, max: number): v is string => typeof v === "string" && v.length <= max;

export const isId = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0 && v < 2 ** 31;

/** Ids of nodes, edges, steps, actions and menu options: what the builder makes (uuids, "node-3"…). */
export const KEY_PATTERN = /^[A-Za-z0-9_.:-]{1,64}$/;
export const isKey = (v: unknown): v is string => typeof v === "string" && KEY_PATTERN.test(v);

export const NAME_MAX = 100;
export const TEXT_MAX = 4096;
