/**
 * What a session's socket tells, handed to the message side and on to the core, one event at
 * a time per session (a connection's messages reach the core in the order WhatsApp gave them,
 * each batch sorted by time):
 *
 * - messages.upsert, both "notify" (live) and "append" (what arrived while the device was
 *   offline, and the phone's own sends): every message through normaliseMessage, its actions
 *   (inbound, change, contact) to the core. The core's unique key refuses replays; a small set
 *   of ids handed over lately spares it the calls. Undecryptable messages (CIPHERTEXT stubs)
 *   are counted in the health, never handed over: WhatsApp sends the real content again under
 *   the same id after the retry, and the core would refuse it as a replay of the stub.
 *   Reactions arrive as upserted reaction messages (Baileys' messages.reaction repeats them),
 *   so they are taken from the upsert only.
 * - messaging-history.set: LID pairs remembered; messages through normaliseMessage with
 *   source "history" and the connection's import settings, when it imports messages.
 * - messages.update / message-receipt.update: acks (the core moves a status forward only).
 * - lid-mapping.update: remembered; a new pair merges the LID contact into the phone one.
 * - contacts.upsert / contacts.update: names, pictures (a changed one looked up again) and
 *   LID pairs of people the core knows (contacts/sync.ts); the history's contacts are made in
 *   the core when the import settings ask for contacts.
 * - groups.upsert / groups.update / group-participants.update: the group directory kept right
 *   (a renamed group renames its contact).
 */
import type { Contact, GroupMetadata, GroupParticipant, ParticipantAction, WAMessage } from "@whiskeysockets/baileys";
import { ack, changeMessage, inbound, updateContact, type Caller, type ConnectionRef, type ContactUpdateEvent } from "@openatende/plugin-sdk";
import type { AcksFromReceipts, AcksFromUpdates, GroupNames, ImportSettings, InboundAction, LidDirectory, MessageKeyStore, NormaliseMessage, SessionPort } from "../ports";
import { baileys } from "./baileys";
import type { Clock } from "./clock";
import type { HealthCounters } from "./health";
import type { OnEvent } from "./session";

/** The message side's entry points (messages/, contacts/), injected. */
export interface MessageSide {
  normaliseMessage: NormaliseMessage;
  acksFromUpdates: AcksFromUpdates;
  acksFromReceipts: AcksFromReceipts;
  /** contacts.upsert / contacts.update → the core's contact changes (contacts/sync.ts). */
  contactUpdates(ref: ConnectionRef, contacts: Array<Partial<Contact>>, opts: { lids?: LidDirectory; session?: SessionPort }): Promise<ContactSync>;
  /** The history's contacts, under the import settings. */
  historyContactUpdates(ref: ConnectionRef, contacts: Array<Partial<Contact>>, settings: ImportSettings | undefined, opts: { lids?: LidDirectory; session?: SessionPort }): Promise<ContactSync>;
}

/** What the session side needs of the message side's group directory (groups/directory.ts). */
export interface GroupCache extends GroupNames {
  cachedGroupMetadata(jid: string): Promise<GroupMetadata | undefined>;
  upsert(list: GroupMetadata[]): void;
  onUpdate(ref: ConnectionRef, updates: Array<Partial<GroupMetadata>>): ContactUpdateEvent[];
  onParticipants(evt: { id: string; participants: Array<GroupParticipant | string>; action: ParticipantAction }): void;
}

/** Profile pictures kept for a while (contacts/avatars.ts). */
export interface PictureCache {
  get(session: SessionPort, identity: string): Promise<string | null>;
  forget(identity: string): void;
}

export interface ContactSync {
  events: ContactUpdateEvent[];
  avatarsChanged: string[];
}

export interface RouterDeps {
  ref: ConnectionRef;
  core: Caller;
  port: SessionPort;
  lids: LidDirectory;
  keys: MessageKeyStore;
  messages: MessageSide;
  importSettings(): ImportSettings;
  health: HealthCounters;
  recent: RecentIds;
  clock: Clock;
  groups?: GroupCache;
  pictures?: PictureCache;
  /** `externalIdOf` of the message side: the contract identity of a JID. */
  externalIdOf(jid: string): string;
  log: { warn(...a: unknown[]): void };
}

/** Waits between tries of a call to the core that failed for a reason worth trying again. */
const RETRY_MS = [500, 2000, 5000];

/** Message ids handed over lately (bounded; the oldest fall out). */
export class RecentIds {
  private readonly ids = new Set<string>();
  constructor(private readonly max = 5000) {}
  has(id: string): boolean {
    return this.ids.has(id);
  }
  add(id: string): void {
    if (this.ids.has(id)) return;
    this.ids.add(id);
    if (this.ids.size > this.max) this.ids.delete(this.ids.values().next().value as string);
  }
}

function seconds(t: unknown): number {
  const n = typeof t === "object" && t !== null && "toNumber" in t ? (t as { toNumber(): number }).toNumber() : Number(t);
  return Number.isFinite(n) ? n : 0;
}

/** The core refused (a 4xx other than timeout/too many): handing it over again cannot help. */
function refused(err: unknown): boolean {
  const code = Number((err as { code?: unknown })?.code);
  return code >= 400 && code < 500 && code !== 408 && code !== 429;
}

export class EventRouter {
  private tail: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(private readonly d: RouterDeps) {}

  /** Stops handing anything further over (the session stopped). */
  stop(): void {
    this.stopped = true;
  }

  /** A message this session is about to send: its echo (an "append" upsert, fromMe) is ours, not the phone's. */
  expectOwn(id: string): void {
    this.d.recent.add(id);
  }

  /** Waits for what is being handed over (tests, shutdown). */
  idle(): Promise<void> {
    return this.tail;
  }

  attach(on: OnEvent): void {
    const d = this.d;
    on("messages.upsert", ({ messages }) => this.enqueue(() => this.messages(messages, "live")));
    on("messaging-history.set", (h) =>
      this.enqueue(async () => {
        for (const m of h.lidPnMappings ?? []) await this.learnt(m.lid, m.pn);
        const imp = d.importSettings();
        await this.contacts(await d.messages.historyContactUpdates(d.ref, h.contacts ?? [], imp, { lids: d.lids, session: d.port }));
        if (imp.messages || imp.groupMessages) await this.messages(h.messages, "history");
      }),
    );
    on("messages.update", (updates) =>
      this.enqueue(async () => {
        for (const a of d.messages.acksFromUpdates(d.ref, updates)) await this.deliver(`ack ${a.providerMessageId}`, () => ack(d.core, a), () => (d.health.lastAckAt = d.clock.now()));
      }),
    );
    on("message-receipt.update", (receipts) =>
      this.enqueue(async () => {
        for (const a of d.messages.acksFromReceipts(d.ref, receipts)) await this.deliver(`receipt ${a.providerMessageId}`, () => ack(d.core, a), () => (d.health.lastAckAt = d.clock.now()));
      }),
    );
    on("lid-mapping.update", (m) => this.enqueue(() => this.learnt(m.lid, m.pn)));
    const contacts = (list: Array<Partial<Contact>>) => this.enqueue(async () => this.contacts(await d.messages.contactUpdates(d.ref, list, { lids: d.lids, session: d.port })));
    on("contacts.upsert", contacts);
    on("contacts.update", contacts);
    on("groups.upsert", (list) => d.groups?.upsert(list));
    on("groups.update", (updates) => {
      const renamed = d.groups?.onUpdate(d.ref, updates) ?? [];
      if (renamed.length) this.enqueue(() => this.contacts({ events: renamed, avatarsChanged: [] }));
    });
    on("group-participants.update", (u) => d.groups?.onParticipants(u));
  }

  private enqueue(work: () => Promise<void>): void {
    this.tail = this.tail.then(async () => {
      if (this.stopped) return;
      try {
        await work();
      } catch (err) {
        this.d.log.warn(`connection ${this.d.ref.connectionId}: event not handled: ${(err as Error).message}`);
      }
    });
  }

  private async messages(list: WAMessage[], source: "live" | "history"): Promise<void> {
    const sorted = [...list].sort((a, b) => seconds(a.messageTimestamp) - seconds(b.messageTimestamp));
    for (const msg of sorted) {
      if (this.stopped) return;
      await this.message(msg, source);
    }
  }

  private async message(msg: WAMessage, source: "live" | "history"): Promise<void> {
    const d = this.d;
    const id = msg.key?.id;
    if (!id || d.recent.has(id)) return;
    if (msg.messageStubType === baileys().proto.WebMessageInfo.StubType.CIPHERTEXT) {
      d.health.decryptionError(d.clock.now());
      return;
    }
    // Kept for replies, reactions, edits and recipients' retries, whatever the core makes of it.
    // Not waited for: the store answers from its batch at once, and its commit groups the
    // messages that arrive meanwhile (one write, not one each); batches commit in order.
    void d.keys.remember(msg).catch((err: Error) => d.log.warn(`connection ${d.ref.connectionId}: message ${id} not remembered: ${err.message}`));
    await this.handOver(msg, id, source);
  }

  private async handOver(msg: WAMessage, id: string, source: "live" | "history"): Promise<void> {
    const d = this.d;
    let actions: InboundAction[];
    try {
      actions = await d.messages.normaliseMessage(
        { ref: d.ref, session: d.port, lids: d.lids, source, importSettings: d.importSettings(), ...(d.groups ? { groups: d.groups } : {}), now: () => d.clock.now() },
        msg,
      );
    } catch (err) {
      d.log.warn(`connection ${d.ref.connectionId}: message ${id} not understood: ${(err as Error).message}`);
      return;
    }
    let handed = true;
    for (const a of actions) if (!(await this.apply(a, id))) handed = false;
    if (handed) d.recent.add(id);
  }

  /** Hands one action to the core; false when it could not (worth trying on a replay). */
  private apply(a: InboundAction, id: string): Promise<boolean> {
    const d = this.d;
    switch (a.kind) {
      case "inbound":
        return this.deliver(`message ${id}`, () => inbound(d.core, a.message), () => {
          d.health.inbound++;
          d.health.lastInboundAt = d.clock.now();
        });
      case "change":
        return this.deliver(`change of ${a.change.providerMessageId}`, () => changeMessage(d.core, a.change));
      case "contact":
        return this.deliver(`contact ${a.contact.externalId}`, () => updateContact(d.core, a.contact));
      case "skip":
        return Promise.resolve(true);
    }
  }

  private async learnt(lidJid: string, pnJid: string): Promise<void> {
    const d = this.d;
    if (!(await d.lids.remember(lidJid, pnJid))) return;
    const externalId = d.externalIdOf(pnJid);
    const previousExternalId = d.externalIdOf(lidJid);
    if (externalId === previousExternalId) return;
    const evt: ContactUpdateEvent = { ...d.ref, externalId, phone: externalId, previousExternalId };
    await this.deliver(`merge of ${previousExternalId}`, () => updateContact(d.core, evt));
  }

  /** Contact changes to the core; a changed picture is looked up again first. */
  private async contacts(sync: ContactSync): Promise<void> {
    const d = this.d;
    for (const evt of sync.events) await this.deliver(`contact ${evt.externalId}`, () => updateContact(d.core, evt));
    for (const externalId of sync.avatarsChanged) {
      if (!d.pictures) continue;
      d.pictures.forget(externalId);
      const avatarUrl = await d.pictures.get(d.port, externalId);
      await this.deliver(`picture of ${externalId}`, () => updateContact(d.core, { ...d.ref, externalId, avatarUrl }));
    }
  }

  /** Calls the core, again after a pause when it failed for a passing reason; false when it gave up. */
  private async deliver<T>(what: string, call: () => Promise<T>, done?: () => void): Promise<boolean> {
    for (let attempt = 0; ; attempt++) {
      try {
        await call();
        done?.();
        return true;
      } catch (err) {
        if (refused(err)) {
          this.d.log.warn(`connection ${this.d.ref.connectionId}: the core refused ${what}: ${(err as Error).message}`);
          return true;
        }
        if (attempt >= RETRY_MS.length || this.stopped) {
          this.d.log.warn(`connection ${this.d.ref.connectionId}: ${what} not handed over: ${(err as Error).message}`);
          return false;
        }
        await new Promise<void>((r) => this.d.clock.setTimeout(r, RETRY_MS[attempt]));
      }
    }
  }
}
