/**
 * The internal chat's rows in the plugin's own database, always through the SDK's
 * tenant-scoped repository (another tenant's conversation is simply not found).
 *
 * A message takes the conversation's next `seq` in a transaction whose first statement writes
 * the conversation row: on MariaDB that row lock makes two senders of one conversation run one
 * after the other, on SQLite the single writer does; so seqs are dense from 1, a history page
 * is a range of seqs, and unread counts are `lastSeq − lastReadSeq` with nothing to count.
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, type PluginData, type TenantData } from "@openatende/plugin-sdk";
import { pairKey, pageSeqs, previewOf, type MessageKind } from "./rules";

export interface ConversationRow extends Record<string, unknown> {
  id: number;
  kind: "direct" | "group";
  pairKey: string | null;
  name: string | null;
  imagePath: string | null;
  imageUrl: string | null;
  active: boolean;
  lastSeq: number;
  lastPreview: string | null;
  lastKind: MessageKind | null;
  lastUserId: number | null;
  lastMessageAt: number;
  touchedAt: number;
  createdAt: number;
}

export interface MemberRow extends Record<string, unknown> {
  conversationId: number;
  userId: number;
  lastReadSeq: number;
}

/** What a new message carries (the store adds the conversation, seq, author and time). */
export interface NewMessage {
  kind: MessageKind;
  body: string | null;
  mediaUrl: string | null;
  mediaPath: string | null;
  mimeType: string | null;
  fileName: string | null;
  size: number | null;
  durationMs: number | null;
}

export interface MessageRow extends NewMessage, Record<string, unknown> {
  conversationId: number;
  seq: number;
  userId: number;
  createdAt: number;
}

/** A conversation as one member sees it: with the members and what they have not read. */
export interface Membership {
  conversation: ConversationRow;
  memberIds: number[];
  lastReadSeq: number;
}

/** Ids are random (no auto-increment in the SDK's schema), positive 31-bit, retried on the rare clash. */
const newId = () => randomInt(1, 2 ** 31 - 1);

const fixBool = (c: ConversationRow): ConversationRow => ({ ...c, active: Boolean(Number(c.active)), lastSeq: Number(c.lastSeq), lastMessageAt: Number(c.lastMessageAt), createdAt: Number(c.createdAt) });

export class ChatStore {
  constructor(
    private readonly data: PluginData,
    private readonly now: () => number = Date.now,
  ) {}

  private scope(tenantId: number): TenantData {
    return this.data.forTenant(tenantId);
  }

  async conversation(tenantId: number, id: number): Promise<ConversationRow | null> {
    const c = await this.scope(tenantId).table<ConversationRow>("conversations").get({ id });
    return c ? fixBool(c) : null;
  }

  async direct(tenantId: number, a: number, b: number): Promise<ConversationRow | null> {
    const c = await this.scope(tenantId).table<ConversationRow>("conversations").get({ pairKey: pairKey(a, b) });
    return c ? fixBool(c) : null;
  }

  async memberIds(tenantId: number, conversationId: number): Promise<number[]> {
    const rows = await this.scope(tenantId).table<MemberRow>("members").find({ conversationId }, { orderBy: [["userId", "asc"]] });
    return rows.map((m) => Number(m.userId));
  }

  async member(tenantId: number, conversationId: number, userId: number): Promise<MemberRow | null> {
    return this.scope(tenantId).table<MemberRow>("members").get({ conversationId, userId });
  }

  /** The one-to-one conversation of two users, made (with both as members) the first time. */
  async ensureDirect(tenantId: number, a: number, b: number): Promise<ConversationRow> {
    const found = await this.direct(tenantId, a, b);
    if (found) return found;
    try {
      return await this.scope(tenantId).transaction(async (tx) => {
        const row = await this.insertConversation(tx, { kind: "direct", pairKey: pairKey(a, b), name: null, active: true });
        for (const userId of [a, b]) await tx.table<MemberRow>("members").insert({ conversationId: row.id, userId, lastReadSeq: 0 });
        return row;
      });
    } catch (err) {
      if (!(err instanceof DuplicateRowError)) throw err;
      return (await this.direct(tenantId, a, b))!; // the other user's first message made it at the same time
    }
  }

  private async insertConversation(tx: TenantData, values: Pick<ConversationRow, "kind" | "pairKey" | "name" | "active">): Promise<ConversationRow> {
    const table = tx.table<ConversationRow>("conversations");
    for (let attempt = 0; ; attempt++) {
      const now = this.now();
      const row: ConversationRow = { ...values, id: newId(), imagePath: null, imageUrl: null, lastSeq: 0, lastPreview: null, lastKind: null, lastUserId: null, lastMessageAt: 0, touchedAt: now, createdAt: now };
      if (!(await table.get({ id: row.id }))) {
        await table.insert(row);
        return row;
      }
      if (attempt > 5) throw new Error("no free conversation id");
    }
  }

  /** Every conversation `userId` is a member of. */
  async membershipsOf(tenantId: number, userId: number): Promise<Membership[]> {
    const scope = this.scope(tenantId);
    const mine = await scope.table<MemberRow>("members").find({ userId });
    if (!mine.length) return [];
    const ids = mine.map((m) => Number(m.conversationId));
    const [convs, members] = await Promise.all([scope.table<ConversationRow>("conversations").find({ id: ids }), scope.table<MemberRow>("members").find({ conversationId: ids })]);
    const byConv = new Map<number, number[]>();
    for (const m of members) byConv.set(Number(m.conversationId), [...(byConv.get(Number(m.conversationId)) ?? []), Number(m.userId)]);
    const read = new Map(mine.map((m) => [Number(m.conversationId), Number(m.lastReadSeq)]));
    return convs.map((c) => ({ conversation: fixBool(c), memberIds: (byConv.get(Number(c.id)) ?? []).sort((x, y) => x - y), lastReadSeq: read.get(Number(c.id)) ?? 0 }));
  }

  /** Appends a message: the conversation's next seq; the sender has read it. */
  async append(tenantId: number, conversationId: number, userId: number, msg: NewMessage): Promise<MessageRow> {
    return this.scope(tenantId).transaction(async (tx) => {
      const convs = tx.table<ConversationRow>("conversations");
      const now = this.now();
      await convs.update({ id: conversationId }, { touchedAt: now }); // the lock: first write of the transaction
      const conv = await convs.get({ id: conversationId });
      if (!conv) throw new Error(`conversation ${conversationId} is gone`);
      const seq = Number(conv.lastSeq) + 1;
      const row: MessageRow = { ...msg, conversationId, seq, userId, createdAt: now };
      await tx.table<MessageRow>("messages").insert(row);
      await convs.update({ id: conversationId }, { lastSeq: seq, lastPreview: previewOf(msg.body), lastKind: msg.kind, lastUserId: userId, lastMessageAt: now });
      await tx.table<MemberRow>("members").update({ conversationId, userId }, { lastReadSeq: seq });
      return row;
    });
  }

  /** One page of history before seq `before` (default: the newest), oldest first; `hasMore`: older ones exist. */
  async page(tenantId: number, conversation: ConversationRow, before?: number, limit?: number): Promise<{ messages: MessageRow[]; hasMore: boolean }> {
    const seqs = pageSeqs(conversation.lastSeq, before, limit);
    if (!seqs.length) return { messages: [], hasMore: false };
    const rows = await this.scope(tenantId).table<MessageRow>("messages").find({ conversationId: conversation.id, seq: seqs }, { orderBy: [["seq", "asc"]] });
    return { messages: rows, hasMore: seqs[0] > 1 };
  }

  /** `userId` has read everything of the conversation; answers the seq read up to. */
  async markRead(tenantId: number, conversation: ConversationRow, userId: number): Promise<number> {
    const fresh = await this.conversation(tenantId, conversation.id);
    const seq = fresh?.lastSeq ?? conversation.lastSeq;
    await this.scope(tenantId).table<MemberRow>("members").update({ conversationId: conversation.id, userId }, { lastReadSeq: seq });
    return seq;
  }

  // ---- groups (the admin's /configuracoes/grupos) ----

  async groups(tenantId: number): Promise<Array<ConversationRow & { userIds: number[] }>> {
    const scope = this.scope(tenantId);
    const groups = (await scope.table<ConversationRow>("conversations").find({ kind: "group" }, { orderBy: [["name", "asc"]] })).map(fixBool);
    if (!groups.length) return [];
    const members = await scope.table<MemberRow>("members").find({ conversationId: groups.map((g) => g.id) });
    return groups.map((g) => ({ ...g, userIds: members.filter((m) => Number(m.conversationId) === g.id).map((m) => Number(m.userId)).sort((x, y) => x - y) }));
  }

  async group(tenantId: number, id: number): Promise<ConversationRow | null> {
    const c = await this.conversation(tenantId, id);
    return c && c.kind === "group" ? c : null;
  }

  async createGroup(tenantId: number, input: { name: string; active: boolean; userIds: number[] }): Promise<ConversationRow> {
    return this.scope(tenantId).transaction(async (tx) => {
      const row = await this.insertConversation(tx, { kind: "group", pairKey: null, name: input.name, active: input.active });
      for (const userId of input.userIds) await tx.table<MemberRow>("members").insert({ conversationId: row.id, userId, lastReadSeq: 0 });
      return row;
    });
  }

  /** Changes a group; new members start with nothing unread (they still read its history); answers who was in it before. */
  async updateGroup(tenantId: number, id: number, input: { name?: string; active?: boolean; userIds?: number[]; image?: { path: string; url: string } | null }): Promise<number[]> {
    return this.scope(tenantId).transaction(async (tx) => {
      const convs = tx.table<ConversationRow>("conversations");
      await convs.update({ id }, { touchedAt: this.now() });
      const conv = await convs.get({ id });
      const members = tx.table<MemberRow>("members");
      const before = (await members.find({ conversationId: id })).map((m) => Number(m.userId));
      const values: Partial<ConversationRow> = {};
      if (input.name !== undefined) values.name = input.name;
      if (input.active !== undefined) values.active = input.active;
      if (input.image !== undefined) Object.assign(values, { imagePath: input.image?.path ?? null, imageUrl: input.image?.url ?? null });
      if (Object.keys(values).length) await convs.update({ id }, values);
      if (input.userIds) {
        const gone = before.filter((u) => !input.userIds!.includes(u));
        if (gone.length) await members.delete({ conversationId: id, userId: gone });
        for (const userId of input.userIds.filter((u) => !before.includes(u))) await members.insert({ conversationId: id, userId, lastReadSeq: Number(conv?.lastSeq ?? 0) });
      }
      return before;
    });
  }

  /** Deletes a group with its members and messages; answers who was in it. */
  async deleteGroup(tenantId: number, id: number): Promise<number[]> {
    return this.scope(tenantId).transaction(async (tx) => {
      const before = (await tx.table<MemberRow>("members").find({ conversationId: id })).map((m) => Number(m.userId));
      await tx.table("messages").delete({ conversationId: id });
      await tx.table("members").delete({ conversationId: id });
      await tx.table("conversations").delete({ id });
      return before;
    });
  }

  /** A deleted user leaves every conversation's members (their messages stay, shown by their id). */
  async dropUser(tenantId: number, userId: number): Promise<void> {
    await this.scope(tenantId).table("members").delete({ userId });
  }
}
