/**
 * The chat-flow screens' calls to the plugin's routes (/api/chatbot-flows/…) and to the core's
 * queues and users, through the shell's client (runtime.api: the session, the catalogue's
 * error notices).
 */
import type { ShellRuntime, UiRequestOptions } from "@openatende/plugin-sdk/ui";
import type { Flow, FlowExport, FlowMedia, FlowRun } from "../../model";

const BASE = "/chatbot-flows";

/** A flow as the list shows it (the list route may leave the graph out). */
export type FlowRow = Pick<Flow, "id" | "kind" | "name" | "description" | "active" | "updatedAt" | "createdAt">;

export type FlowInput = Pick<Flow, "kind" | "name" | "description" | "active" | "testPhone" | "settings" | "graph" | "steps">;

export interface Named {
  id: number;
  name: string;
}

/** A file's content as base64 (the media route takes JSON: name, type and data). */
async function base64Of(file: File): Promise<string> {
  const url = await new Promise<string>((resolve, reject) => {
    const r = new FileReader();
    r.onload = () => resolve(String(r.result));
    r.onerror = () => reject(r.error);
    r.readAsDataURL(file);
  });
  return url.slice(url.indexOf(",") + 1);
}

/**
 * The flows routes (src/flows/routes.ts): ids travel in the query or the body, and `kind: "chat"`
 * makes a flow of another kind this family's not-found (ERR_FLOW_NOT_FOUND).
 */
export function flowsApi(rt: ShellRuntime) {
  const api = rt.api;
  const kind = "chat";
  return {
    list: (opts?: UiRequestOptions) => api.get<FlowRow[]>(`${BASE}/flows`, { ...opts, query: { kind } }),
    get: (id: number, opts?: UiRequestOptions) => api.get<Flow>(`${BASE}/flows/one`, { ...opts, query: { id, kind } }),
    create: (body: Partial<FlowInput>, opts?: UiRequestOptions) => api.post<Flow>(`${BASE}/flows`, { ...body, kind }, opts),
    update: (id: number, body: Partial<FlowInput>, opts?: UiRequestOptions) => api.put<Flow>(`${BASE}/flows`, { ...body, id, kind }, opts),
    remove: (id: number, opts?: UiRequestOptions) => api.delete(`${BASE}/flows`, { ...opts, query: { id, kind } }),
    duplicate: (id: number, opts?: UiRequestOptions) => api.post<Flow>(`${BASE}/flows/duplicate`, { id, kind }, opts),
    export: (id: number, opts?: UiRequestOptions) => api.get<FlowExport>(`${BASE}/flows/export`, { ...opts, query: { id, kind } }),
    import: (doc: unknown, opts?: UiRequestOptions) => api.post<Flow>(`${BASE}/flows/import`, doc, { ...opts, query: { kind } }),
    runs: (id: number, opts?: UiRequestOptions) => api.get<FlowRun[]>(`${BASE}/flows/runs`, { ...opts, query: { id } }),
    uploadMedia: async (file: File, opts?: UiRequestOptions) =>
      api.post<FlowMedia>(`${BASE}/media`, { file: { fileName: file.name, mimeType: file.type || "application/octet-stream", data: await base64Of(file) } }, opts),
  };
}

const USERS_PAGE = 200;

/** The tenant's queues and users for the transfer and hand-off pickers (every page of users). */
export async function loadTargets(rt: ShellRuntime): Promise<{ queues: Named[]; users: Named[] }> {
  const queues = rt.api.get<Named[]>("/queues", { silent: true }).catch(() => [] as Named[]);
  const users = (async () => {
    const all: Named[] = [];
    for (let page = 1; page <= 50; page++) {
      const r = await rt.api.get<{ users: Named[]; hasMore: boolean }>("/users", { query: { pageNumber: page, pageSize: USERS_PAGE }, silent: true });
      all.push(...r.users.map((u) => ({ id: u.id, name: u.name })));
      if (!r.hasMore) break;
    }
    return all;
  })().catch(() => [] as Named[]);
  const [q, u] = await Promise.all([queues, users]);
  return { queues: q.map((x) => ({ id: x.id, name: x.name })), users: u };
}

/** Saves a JSON document as a file the browser downloads. */
export function downloadJson(fileName: string, value: unknown): void {
  const blob = new Blob([JSON.stringify(value, null, 2)], { type: "application/json" });
  const url = URL.createObjectURL(blob);
  const a = document.createElement("a");
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** A file name from a flow's name (letters, digits, dashes). */
export const exportFileName = (name: string) => `${name.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "") || "flow"}.json`;
