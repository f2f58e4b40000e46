/**
 * The groups of one session: metadata kept for a while (a group send needs the member list;
 * without a cache Baileys asks WhatsApp for it on every message, README "Recommended"), kept
 * right by the socket's events (groups.upsert, groups.update, group-participants.update) and
 * fetched again when it has aged.
 *
 * Wiring (session side):
 *   const groups = new GroupDirectory({ fetch: (jid) => socket.groupMetadata(jid) });
 *   makeWASocket({ ..., cachedGroupMetadata: groups.cachedGroupMetadata })
 *   ev groups.upsert            → groups.upsert(list)
 *   ev groups.update            → for (const c of groups.onUpdate(ref, updates)) contact(c)   (renamed groups)
 *   ev group-participants.update → groups.onParticipants(event)
 *   normaliseMessage ctx.groups = groups
 * `fetch` should call the session's current socket, so one directory outlives reconnects.
 */
import type { GroupMetadata, GroupParticipant, ParticipantAction } from "@whiskeysockets/baileys";
import { baileys } from "../session/baileys";
import type { ConnectionRef, ContactUpdateEvent } from "@openatende/plugin-sdk";
import type { GroupNames, LidDirectory } from "../ports";
import { externalIdOf, phoneDigitsOf } from "../messages/jids";

export interface GroupDirectoryOptions {
  fetch: (jid: string) => Promise<GroupMetadata>;
  /** How long metadata is trusted without an event saying otherwise (default 5 minutes). */
  ttlMs?: number;
  /** At most this many groups are kept; the least recently stored go first (default 2,000). */
  max?: number;
  now?: () => number;
}

export interface GroupMember {
  externalId: string;
  phone?: string;
  lid?: string;
  admin: boolean;
  superAdmin: boolean;
}

/** fetchedAt of an entry to be fetched again on the next read, whatever the clock says. */
const STALE = Number.NEGATIVE_INFINITY;

interface Entry {
  meta: GroupMetadata;
  fetchedAt: number;
}

export interface ParticipantsEvent {
  id: string;
  participants: Array<GroupParticipant | string>;
  action: ParticipantAction;
}

/** jidNormalizedUser, or the JID as given when it is not one. */
const normal = (jid: string | undefined): string => baileys().jidNormalizedUser(jid) || jid || "";

const participantJid = (p: GroupParticipant | string): string => normal(typeof p === "string" ? p : p.id);

export class GroupDirectory implements GroupNames {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<GroupMetadata>>();
  /** Bumped by every event about a group, so a fetch that raced an event is not trusted for long. */
  private readonly versions = new Map<string, number>();
  private readonly ttlMs: number;
  private readonly max: number;
  private readonly now: () => number;

  constructor(private readonly opts: GroupDirectoryOptions) {
    this.ttlMs = opts.ttlMs ?? 5 * 60_000;
    this.max = opts.max ?? 2000;
    this.now = opts.now ?? Date.now;
  }

  /** What is stored, however old (undefined when nothing is). */
  peek(jid: string): GroupMetadata | undefined {
    return this.entries.get(normal(jid))?.meta;
  }

  /** Fresh metadata: from the cache while it is young, fetched otherwise (concurrent callers share one fetch). */
  async get(jid: string): Promise<GroupMetadata> {
    const id = normal(jid);
    const e = this.entries.get(id);
    if (e && this.now() - e.fetchedAt < this.ttlMs) return e.meta;
    const running = this.inflight.get(id);
    if (running) return running;
    const version = this.versions.get(id) ?? 0;
    const p = this.opts
      .fetch(id)
      .then((meta) => {
        // An event while the answer was on its way may make it stale: keep it, but fetch again next time.
        this.store(meta, (this.versions.get(id) ?? 0) === version ? this.now() : STALE);
        return meta;
      })
      .finally(() => this.inflight.delete(id));
    this.inflight.set(id, p);
    return p;
  }

  /** Baileys' `cachedGroupMetadata` config: answers undefined (Baileys then asks itself) when it cannot fetch. */
  readonly cachedGroupMetadata = async (jid: string): Promise<GroupMetadata | undefined> => {
    try {
      return await this.get(jid);
    } catch {
      return undefined;
    }
  };

  /** The group's subject; a stale one when fetching fails, undefined when there is none. */
  async nameOf(jid: string): Promise<string | undefined> {
    try {
      return (await this.get(jid)).subject || undefined;
    } catch {
      return this.peek(jid)?.subject || undefined;
    }
  }

  /** groups.upsert, groupFetchAllParticipating: metadata as WhatsApp just gave it. */
  upsert(list: GroupMetadata[]): void {
    for (const meta of list) if (meta?.id) this.store(meta, this.now());
  }

  /** groups.update: changed fields merged in; a renamed group answers the contact change to tell the core. */
  onUpdate(ref: ConnectionRef, updates: Array<Partial<GroupMetadata>>): ContactUpdateEvent[] {
    const out: ContactUpdateEvent[] = [];
    for (const u of updates ?? []) {
      if (!u?.id) continue;
      const id = normal(u.id);
      this.bump(id);
      const e = this.entries.get(id);
      if (e) {
        const fields = Object.fromEntries(Object.entries(u).filter(([k, v]) => v !== undefined && !k.startsWith("author")));
        e.meta = { ...e.meta, ...fields, id };
      }
      if (typeof u.subject === "string" && u.subject.trim()) out.push({ ...ref, externalId: id, name: u.subject.trim() });
    }
    return out;
  }

  /** group-participants.update: the member list changed as the event says. */
  onParticipants(evt: ParticipantsEvent): void {
    if (!evt?.id) return;
    const id = normal(evt.id);
    this.bump(id);
    const e = this.entries.get(id);
    if (!e) return;
    const jids = new Set((evt.participants ?? []).map(participantJid));
    const same = (p: GroupParticipant) => jids.has(normal(p.id)) || (!!p.phoneNumber && jids.has(normal(p.phoneNumber))) || (!!p.lid && jids.has(normal(p.lid)));
    let participants = e.meta.participants ?? [];
    switch (evt.action) {
      case "add": {
        const added = (evt.participants ?? []).map((p) => (typeof p === "string" ? { id: p, admin: null } : { ...p, admin: p.admin ?? null }));
        participants = [...participants.filter((p) => !same(p)), ...added];
        break;
      }
      case "remove":
        participants = participants.filter((p) => !same(p));
        break;
      case "promote":
      case "demote":
        participants = participants.map((p) => (same(p) ? { ...p, admin: evt.action === "promote" ? "admin" : null } : p));
        break;
      default:
        // A member's number changed: WhatsApp's own list is the one to trust.
        e.fetchedAt = STALE;
    }
    e.meta = { ...e.meta, participants, size: participants.length };
  }

  /** Forget a group (left, or removed from it). */
  invalidate(jid: string): void {
    const id = normal(jid);
    this.entries.delete(id);
    this.bump(id);
  }

  /** The group's members as contract identities (phone digits when known, "<lid>@lid" otherwise). */
  async participants(jid: string, lids?: LidDirectory): Promise<GroupMember[]> {
    const meta = await this.get(jid);
    const out: GroupMember[] = [];
    for (const p of meta.participants ?? []) {
      const id = normal(p.id);
      let phone = phoneDigitsOf(id) ?? phoneDigitsOf(p.phoneNumber);
      const lid = id.endsWith("@lid") ? id : p.lid ? normal(p.lid) : undefined;
      if (!phone && lid && lids) phone = phoneDigitsOf(await lids.phoneOf(lid));
      out.push({
        externalId: phone ?? externalIdOf(lid ?? id),
        ...(phone ? { phone } : {}),
        ...(lid ? { lid } : {}),
        admin: p.admin === "admin" || p.admin === "superadmin" || !!p.isAdmin,
        superAdmin: p.admin === "superadmin" || !!p.isSuperAdmin,
      });
    }
    return out;
  }

  get size(): number {
    return this.entries.size;
  }

  private store(meta: GroupMetadata, fetchedAt: number): void {
    const id = normal(meta.id);
    this.entries.delete(id);
    this.entries.set(id, { meta: { ...meta, id }, fetchedAt });
    while (this.entries.size > this.max) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
  }

  private bump(id: string): void {
    this.versions.set(id, (this.versions.get(id) ?? 0) + 1);
  }
}
