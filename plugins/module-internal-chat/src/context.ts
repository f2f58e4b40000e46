/**
 * What the routes share: the caller (from the session the gateway put in ctx.meta), the store
 * the service opened, how a conversation is named on the wire, and the realtime pushes.
 */
import type { Context } from "moleculer";
import { coreApi, PluginError } from "@openatende/plugin-sdk";
import type { ChatStore, ConversationRow, MessageRow } from "./store";

export type Meta = { user?: { id: number; tenantId: number; profile: string; isMaster?: boolean; isSupport?: boolean } };
export type Ctx<P = Record<string, never>> = Context<P, Meta>;

/** The realtime events the UI hears (runtime.realtime.on): a new message, a read, a group changed. */
export const EVENTS = { message: "message", read: "read", groups: "groups.changed" } as const;

export interface Caller {
  tenantId: number;
  userId: number;
}

export function callerOf(ctx: Ctx<unknown>): Caller {
  const u = ctx.meta.user;
  if (!u?.tenantId) throw new PluginError("ERR_SESSION_REQUIRED", 401);
  return { tenantId: u.tenantId, userId: u.id };
}

interface Self {
  store: ChatStore;
}
export const storeOf = (ctx: Ctx<unknown>): ChatStore => (ctx.service as unknown as Self).store;

/** A conversation as the wire names it: the two users of a one-to-one chat, or the group. */
export type ConversationKey = { kind: "direct"; userIds: [number, number] } | { kind: "group"; groupId: number };

export function keyOf(c: ConversationRow): ConversationKey {
  if (c.kind === "group") return { kind: "group", groupId: c.id };
  const [a, b] = String(c.pairKey).split(":").map(Number);
  return { kind: "direct", userIds: [a, b] };
}

export function messageView(m: MessageRow) {
  return {
    seq: Number(m.seq),
    userId: Number(m.userId),
    kind: m.kind,
    body: m.body ?? null,
    mediaUrl: m.mediaUrl ?? null,
    mimeType: m.mimeType ?? null,
    fileName: m.fileName ?? null,
    size: m.size === null || m.size === undefined ? null : Number(m.size),
    durationMs: m.durationMs === null || m.durationMs === undefined ? null : Number(m.durationMs),
    createdAt: new Date(Number(m.createdAt)).toISOString(),
  };
}

export function groupView(g: ConversationRow & { userIds?: number[] }) {
  return { id: g.id, name: g.name ?? "", imageUrl: g.imageUrl ?? null, active: g.active, ...(g.userIds ? { userIds: g.userIds } : {}), createdAt: new Date(Number(g.createdAt)).toISOString() };
}

/** Pushes to some users of the tenant; a failed push never fails the change that made it. */
export async function pushTo(ctx: Ctx<unknown>, tenantId: number, users: number[], event: string, payload: unknown): Promise<void> {
  const to = [...new Set(users)].slice(0, 1000);
  if (!to.length) return;
  try {
    await coreApi(ctx).realtime.push({ tenantId, event, payload, to: { users: to } });
  } catch (err) {
    ctx.service?.logger.warn(`internal chat: ${event} not pushed to tenant ${tenantId}: ${(err as Error).message}`);
  }
}

export const groupNotFound = (id: number) => new PluginError("ERR_INTERNAL_CHAT_GROUP_NOT_FOUND", 404, { id });
