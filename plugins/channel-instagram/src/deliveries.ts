/**
 * Meta's webhook deliveries for Instagram: checked, routed and handed to the core while Meta
 * waits (Meta retries anything not answered 2xx, for days; duplicates and out-of-order
 * deliveries happen, so every step is safe to repeat).
 *
 * A delivery comes to one connection's URL and must be signed with that connection's app
 * secret (else 401, nothing read). Each event belongs to the connection serving the Instagram
 * account its entry names: the URL's own connection, or another connection that serves that
 * account *and* holds the very app secret that signed it (the account index, store.ts). An
 * event for any other account is dropped with a log line: tenant A's account never lands in B.
 *
 * The core stores each mid once; the same mid delivered twice at once is handed over once.
 */
import { Errors } from "moleculer";
import {
  ack,
  changeMessage,
  hmacSignatureValid,
  inbound,
  PluginError,
  resolveToken,
  sameSecret,
  updateContact,
  type Caller,
  type ConnectionRef,
  type InboundMessage,
  type ResolvedToken,
} from "@openatende/plugin-sdk";
import { storeKeyOf, type InstagramChannel } from "./channel";
import { needsCredentials } from "./failures";
import { takeFile } from "./files";
import { GraphError } from "./graph";
import { eventsOf, PayloadError, type IgEvent } from "./normalise";
import { readSettings, type InstagramSettings } from "./settings";
import type { StoredProfile } from "./store";

export const SIGNATURE_HEADER = "x-hub-signature-256";

export type Outcome = "stored" | "duplicate" | "changed" | "acked" | "contact" | "ignored";
export interface DeliveryAnswer {
  ok: true;
  results: Outcome[];
}

interface Target {
  ref: ConnectionRef;
  settings: InstagramSettings;
}

const TAKES_NO_WEBHOOK = () => new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");

export class Deliveries {
  private readonly inFlight = new Map<string, Promise<Outcome>>();

  constructor(
    private readonly channel: InstagramChannel,
    private readonly core: Caller,
  ) {}

  /** The connection's settings as the webhook needs them: the live ones, else the stored ones. */
  settingsOf(r: ResolvedToken): InstagramSettings | null {
    const live = this.channel.liveOf(r);
    if (live) return live.settings;
    const read = readSettings(r.settings);
    return read.ok ? read.settings : null;
  }

  /** The GET handshake: the challenge to echo, or 403. */
  verify(r: ResolvedToken, query: Record<string, unknown>): string {
    const settings = this.settingsOf(r);
    if (!settings) throw TAKES_NO_WEBHOOK();
    const get = (k: string) => {
      const v = query[`hub.${k}`] ?? (query.hub as Record<string, unknown> | undefined)?.[k];
      return typeof v === "string" ? v : typeof v === "number" ? String(v) : undefined;
    };
    const challenge = get("challenge");
    if (get("mode") !== "subscribe" || challenge === undefined || !sameSecret(get("verify_token"), settings.verifyToken)) {
      throw new PluginError("ERR_INSTAGRAM_VERIFY_TOKEN_MISMATCH", 403);
    }
    return challenge;
  }

  /** One POST to connection `r`'s URL: checked, routed and handed over. */
  async accept(r: ResolvedToken, body: Buffer, headers: Record<string, string | undefined>): Promise<DeliveryAnswer> {
    const settings = this.settingsOf(r);
    if (!settings) throw TAKES_NO_WEBHOOK();
    if (!hmacSignatureValid(body, settings.appSecret, headers[SIGNATURE_HEADER])) {
      throw new Errors.MoleculerClientError("Wrong or missing webhook signature", 401, "ERR_TOKEN_INVALID", { reason: "webhook-signature" });
    }
    let events: IgEvent[];
    try {
      events = eventsOf(body);
    } catch (err) {
      if (err instanceof PayloadError) throw new PluginError("ERR_INSTAGRAM_PAYLOAD_INVALID", 400, { reason: err.reason });
      throw err;
    }
    const own: Target = { ref: { tenantId: r.tenantId, connectionId: r.connectionId }, settings };
    const others = new Map<string, Promise<Target | null>>();
    const results: Outcome[] = [];
    for (const e of events) {
      let target: Target | null = e.account === settings.igAccountId ? own : null;
      if (!target && e.account) {
        if (!others.has(e.account)) others.set(e.account, this.otherConnection(r, e.account, settings.appSecret));
        target = await others.get(e.account)!;
      }
      if (!target) {
        this.log().warn(`connection ${r.connectionId}: an event for Instagram account ${e.account || "(none)"}, which no connection of this app serves, was dropped`);
        results.push("ignored");
        continue;
      }
      if (e.kind === "skip") {
        this.log().info(`connection ${target.ref.connectionId}: webhook event skipped: ${e.reason}`);
        results.push("ignored");
        continue;
      }
      results.push(await this.once(target, e));
    }
    return { ok: true, results };
  }

  /** The one other live connection serving `account` with the same app secret, or null. */
  private async otherConnection(r: ResolvedToken, account: string, appSecret: string): Promise<Target | null> {
    const found: Target[] = [];
    for (const token of await this.channel.opts.store.claimsOf(account)) {
      const other = await resolveToken(this.core, token).catch(() => null);
      if (!other || other.connectionId === r.connectionId || other.status === "inactive") continue;
      const s = this.settingsOf(other);
      if (!s || s.igAccountId !== account || !sameSecret(s.appSecret, appSecret)) continue;
      found.push({ ref: { tenantId: other.tenantId, connectionId: other.connectionId }, settings: s });
    }
    if (found.length > 1) this.log().warn(`Instagram account ${account} is claimed by ${found.length} connections of one app: its events are dropped until only one remains`);
    return found.length === 1 ? found[0] : null;
  }

  /** The same event delivered twice at once: the second waits for the first and stores nothing. */
  private async once(t: Target, e: Exclude<IgEvent, { kind: "skip" }>): Promise<Outcome> {
    const id = "mid" in e ? e.mid : `${e.kind}:${e.customer}:${e.timestamp}`;
    const key = `${t.ref.tenantId}:${t.ref.connectionId}:${e.kind}:${id}`;
    const running = this.inFlight.get(key);
    if (running) return running.then((r) => (r === "stored" ? "duplicate" : r));
    const p = this.handle(t, e);
    this.inFlight.set(key, p);
    try {
      return await p;
    } finally {
      this.inFlight.delete(key);
    }
  }

  private async handle(t: Target, e: Exclude<IgEvent, { kind: "skip" }>): Promise<Outcome> {
    const store = this.channel.opts.store;
    const key = storeKeyOf(t.settings, t.ref);
    const ref = t.ref;
    switch (e.kind) {
      case "message": {
        if (e.echo && (await this.isOurs(t, key, e.mid))) return "duplicate";
        if (!e.echo) await store.touchInbound(key, e.customer, e.timestamp);
        const from = { externalId: e.customer, ...(await this.profile(t, key, e.customer)) };
        const base: InboundMessage = { ...ref, providerMessageId: e.mid, timestamp: e.timestamp, from, ...(e.replyTo ? { replyToProviderId: e.replyTo } : {}), ...(e.echo ? { fromMe: true } : {}) };
        // One message per file (the core keeps one file a message); the text rides with the first.
        const parts: InboundMessage[] = e.files.length
          ? e.files.map((f, i) => ({ ...base, providerMessageId: i ? `${e.mid}:${i}` : e.mid, ...(i === 0 && e.text ? { body: e.text } : {}) }))
          : [{ ...base, body: e.text }];
        let duplicate = true;
        for (let i = 0; i < parts.length; i++) {
          const m = parts[i];
          // A replay does not fetch its file again (the core already has the message).
          if (e.files[i]) {
            if (await store.taken(key, m.providerMessageId)) continue;
            m.media = await takeFile(this.core, ref, e.files[i], this.channel.policy(), this.log());
          }
          if (!(await inbound(this.core, m)).duplicate) duplicate = false;
          if (e.files[i]) await store.markTaken(key, m.providerMessageId);
        }
        return duplicate ? "duplicate" : "stored";
      }
      case "postback": {
        await store.touchInbound(key, e.customer, e.timestamp);
        const from = { externalId: e.customer, ...(await this.profile(t, key, e.customer)) };
        const res = await inbound(this.core, { ...ref, providerMessageId: e.mid, timestamp: e.timestamp, from, body: e.title });
        return res.duplicate ? "duplicate" : "stored";
      }
      case "deleted": {
        const res = await changeMessage(this.core, { ...ref, providerMessageId: e.mid, change: { type: "delete" }, timestamp: e.timestamp });
        return res.applied ? "changed" : "ignored";
      }
      case "reaction": {
        const target = (await store.oursOf(key, e.mid)) ?? e.mid;
        const by = e.fromAccount ? t.settings.igAccountId : e.customer;
        const res = await changeMessage(this.core, { ...ref, providerMessageId: target, change: { type: "reaction", emoji: e.emoji, by, ...(e.fromAccount ? { fromMe: true } : {}) }, timestamp: e.timestamp });
        return res.applied ? "changed" : "ignored";
      }
      case "seen": {
        // The customer read up to this message of ours (any part of a split text names the message).
        const target = await store.oursOf(key, e.mid);
        if (!target) return "ignored";
        await ack(this.core, { ...ref, providerMessageId: target, status: "read", timestamp: e.timestamp });
        return "acked";
      }
      case "referral": {
        // The customer opened the conversation from a link or an ad: the contact is known before the first message.
        this.log().info(`connection ${ref.connectionId}: referral ${e.source || "?"} ${e.ref ? `ref=${e.ref}` : ""} from ${e.customer}`);
        const p = await this.profile(t, key, e.customer);
        const res = await updateContact(this.core, { ...ref, externalId: e.customer, create: true, ...(p.name ? { name: p.name } : {}), ...(p.avatarUrl ? { avatarUrl: p.avatarUrl } : {}) });
        return res.applied ? "contact" : "ignored";
      }
    }
  }

  /** An echo of a send of ours (its mid recorded), waiting for sends still without Meta's answer. */
  private async isOurs(t: Target, key: string, mid: string): Promise<boolean> {
    const store = this.channel.opts.store;
    if (await store.oursOf(key, mid)) return true;
    const sending = this.channel.liveOf(t.ref)?.sending;
    if (!sending?.size) return false;
    await Promise.race([Promise.allSettled([...sending]), new Promise((ok) => setTimeout(ok, 10_000))]);
    return !!(await store.oursOf(key, mid));
  }

  /** The customer's name and picture, asked of Meta once (remembered in the store). */
  private async profile(t: Target, key: string, igsid: string): Promise<StoredProfile> {
    const store = this.channel.opts.store;
    const known = await store.profileOf(key, igsid);
    if (known) return known;
    const live = this.channel.liveOf(t.ref);
    if (live?.status === "disconnected") return {};
    try {
      const p = await (live?.graph ?? this.channel.graphFor(t.settings)).profile(igsid);
      const found: StoredProfile = { ...(p.name || p.username ? { name: p.name || p.username } : {}), ...(p.profile_pic ? { avatarUrl: p.profile_pic } : {}) };
      await store.saveProfile(key, igsid, found);
      return found;
    } catch (err) {
      if (live && needsCredentials(err)) await this.channel.credentialsRefused(live, err as GraphError);
      this.log().info(`connection ${t.ref.connectionId}: the profile of ${igsid} was not read: ${(err as Error).message}`);
      return {};
    }
  }

  private log() {
    return this.channel.opts.logger;
  }
}
