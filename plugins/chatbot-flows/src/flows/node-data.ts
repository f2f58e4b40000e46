/**
 * Each node type's data (model.ts NodeData): checked field by field and copied with only the
 * fields the type knows, so what is stored, exported and imported again is the same object.
 * PURE (the builder imports it through graph.ts). A wrong field is ERR_FLOW_NODE_INVALID naming
 * the node and the field.
 */
import { FLOW_MEDIA_MAX_BYTES, WEBHOOK_FIELDS, type Condition, type FlowMedia, type Interaction, type MenuOption, type MenuSection, type NodeData, type NodeType, type WebhookField } from "../model";
import { isId, isKey, isObject, isString, isText, NAME_MAX, problem, TEXT_MAX, type Problem } from "./problem";

export const MAX_INTERACTIONS = 50;
export const MAX_DELAY_SECONDS = 300;
export const MAX_BUTTONS = 3;
export const MAX_MENU_ROWS = 50;
export const MAX_CONDITIONS = 20;
export const MAX_HEADERS = 20;
export const VARIABLE_PATTERN = /^[A-Za-z_][A-Za-z0-9_]{0,39}$/;
export const HEADER_PATTERN = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

/** Thrown inside a check: which field of the node's data is wrong. */
class Bad extends Error {
  constructor(readonly field: string) {
    super(field);
  }
}
const need = (ok: boolean, field: string) => {
  if (!ok) throw new Bad(field);
};
const optText = (v: unknown, field: string): string | undefined => {
  if (v === undefined || v === null || v === "") return undefined;
  need(isString(v, TEXT_MAX), field);
  return v as string;
};

function media(v: unknown, field: string): FlowMedia {
  need(isObject(v), field);
  const m = v as Record<string, unknown>;
  need(isText(m.path, 500), `${field}.path`);
  need(isText(m.url, 1000), `${field}.url`);
  need(isText(m.mimeType, 120), `${field}.mimeType`);
  need(isText(m.fileName, 255), `${field}.fileName`);
  need(typeof m.size === "number" && Number.isInteger(m.size) && m.size > 0 && m.size <= FLOW_MEDIA_MAX_BYTES, `${field}.size`);
  return { path: m.path as string, url: m.url as string, mimeType: m.mimeType as string, fileName: m.fileName as string, size: m.size as number };
}

function interaction(v: unknown, field: string): Interaction {
  need(isObject(v), field);
  const i = v as Record<string, unknown>;
  if (i.type === "text") {
    need(isText(i.text, TEXT_MAX), `${field}.text`);
    return { type: "text", text: i.text as string };
  }
  if (i.type === "media") {
    const caption = optText(i.caption, `${field}.caption`);
    return { type: "media", media: media(i.media, `${field}.media`), ...(caption !== undefined ? { caption } : {}) };
  }
  if (i.type === "delay") {
    need(typeof i.seconds === "number" && Number.isInteger(i.seconds) && i.seconds >= 1 && i.seconds <= MAX_DELAY_SECONDS, `${field}.seconds`);
    return { type: "delay", seconds: i.seconds as number };
  }
  throw new Bad(`${field}.type`);
}

function option(v: unknown, field: string): MenuOption {
  need(isObject(v), field);
  const o = v as Record<string, unknown>;
  need(isKey(o.id), `${field}.id`);
  need(isText(o.title, NAME_MAX), `${field}.title`);
  const description = optText(o.description, `${field}.description`);
  return { id: o.id as string, title: o.title as string, ...(description !== undefined ? { description } : {}) };
}

function condition(v: unknown, field: string): Condition {
  need(isObject(v), field);
  const c = v as Record<string, unknown>;
  switch (c.type) {
    case "keyword": {
      need(Array.isArray(c.values) && c.values.length > 0 && c.values.length <= 50, `${field}.values`);
      (c.values as unknown[]).forEach((w, i) => need(isText(w, 200), `${field}.values[${i}]`));
      need(c.exact === undefined || typeof c.exact === "boolean", `${field}.exact`);
      return { type: "keyword", values: c.values as string[], ...(c.exact !== undefined ? { exact: c.exact as boolean } : {}) };
    }
    case "regex": {
      need(isText(c.pattern, 200), `${field}.pattern`);
      need(c.flags === undefined || (typeof c.flags === "string" && /^[imsu]{0,4}$/.test(c.flags) && new Set(c.flags).size === c.flags.length), `${field}.flags`);
      try {
        new RegExp(c.pattern as string, (c.flags as string | undefined) ?? "");
      } catch {
        throw new Bad(`${field}.pattern`);
      }
      return { type: "regex", pattern: c.pattern as string, ...(c.flags ? { flags: c.flags as string } : {}) };
    }
    case "businessHours":
      need(typeof c.open === "boolean", `${field}.open`);
      return { type: "businessHours", open: c.open as boolean };
    case "contactField": {
      need(c.field === "name" || c.field === "number" || c.field === "email", `${field}.field`);
      need(["equals", "contains", "empty", "notEmpty"].includes(c.operator as string), `${field}.operator`);
      const needsValue = c.operator === "equals" || c.operator === "contains";
      if (needsValue) need(isText(c.value, 200), `${field}.value`);
      const out = { type: "contactField", field: c.field, operator: c.operator } as Condition & { type: "contactField" };
      return needsValue ? { ...out, value: c.value as string } : out;
    }
    default:
      throw new Bad(`${field}.type`);
  }
}

function webhookUrl(v: unknown): boolean {
  if (!isText(v, 2000)) return false;
  try {
    const u = new URL(v);
    return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
  } catch {
    return false;
  }
}

/** The node's data as the type knows it; throws Bad naming the first wrong field. */
function dataOf(type: NodeType, d: Record<string, unknown>): NodeData {
  need(d.type === type, "data.type");
  need(isText(d.name, NAME_MAX), "data.name");
  const name = d.name as string;
  switch (type) {
    case "start":
      return { type, name };
    case "message": {
      need(Array.isArray(d.interactions) && d.interactions.length > 0 && d.interactions.length <= MAX_INTERACTIONS, "data.interactions");
      return { type, name, interactions: (d.interactions as unknown[]).map((x, i) => interaction(x, `data.interactions[${i}]`)) };
    }
    case "question": {
      need(isText(d.text, TEXT_MAX), "data.text");
      const saveTo = d.saveTo;
      need(saveTo === "contact.name" || saveTo === "contact.email" || (typeof saveTo === "string" && saveTo.startsWith("var.") && VARIABLE_PATTERN.test(saveTo.slice(4))), "data.saveTo");
      need(d.validate === "any" || d.validate === "email" || d.validate === "number", "data.validate");
      const retryMessage = optText(d.retryMessage, "data.retryMessage");
      return { type, name, text: d.text as string, saveTo: saveTo as "contact.name", validate: d.validate as "any", ...(retryMessage !== undefined ? { retryMessage } : {}) };
    }
    case "menu": {
      need(d.style === "buttons" || d.style === "list", "data.style");
      need(isString(d.title ?? "", NAME_MAX), "data.title");
      need(isText(d.text, TEXT_MAX), "data.text");
      const footer = optText(d.footer, "data.footer");
      const buttonText = optText(d.buttonText, "data.buttonText");
      const retryMessage = optText(d.retryMessage, "data.retryMessage");
      need(d.options === undefined || Array.isArray(d.options), "data.options");
      need(d.sections === undefined || Array.isArray(d.sections), "data.sections");
      let options: MenuOption[] = [];
      let sections: MenuSection[] = [];
      if (d.style === "buttons") {
        const raw = (d.options as unknown[] | undefined) ?? [];
        need(raw.length > 0 && raw.length <= MAX_BUTTONS, "data.options");
        options = raw.map((o, i) => option(o, `data.options[${i}]`));
      } else {
        const raw = (d.sections as unknown[] | undefined) ?? [];
        need(raw.length > 0, "data.sections");
        sections = raw.map((s, i) => {
          need(isObject(s), `data.sections[${i}]`);
          const sec = s as Record<string, unknown>;
          need(isString(sec.title ?? "", NAME_MAX), `data.sections[${i}].title`);
          need(Array.isArray(sec.rows) && sec.rows.length > 0, `data.sections[${i}].rows`);
          return { title: (sec.title as string | undefined) ?? "", rows: (sec.rows as unknown[]).map((r, j) => option(r, `data.sections[${i}].rows[${j}]`)) };
        });
        need(sections.reduce((n, s) => n + s.rows.length, 0) <= MAX_MENU_ROWS, "data.sections");
      }
      const ids = [...options, ...sections.flatMap((s) => s.rows)].map((o) => o.id);
      need(new Set(ids).size === ids.length, d.style === "buttons" ? "data.options" : "data.sections");
      return {
        type,
        name,
        style: d.style as "buttons",
        title: (d.title as string | undefined) ?? "",
        text: d.text as string,
        ...(footer !== undefined ? { footer } : {}),
        ...(buttonText !== undefined ? { buttonText } : {}),
        options,
        sections,
        ...(retryMessage !== undefined ? { retryMessage } : {}),
      };
    }
    case "condition": {
      need(d.match === "all" || d.match === "any", "data.match");
      need(Array.isArray(d.conditions) && d.conditions.length > 0 && d.conditions.length <= MAX_CONDITIONS, "data.conditions");
      return { type, name, match: d.match as "all", conditions: (d.conditions as unknown[]).map((c, i) => condition(c, `data.conditions[${i}]`)) };
    }
    case "transfer": {
      const queueId = d.queueId ?? null;
      const userId = d.userId ?? null;
      need(queueId === null || isId(queueId), "data.queueId");
      need(userId === null || isId(userId), "data.userId");
      need(queueId !== null || userId !== null, "data.queueId");
      const message = optText(d.message, "data.message");
      return { type, name, queueId: queueId as number | null, userId: userId as number | null, ...(message !== undefined ? { message } : {}) };
    }
    case "webhook": {
      need(webhookUrl(d.url), "data.url");
      need(d.method === "POST" || d.method === "PUT" || d.method === "GET", "data.method");
      need(Array.isArray(d.fields) && d.fields.every((f) => WEBHOOK_FIELDS.includes(f as WebhookField)) && new Set(d.fields).size === d.fields.length, "data.fields");
      let headers: Record<string, string> | undefined;
      if (d.headers !== undefined && d.headers !== null) {
        need(isObject(d.headers) && Object.keys(d.headers).length <= MAX_HEADERS, "data.headers");
        headers = {};
        for (const [k, v] of Object.entries(d.headers as Record<string, unknown>)) {
          need(HEADER_PATTERN.test(k) && isString(v, 1000) && !/[\r\n]/.test(v as string), `data.headers.${k}`);
          headers[k] = v as string;
        }
      }
      return { type, name, url: d.url as string, method: d.method as "POST", fields: d.fields as WebhookField[], ...(headers ? { headers } : {}) };
    }
    case "end": {
      need(typeof d.close === "boolean", "data.close");
      const message = optText(d.message, "data.message");
      return { type, name, close: d.close as boolean, ...(message !== undefined ? { message } : {}) };
    }
  }
}

/** A node's data checked and copied, or the problem (ERR_FLOW_NODE_INVALID naming node and field). */
export function checkNodeData(type: NodeType, data: unknown, node: string): { data: NodeData } | { problem: Problem } {
  try {
    need(isObject(data), "data");
    return { data: dataOf(type, data as Record<string, unknown>) };
  } catch (err) {
    if (err instanceof Bad) return { problem: problem("ERR_FLOW_NODE_INVALID", { node, field: err.field }) };
    throw err;
  }
}

/** The edge handles a node's type gives it: null is the single unnamed output; [] none (transfer, end). */
export function handlesOf(data: NodeData): Array<string | null> {
  switch (data.type) {
    case "start":
    case "message":
    case "question":
      return [null];
    case "menu":
      return data.style === "buttons" ? data.options.map((o) => o.id) : data.sections.flatMap((s) => s.rows.map((r) => r.id));
    case "condition":
      return ["true", "false"];
    case "webhook":
      return ["success", "error"];
    case "transfer":
    case "end":
      return [];
  }
}
