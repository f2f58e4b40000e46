/**
 * The plugin's routes and the core's the auto-reply screens and the form sections call, in one
 * place: flows (list, one, create, update, delete, duplicate), a connection's or queue's
 * binding, and the core's queues and users for the selects.
 */
import type { ShellRuntime, UiRequestOptions } from "@openatende/plugin-sdk/ui";
import type { Flow, FlowBindingValue, FlowKind } from "../../model";
import type { FlowBody } from "./rules";

const BASE = "/chatbot-flows";
/** The kinds this screen edits: a chat flow's id on these routes is not found (the builder has its own). */
const AUTO_REPLY = "entry,closure";

export type Api = ShellRuntime["api"];

export function listFlows(api: Api, kinds: FlowKind[], opts: UiRequestOptions = {}): Promise<Flow[]> {
  return api.get<Flow[]>(`${BASE}/flows`, { ...opts, query: { ...opts.query, kind: kinds.join(",") } });
}

export function getFlow(api: Api, id: number): Promise<Flow> {
  return api.get<Flow>(`${BASE}/flows/one`, { query: { id, kind: AUTO_REPLY }, silent: true });
}

export function createFlow(api: Api, body: FlowBody, opts?: UiRequestOptions): Promise<Flow> {
  return api.post<Flow>(`${BASE}/flows`, body, opts);
}

/** Writes the fields given (settings merged over the flow's). */
export function updateFlow(api: Api, id: number, body: Partial<FlowBody>, opts?: UiRequestOptions): Promise<Flow> {
  const { kind: _kind, ...fields } = body;
  return api.put<Flow>(`${BASE}/flows`, { ...fields, id, kind: AUTO_REPLY }, opts);
}

export function deleteFlow(api: Api, id: number): Promise<unknown> {
  return api.delete(`${BASE}/flows`, { query: { id, kind: AUTO_REPLY }, successNotice: true });
}

/** A copy named "<name> (cópia)", switched off. */
export function duplicateFlow(api: Api, id: number): Promise<Flow> {
  return api.post<Flow>(`${BASE}/flows/duplicate`, { id, kind: AUTO_REPLY }, { successNotice: true });
}

export type BindingScope = "connection" | "queue";

export function getBinding(api: Api, scope: BindingScope, targetId: number): Promise<FlowBindingValue> {
  return api.get<FlowBindingValue>(`${BASE}/bindings`, { query: { scope, targetId } });
}

export function putBinding(api: Api, scope: BindingScope, targetId: number, value: FlowBindingValue): Promise<FlowBindingValue> {
  // The form that saves it shows the error once (its own notice), so this call shows none.
  return api.put<FlowBindingValue>(`${BASE}/bindings`, { scope, targetId, ...value }, { silent: true });
}

export interface Named {
  id: number;
  name: string;
}

/** The tenant's queues (active first matter for a hand-off; inactive ones stay shown when chosen). */
export async function listQueues(api: Api): Promise<Array<Named & { active: boolean }>> {
  return api.get<Array<Named & { active: boolean }>>("/queues", { silent: true });
}

/** The tenant's users, every page (the core pages them by at most 200). */
export async function listUsers(api: Api): Promise<Named[]> {
  const all: Named[] = [];
  for (let page = 1; page <= 50; page++) {
    const r = await api.get<{ users: Named[]; hasMore: boolean }>("/users", { query: { pageNumber: page, pageSize: 200 }, silent: true });
    all.push(...r.users.map((u) => ({ id: u.id, name: u.name })));
    if (!r.hasMore) break;
  }
  return all;
}
