/**
 * The chat's routes (/api/chat-interno/…, any signed-in user of a PLUS tenant): the
 * conversation list with unread counts, history pages, sending texts, images (a file or an
 * image URL) and audio, and marking read. A conversation is named by `userId` (the one-to-one
 * chat with that user of the tenant) or `groupId` (a group the caller is a member of); another
 * tenant's user answers the core's ERR_USER_NOT_FOUND, a group of another tenant or one the
 * caller is not in ERR_INTERNAL_CHAT_GROUP_NOT_FOUND (404 both).
 */
import { coreApi, PluginError, uploadPlatformFile } from "@openatende/plugin-sdk";
import { CHAT_FILE_MAX_BYTES, checkAudio, decodeUpload, fileKindOf, imageUrlOf, invalidMessage, PAGE_MAX, textOf } from "./rules";
import { callerOf, EVENTS, groupNotFound, keyOf, messageView, pushTo, storeOf, type Caller, type Ctx } from "./context";
import type { ConversationRow, NewMessage } from "./store";

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const target = { userId: { ...id, optional: true }, groupId: { ...id, optional: true } };
const file = {
  type: "object",
  strict: "remove",
  props: {
    fileName: { type: "string", trim: true, empty: false, max: 255 },
    mimeType: { type: "string", trim: true, empty: false, max: 120 },
    data: { type: "string", empty: true },
  },
} as const;

const route = (rest: string) => ({ rest, access: "user" as const, tier: "PLUS" as const });

type Target = { userId?: number; groupId?: number };

/** Where a route acts: the conversation (null: a one-to-one chat not started yet) and who hears of it. */
interface Resolved {
  conversation: ConversationRow | null;
  memberIds: number[];
  peerId?: number;
}

/** Exactly one of userId / groupId. */
function oneTarget(p: Target): void {
  if ((p.userId === undefined) === (p.groupId === undefined)) throw new PluginError("ERR_VALIDATION", 400, { field: "userId", rule: "required" });
}

async function resolve(ctx: Ctx<Target>, me: Caller, create: boolean): Promise<Resolved> {
  oneTarget(ctx.params);
  const store = storeOf(ctx);
  if (ctx.params.groupId !== undefined) {
    const group = await store.group(me.tenantId, ctx.params.groupId);
    if (!group || !(await store.member(me.tenantId, group.id, me.userId))) throw groupNotFound(ctx.params.groupId);
    return { conversation: group, memberIds: await store.memberIds(me.tenantId, group.id) };
  }
  const peerId = ctx.params.userId!;
  if (peerId === me.userId) throw new PluginError("ERR_VALIDATION", 400, { field: "userId", rule: "notSelf" });
  await coreApi(ctx).users.get({ tenantId: me.tenantId, id: peerId }); // another tenant's or a deleted user: ERR_USER_NOT_FOUND
  const conversation = create ? await store.ensureDirect(me.tenantId, me.userId, peerId) : await store.direct(me.tenantId, me.userId, peerId);
  return { conversation, memberIds: [me.userId, peerId], peerId };
}

/** Appends to the conversation (made now for a first one-to-one message) and tells its members. */
async function send(ctx: Ctx<Target>, me: Caller, msg: NewMessage, checked?: Resolved) {
  const where = checked?.conversation ? checked : await resolve(ctx, me, true);
  const conv = where.conversation!;
  if (conv.kind === "group" && !conv.active) throw new PluginError("ERR_INTERNAL_CHAT_GROUP_INACTIVE", 409, { id: conv.id });
  const row = await storeOf(ctx).append(me.tenantId, conv.id, me.userId, msg);
  const message = messageView(row);
  await pushTo(ctx, me.tenantId, where.memberIds, EVENTS.message, { conversation: keyOf(conv), message });
  return message;
}

const media = (over: Partial<NewMessage>): NewMessage => ({ kind: "text", body: null, mediaUrl: null, mediaPath: null, mimeType: null, fileName: null, size: null, durationMs: null, ...over });

export const chatActions = {
  /** The tenant's users (for the chat list and the group form): id, name, profile, online. */
  users: {
    ...route("GET /chat-interno/users"),
    async handler(ctx: Ctx) {
      const me = callerOf(ctx);
      const users = await coreApi(ctx).users.list({ tenantId: me.tenantId });
      return users.map((u) => ({ id: u.id, name: u.name, profile: u.profile, online: u.online })).sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
    },
  },

  /** The caller's chats: every other user of the tenant (with the one-to-one chat's unread count and last message) and the groups they are in. */
  conversations: {
    ...route("GET /chat-interno/conversations"),
    async handler(ctx: Ctx) {
      const me = callerOf(ctx);
      const [users, mine] = await Promise.all([coreApi(ctx).users.list({ tenantId: me.tenantId }), storeOf(ctx).membershipsOf(me.tenantId, me.userId)]);
      const last = (c: ConversationRow) => (c.lastSeq ? { kind: c.lastKind ?? "text", preview: c.lastPreview ?? "", userId: c.lastUserId === null ? null : Number(c.lastUserId), at: new Date(Number(c.lastMessageAt)).toISOString() } : null);
      const direct = new Map<number, { unread: number; last: ReturnType<typeof last> }>();
      const groups = [];
      for (const m of mine) {
        const unread = Math.max(0, m.conversation.lastSeq - m.lastReadSeq);
        if (m.conversation.kind === "direct") {
          const key = keyOf(m.conversation);
          if (key.kind === "direct") direct.set(key.userIds[0] === me.userId ? key.userIds[1] : key.userIds[0], { unread, last: last(m.conversation) });
        } else groups.push({ id: m.conversation.id, name: m.conversation.name ?? "", imageUrl: m.conversation.imageUrl, active: m.conversation.active, userIds: m.memberIds, unread, last: last(m.conversation) });
      }
      const people = users
        .filter((u) => u.id !== me.userId)
        .map((u) => ({ id: u.id, name: u.name, profile: u.profile, online: u.online, unread: direct.get(u.id)?.unread ?? 0, last: direct.get(u.id)?.last ?? null }))
        .sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
      groups.sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
      return { users: people, groups };
    },
  },

  /** One page of a conversation's history, oldest first: `before` a seq (default: the newest), `limit` ≤ 100. */
  messages: {
    ...route("GET /chat-interno/messages"),
    params: { ...target, before: { ...id, optional: true }, limit: { type: "number", integer: true, min: 1, max: PAGE_MAX, convert: true, optional: true } },
    async handler(ctx: Ctx<Target & { before?: number; limit?: number }>) {
      const me = callerOf(ctx);
      const { conversation } = await resolve(ctx, me, false);
      if (!conversation) return { messages: [], hasMore: false, lastSeq: 0 };
      const page = await storeOf(ctx).page(me.tenantId, conversation, ctx.params.before, ctx.params.limit);
      return { messages: page.messages.map(messageView), hasMore: page.hasMore, lastSeq: conversation.lastSeq, active: conversation.active };
    },
  },

  /** A text, or an image by its URL (with the text as its caption). */
  send: {
    ...route("POST /chat-interno/messages"),
    params: { ...target, body: { type: "any", optional: true }, imageUrl: { type: "any", optional: true } },
    async handler(ctx: Ctx<Target & { body?: unknown; imageUrl?: unknown }>) {
      const me = callerOf(ctx);
      oneTarget(ctx.params);
      const text = textOf(ctx.params.body === "" && ctx.params.imageUrl !== undefined ? undefined : ctx.params.body);
      if (ctx.params.imageUrl !== undefined && ctx.params.imageUrl !== null) return send(ctx, me, media({ kind: "image", body: text ?? null, mediaUrl: imageUrlOf(ctx.params.imageUrl) }));
      if (text === undefined) throw invalidMessage();
      return send(ctx, me, media({ kind: "text", body: text }));
    },
  },

  /** An image or an audio file (base64 in the body, ≤ 10 MB), stored among the tenant's files; audio also declares its duration. */
  sendFile: {
    ...route("POST /chat-interno/media"),
    params: { ...target, file, durationMs: { type: "number", integer: true, min: 0, max: 24 * 3600 * 1000, convert: true, optional: true }, body: { type: "any", optional: true } },
    async handler(ctx: Ctx<Target & { file: { fileName: string; mimeType: string; data: string }; durationMs?: number; body?: unknown }>) {
      const me = callerOf(ctx);
      oneTarget(ctx.params);
      const f = ctx.params.file;
      const kind = fileKindOf(f.mimeType);
      const caption = kind === "image" && ctx.params.body !== "" ? textOf(ctx.params.body) : undefined;
      const bytes = decodeUpload(f.data, CHAT_FILE_MAX_BYTES);
      if (kind === "audio") checkAudio(bytes, ctx.params.durationMs, f.mimeType);
      const where = await resolve(ctx, me, true); // before storing: nothing is stored for a conversation the caller cannot write to
      if (where.conversation?.kind === "group" && !where.conversation.active) throw new PluginError("ERR_INTERNAL_CHAT_GROUP_INACTIVE", 409, { id: where.conversation.id });
      const stored = await uploadPlatformFile(ctx, { tenantId: me.tenantId, data: bytes, mimeType: f.mimeType, fileName: f.fileName, maxBytes: CHAT_FILE_MAX_BYTES });
      return send(
        ctx,
        me,
        media({ kind, body: caption ?? null, mediaUrl: stored.url, mediaPath: stored.path, mimeType: stored.mimeType, fileName: stored.fileName, size: stored.size, durationMs: kind === "audio" ? ctx.params.durationMs! : null }),
        where,
      );
    },
  },

  /** The caller has read the conversation up to its newest message (their other tabs hear it). */
  read: {
    ...route("POST /chat-interno/read"),
    params: target,
    async handler(ctx: Ctx<Target>) {
      const me = callerOf(ctx);
      const { conversation } = await resolve(ctx, me, false);
      if (!conversation) return { lastReadSeq: 0 };
      const seq = await storeOf(ctx).markRead(me.tenantId, conversation, me.userId);
      await pushTo(ctx, me.tenantId, [me.userId], EVENTS.read, { conversation: keyOf(conversation), lastReadSeq: seq });
      return { lastReadSeq: seq };
    },
  },
};
