/**
 * A webhook node: the chosen fields of the conversation sent to the admin's URL under the
 * outbound URL policy (../webhook.ts); "success" on a 2xx answer, else the "error" handle and
 * an error step saying why (a refused address, a failure, the status).
 */
import { callWebhook, greetingAt, webhookPayload, type WebhookValues } from "../webhook";
import type { Turn } from "../turn";
import { go, type Next, type NodeOf } from "./types";

const DEFAULT_ZONE = "America/Sao_Paulo";

async function valuesOf(turn: Turn, fields: string[]): Promise<WebhookValues> {
  const api = turn.deps.api;
  const need = (f: string) => fields.includes(f);
  const [settings, tags, user] = await Promise.all([
    need("greeting") ? api.settings.get({ tenantId: turn.tenantId }).catch(() => ({}) as Record<string, unknown>) : Promise.resolve({} as Record<string, unknown>),
    need("kanban") ? api.tickets.get({ tenantId: turn.tenantId, id: turn.ticket.id }).then((t) => (t.tags ?? []).map((x) => x.name)) : Promise.resolve([] as string[]),
    need("user") && turn.ticket.userId ? api.users.get({ tenantId: turn.tenantId, id: turn.ticket.userId }).catch(() => null) : Promise.resolve(null),
  ]);
  const zone = typeof settings.timezone === "string" ? settings.timezone : DEFAULT_ZONE;
  return {
    name: turn.contact.name,
    greeting: greetingAt(turn.now, zone),
    protocol: turn.ticket.protocol,
    email: turn.contact.email,
    phoneNumber: turn.contact.number,
    kanban: tags,
    user: user?.name ?? null,
    userEmail: null,
  };
}

export async function runWebhook(turn: Turn, node: NodeOf<"webhook">): Promise<Next> {
  const d = node.data;
  const payload = webhookPayload(d.fields, await valuesOf(turn, d.fields), { ticketId: turn.ticket.id, flowId: turn.flow.id });
  const r = await callWebhook(d, payload, turn.deps.outboundAllow);
  if (r.ok) {
    turn.step(node.id, "success", `HTTP ${r.status}`);
    return go("success");
  }
  turn.step(node.id, "error", r.detail);
  return go("error");
}
