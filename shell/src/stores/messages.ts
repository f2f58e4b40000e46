import { makeAutoObservable, observable, observableRef, runInAction } from "mobx";
import type { UiApi } from "@openatende/plugin-sdk/ui";
import type { AppMessageEvent, MessageMedia as WireMedia, MessageParticipant, MessageStatus, MessageView, TicketNoteEvent, TicketNoteView } from "@openatende/contracts/realtime";

/**
 * The messages of the tickets the user opens (spec §4 "Messages"): paged GET
 * /messages/{ticketId} (newest page first, each page oldest first), merged by id without
 * duplicates and sorted by time; live `{tenant}:appMessage` events; an agent's message shows
 * at once ("sending") and turns into the stored one, or stays on screen as failed with a
 * retry. Ticket notes (`{tenant}:ticketNote`) are kept here too.
 */

/** The wire types are the core's (@openatende/contracts/realtime). */
export type { MessageParticipant, MessageStatus };

export interface MessageMedia extends WireMedia {
  /** A file of this browser not yet sent (an object URL; no auth needed). */
  local?: boolean;
}

/** A message as the API and `appMessage` carry it, as far as the screen uses it. */
export interface Message extends Omit<MessageView, "contactId" | "connectionId" | "providerId" | "media"> {
  media: MessageMedia | null;
  /** Set on messages of this browser not stored yet. */
  local?: { group: string; state: "sending" | "failed"; error?: string };
}

export interface OutgoingMedia {
  fileName: string;
  mimeType: string;
  /** base64 of the file. */
  data: string;
  size: number;
  previewUrl?: string;
}

export type TicketNote = TicketNoteView;

export const MESSAGES_PAGE_SIZE = 30;

/** Merges messages by id (the newer copy wins), drops duplicates, sorts by time then id. */
export function mergeMessages(list: readonly Message[], incoming: readonly Message[]): Message[] {
  const byId = new Map<number, Message>();
  for (const m of list) byId.set(m.id, m);
  for (const m of incoming) byId.set(m.id, m);
  return [...byId.values()].sort(compareMessages);
}

export function compareMessages(a: Message, b: Message): number {
  // Local messages (negative ids) were written last: they stay at the end until stored.
  const la = a.id < 0;
  const lb = b.id < 0;
  if (la !== lb) return la ? 1 : -1;
  return a.timestamp - b.timestamp || a.id - b.id;
}

/** Normalises a message as the API or the socket sends it. */
export function toMessage(raw: any): Message {
  return {
    id: Number(raw.id),
    ticketId: Number(raw.ticketId),
    fromMe: !!raw.fromMe,
    userId: raw.userId ?? null,
    body: raw.body ?? null,
    mediaType: raw.mediaType ?? null,
    media: raw.media ?? null,
    status: raw.status ?? "received",
    failReason: raw.failReason ?? null,
    quotedMsgId: raw.quotedMsgId ?? null,
    reactions: Array.isArray(raw.reactions) ? raw.reactions : [],
    participant: raw.participant && typeof raw.participant.externalId === "string" ? raw.participant : null,
    isEdited: !!raw.isEdited,
    isDeleted: !!raw.isDeleted,
    isForwarded: !!raw.isForwarded,
    read: !!raw.read,
    timestamp: Number(raw.timestamp) || new Date(raw.createdAt ?? Date.now()).getTime(),
    createdAt: typeof raw.createdAt === "string" ? raw.createdAt : new Date(raw.createdAt ?? Date.now()).toISOString(),
  };
}

export class Thread {
  messages: Message[] = [];
  hasMore = false;
  page = 0;
  loading = false;
  loadingOlder = false;
  loaded = false;
  failed = false;
  notes: TicketNote[] = [];
  notesLoaded = false;

  constructor(readonly ticketId: number) {
    makeAutoObservable(this, { messages: observableRef, notes: observableRef, ticketId: false });
  }

  merge(incoming: Message[]) {
    this.messages = mergeMessages(this.messages, incoming);
  }

  /** A stored message of this user replaces the local copy it came from (socket before the POST answer). */
  settleLocal(stored: Message) {
    const idx = this.messages.findIndex(
      (m) => m.local?.state === "sending" && (m.body ?? "") === (stored.body ?? "") && (m.media?.fileName ?? null) === (stored.media?.fileName ?? null),
    );
    if (idx >= 0) this.messages = this.messages.filter((_, i) => i !== idx);
  }

  dropGroup(group: string) {
    this.messages = this.messages.filter((m) => m.local?.group !== group);
  }

  markGroup(group: string, local: Message["local"]) {
    this.messages = this.messages.map((m) => (m.local?.group === group ? { ...m, local } : m));
  }

  get byId(): Map<number, Message> {
    return new Map(this.messages.map((m) => [m.id, m]));
  }
}

interface PageAnswer {
  messages: any[];
  hasMore: boolean;
  pageNumber: number;
}

interface Pending {
  ticketId: number;
  body: string;
  quotedMsgId?: number;
  medias: OutgoingMedia[];
}

export class MessagesStore {
  readonly threads = observable.map<number, Thread>();
  private pending = new Map<string, Pending>();
  private seq = 0;

  constructor(private api: Pick<UiApi, "get" | "post" | "delete">, private me: () => number | null) {
    makeAutoObservable<MessagesStore, "api" | "me" | "pending" | "seq">(this, { api: false, me: false, pending: false, seq: false, threads: false }, { autoBind: true });
  }

  thread(ticketId: number): Thread {
    let t = this.threads.get(ticketId);
    if (!t) {
      t = new Thread(ticketId);
      this.threads.set(ticketId, t);
      // Keep the last few tickets' messages in memory only.
      if (this.threads.size > 30) {
        const oldest = this.threads.keys().next().value;
        if (oldest !== undefined && oldest !== ticketId) this.threads.delete(oldest);
      }
    }
    return t;
  }

  /** The newest page (opening a ticket; the API marks it read for the ticket's holder). */
  async load(ticketId: number, opts: { watch?: boolean } = {}) {
    const t = this.thread(ticketId);
    t.loading = true;
    t.failed = false;
    try {
      // Watching (spec §4): the API reads nothing and sends no receipt, even for the holder.
      const r = await this.api.get<PageAnswer>(`/messages/${ticketId}`, { query: { pageNumber: 1, pageSize: MESSAGES_PAGE_SIZE, watch: opts.watch || undefined } });
      runInAction(() => {
        t.merge(r.messages.map(toMessage));
        t.hasMore = r.hasMore;
        t.page = 1;
        t.loaded = true;
      });
    } catch {
      runInAction(() => (t.failed = true));
    } finally {
      runInAction(() => (t.loading = false));
    }
  }

  /** The page before the oldest shown (scrolled to the top). */
  async loadOlder(ticketId: number) {
    const t = this.thread(ticketId);
    if (!t.loaded || !t.hasMore || t.loadingOlder || t.loading) return;
    t.loadingOlder = true;
    try {
      const r = await this.api.get<PageAnswer>(`/messages/${ticketId}`, { query: { pageNumber: t.page + 1, pageSize: MESSAGES_PAGE_SIZE } });
      runInAction(() => {
        t.merge(r.messages.map(toMessage));
        t.hasMore = r.hasMore;
        t.page += 1;
      });
    } catch {
      /* the notice is shown */
    } finally {
      runInAction(() => (t.loadingOlder = false));
    }
  }

  /** A `{tenant}:appMessage` event. */
  onAppMessage(e: AppMessageEvent) {
    if (!e?.message) return;
    const m = toMessage(e.message);
    const t = this.threads.get(m.ticketId || e.ticket?.id || 0);
    if (!t) return;
    if (e.action === "delete") {
      t.messages = t.messages.filter((x) => x.id !== m.id);
      return;
    }
    if (m.fromMe && m.userId === this.me() && !t.messages.some((x) => x.id === m.id)) t.settleLocal(m);
    t.merge([m]);
  }

  /**
   * Sends text and/or files: shown at once as local messages (one per file, the text on the
   * first, as the API stores them), replaced by the stored ones, or marked failed.
   */
  async send(ticketId: number, o: { body: string; quotedMsgId?: number; medias?: OutgoingMedia[] }): Promise<boolean> {
    const group = `g${++this.seq}`;
    const job: Pending = { ticketId, body: o.body, quotedMsgId: o.quotedMsgId, medias: o.medias ?? [] };
    this.pending.set(group, job);
    this.showLocal(group, job);
    return this.run(group);
  }

  retry(group: string) {
    const job = this.pending.get(group);
    if (!job) return;
    this.thread(job.ticketId).markGroup(group, { group, state: "sending" });
    void this.run(group);
  }

  discard(group: string) {
    const job = this.pending.get(group);
    if (!job) return;
    this.pending.delete(group);
    this.thread(job.ticketId).dropGroup(group);
  }

  private showLocal(group: string, job: Pending) {
    const now = Date.now();
    const me = this.me();
    const base = (i: number): Message => ({
      id: -(now * 100 + this.seq * 10 + i),
      ticketId: job.ticketId,
      fromMe: true,
      userId: me,
      body: null,
      mediaType: null,
      media: null,
      status: "pending",
      failReason: null,
      quotedMsgId: job.quotedMsgId ?? null,
      reactions: [],
      participant: null,
      isEdited: false,
      isDeleted: false,
      isForwarded: false,
      read: true,
      timestamp: now + i,
      createdAt: new Date(now).toISOString(),
      local: { group, state: "sending" },
    });
    const out: Message[] = [];
    if (!job.medias.length) out.push({ ...base(0), body: job.body });
    job.medias.forEach((f, i) => {
      const kind = f.mimeType.startsWith("image/") ? "image" : f.mimeType.startsWith("audio/") ? "audio" : f.mimeType.startsWith("video/") ? "video" : "document";
      out.push({ ...base(i), body: i === 0 && job.body ? job.body : null, mediaType: kind, media: { fileName: f.fileName, mimeType: f.mimeType, size: f.size, url: f.previewUrl ?? "", local: true } });
    });
    this.thread(job.ticketId).merge(out);
  }

  private async run(group: string): Promise<boolean> {
    const job = this.pending.get(group);
    if (!job) return false;
    const t = this.thread(job.ticketId);
    try {
      const payload: Record<string, unknown> = { body: job.body };
      if (job.quotedMsgId) payload.quotedMsgId = job.quotedMsgId;
      if (job.medias.length) payload.medias = job.medias.map((m) => ({ fileName: m.fileName, mimeType: m.mimeType, data: m.data }));
      const r = await this.api.post<any>(`/messages/${job.ticketId}`, payload, { silent: true });
      const stored = (Array.isArray(r?.messages) ? r.messages : [r]).map(toMessage);
      runInAction(() => {
        t.dropGroup(group);
        t.merge(stored);
      });
      this.pending.delete(group);
      return true;
    } catch (e) {
      const err = e as { title?: string; detail?: string; message?: string };
      runInAction(() => t.markGroup(group, { group, state: "failed", error: [err.title, err.detail].filter(Boolean).join(": ") || err.message }));
      return false;
    }
  }

  private apply(raw: any) {
    const m = toMessage(raw);
    this.threads.get(m.ticketId)?.merge([m]);
    return m;
  }

  async edit(id: number, body: string) {
    return this.apply(await this.api.post(`/messagesEdit/${id}`, { body }));
  }

  async remove(id: number) {
    return this.apply(await this.api.delete(`/messages/${id}`));
  }

  async react(id: number, emoji: string) {
    return this.apply(await this.api.post(`/messagesReaction/${id}`, { emoji }));
  }

  async forward(messageIds: number[], contactId: number): Promise<{ ticketId: number }> {
    return this.api.post<{ ticketId: number }>("/forward-messages", { messageIds, contactId });
  }

  // --- notes ------------------------------------------------------------------------------
  async loadNotes(ticketId: number) {
    const t = this.thread(ticketId);
    const rows = await this.api.get<TicketNote[]>(`/tickets/${ticketId}/notes`);
    runInAction(() => {
      t.notes = mergeNotes(t.notes, rows);
      t.notesLoaded = true;
    });
  }

  async addNote(ticketId: number, body: string) {
    const n = await this.api.post<TicketNote>(`/tickets/${ticketId}/notes`, { body });
    const t = this.thread(ticketId);
    runInAction(() => (t.notes = mergeNotes(t.notes, [n])));
    return n;
  }

  /** A `{tenant}:ticketNote` event. */
  onTicketNote(e: TicketNoteEvent) {
    const t = this.threads.get(Number(e?.ticketId));
    if (t && e.note) t.notes = mergeNotes(t.notes, [e.note]);
  }
}

export function mergeNotes(list: readonly TicketNote[], incoming: readonly TicketNote[]): TicketNote[] {
  const byId = new Map<number, TicketNote>();
  for (const n of [...list, ...incoming]) byId.set(n.id, n);
  return [...byId.values()].sort((a, b) => a.id - b.id);
}
