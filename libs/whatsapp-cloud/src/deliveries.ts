/**
 * The provider's webhook deliveries: checked and routed while it waits, processed after the answer.
 *
 * A delivery comes to one connection's URL and must be the provider's (provider.authentic:
 * Meta signs it with the connection's app secret; 360dialog sends the secret header set when
 * the webhook was registered), else 401, nothing read. Each of its changes belongs to the
 * connection whose phone-number id its metadata names: the URL's own connection, or (when the
 * provider shares webhooks, Meta's app) another connection that serves that number *and*
 * holds the very app secret that signed it (found through the phone-number index, store.ts).
 * When the provider does not share them (360dialog: one URL per number), every change is the
 * URL's connection's. A change for any other number is dropped with a log line: a webhook for
 * tenant A's number never lands in tenant B.
 *
 * Meta asks for a 2xx within seconds and retries otherwise (for days; duplicates and
 * out-of-order deliveries happen), so the answer goes as soon as the delivery is checked and
 * routed; messages, reactions and statuses are then handed to the core (inbound.ts) through
 * the connection's lanes (lanes.ts): one lane per customer (their messages stored in the order
 * written) and one per sent message (its statuses in Meta's order), at most LANES_PER_CONNECTION
 * running at once, so many customers and many changes go in side by side. The core stores each
 * wamid once and never moves a status back. Each accepted change is held in Redis (store.ts)
 * until the core has all of its parts, and taken up again when its connection connects (after a
 * crash or restart): answered is never lost.
 */
import { randomUUID } from "node:crypto";
import { Errors } from "moleculer";
import { resolveToken, type Caller, type ConnectionRef, type ResolvedToken } from "@openatende/plugin-sdk";
import type { CloudChannel } from "./channel";
import { partsOf } from "./inbound";
import { Lanes } from "./lanes";
import { codeOf, type CloudSettings, type Headers } from "./provider";
import { DeliveryError, parseEnvelope, phoneNumberIdOf, type WebhookChange } from "./webhook";

export interface Routed {
  ref: ConnectionRef;
  settings: CloudSettings;
  change: WebhookChange;
}

export interface DeliveryAnswer {
  ok: true;
  /** Changes taken for processing. */
  accepted: number;
  /** Changes dropped (another number, another field). */
  ignored: number;
}

/** Parts of a connection's changes handed to the core at once (the core's database pool is 10 by default). */
export const LANES_PER_CONNECTION = 12;

let heldSeq = 0;
/**
 * A held change's id: the time it was accepted, then a counter of this process (both fixed
 * width, so ids sort by them: the changes of one POST keep their order) and a random part, so
 * that changes taken up again after a restart go in the order they came.
 */
export function heldId(at = Date.now()): string {
  heldSeq = (heldSeq + 1) % 36 ** 4;
  return `${at.toString(36).padStart(9, "0")}-${heldSeq.toString(36).padStart(4, "0")}-${randomUUID()}`;
}

const TAKES_NO_WEBHOOK = () => new Errors.MoleculerClientError("Unknown webhook", 404, "ERR_CONNECTION_NOT_FOUND");

/** The connection's settings as the webhook needs them: the live ones, else the stored ones. */
function settingsOf(channel: CloudChannel, r: ResolvedToken): CloudSettings | null {
  const live = channel.liveOf(r);
  if (live) return live.settings;
  const read = channel.provider.readSettings(r.settings);
  return read.ok ? read.settings : null;
}

export class Deliveries {
  /** Per connection: its lanes (removed when nothing of it is pending). */
  private readonly lanes = new Map<number, Lanes>();
  /** Held changes being processed here, by id: settles when the change is finished or kept. */
  private readonly running = new Map<string, Promise<void>>();
  /** The most parts of one connection's changes ever handed to the core at once (tests, the log). */
  peak = 0;

  constructor(
    private readonly channel: CloudChannel,
    private readonly core: Caller,
    private readonly lanesPerConnection = LANES_PER_CONNECTION,
  ) {}

  /** The GET handshake (providers that have one): the challenge to echo, or 403. */
  verify(r: ResolvedToken, query: Record<string, unknown>): string {
    const settings = settingsOf(this.channel, r);
    const provider = this.channel.provider;
    if (!settings || !provider.handshake) throw TAKES_NO_WEBHOOK();
    const answer = provider.handshake(settings, query);
    if (answer === null) throw new Errors.MoleculerClientError("Wrong verification token", 403, provider.handshakeRefused ?? "ERR_TOKEN_INVALID");
    return answer;
  }

  /** One POST to connection `r`'s URL: checked, routed, answered; processed afterwards. */
  async accept(r: ResolvedToken, body: Buffer, headers: Headers, token: string): Promise<DeliveryAnswer> {
    const settings = settingsOf(this.channel, r);
    if (!settings) throw TAKES_NO_WEBHOOK();
    if (!this.channel.provider.authentic(settings, body, headers, { token })) {
      throw new Errors.MoleculerClientError("Wrong or missing webhook signature", 401, "ERR_TOKEN_INVALID", { reason: "webhook-signature" });
    }
    let changes: WebhookChange[];
    try {
      changes = parseEnvelope(body);
    } catch (err) {
      if (err instanceof DeliveryError) throw new Errors.MoleculerClientError(err.message, err.status, codeOf(this.channel.provider.codes, "PAYLOAD_INVALID"), { reason: err.message });
      throw err;
    }
    const routed = await this.route(r, settings, changes);
    const ids = routed.map(() => heldId());
    await Promise.all(routed.map((x, i) => this.channel.opts.store.hold(x.ref, ids[i], x.change)));
    routed.forEach((x, i) => this.enqueue(x, ids[i]));
    return { ok: true, accepted: routed.length, ignored: changes.length - routed.length };
  }

  /** Takes up the changes of a connection that were accepted and not finished (called once it is connected). */
  async recover(ref: ConnectionRef): Promise<number> {
    const live = this.channel.liveOf(ref);
    if (!live) return 0;
    let n = 0;
    const held = (await this.channel.opts.store.held(ref)).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    for (const h of held) {
      if (this.running.has(h.id)) continue;
      this.enqueue({ ref, settings: live.settings, change: h.change as WebhookChange }, h.id);
      n++;
    }
    if (n) this.log().info(`connection ${ref.connectionId}: ${n} webhook change(s) accepted before a restart taken up again`);
    return n;
  }

  /** Resolves when everything accepted so far has been processed (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size) await Promise.all([...this.running.values()]);
  }

  private async route(r: ResolvedToken, settings: CloudSettings, changes: WebhookChange[]): Promise<Routed[]> {
    const own: ConnectionRef = { tenantId: r.tenantId, connectionId: r.connectionId };
    const others = new Map<string, Promise<{ ref: ConnectionRef; settings: CloudSettings } | null>>();
    const out: Routed[] = [];
    for (const change of changes) {
      if (change.field !== "messages") {
        // message_template_status_update, account_update, … : not this plugin's yet.
        this.log().info(`connection ${r.connectionId}: webhook field "${change.field}" ignored`);
        continue;
      }
      const pnid = phoneNumberIdOf(change);
      // One URL per number (no shared webhooks): whatever comes to it is its connection's.
      if (pnid === settings.phoneNumberId || !this.channel.provider.sharesWebhooks) {
        out.push({ ref: own, settings, change });
        continue;
      }
      if (!pnid) {
        this.log().warn(`connection ${r.connectionId}: a change without metadata.phone_number_id was dropped`);
        continue;
      }
      if (!others.has(pnid)) others.set(pnid, this.otherConnection(r, pnid, settings));
      const other = await others.get(pnid)!;
      if (other) out.push({ ...other, change });
      else this.log().warn(`connection ${r.connectionId}: a change for phone number id ${pnid}, which no connection of this app serves, was dropped`);
    }
    return out;
  }

  /** The one other active connection serving `pnid` that shares `own`'s webhooks (Meta: the same app secret), or null. */
  private async otherConnection(r: ResolvedToken, pnid: string, own: CloudSettings): Promise<{ ref: ConnectionRef; settings: CloudSettings } | null> {
    const found: Array<{ ref: ConnectionRef; settings: CloudSettings }> = [];
    for (const token of await this.channel.opts.store.claimsOf(pnid)) {
      const other = await resolveToken(this.core, token).catch(() => null);
      if (!other || other.connectionId === r.connectionId || other.status === "inactive" || other.status === "disconnected") continue;
      const s = settingsOf(this.channel, other);
      if (!s || s.phoneNumberId !== pnid || !this.channel.provider.sharesWebhooks?.(own, s)) continue;
      found.push({ ref: { tenantId: other.tenantId, connectionId: other.connectionId }, settings: s });
    }
    if (found.length > 1) this.log().warn(`phone number id ${pnid} is claimed by ${found.length} connections of one app: its changes are dropped until only one remains`);
    return found.length === 1 ? found[0] : null;
  }

  /**
   * Hands the change's parts to its connection's lanes at once (so a later change of the same
   * customer or message queues behind them); the change is released from Redis when every part
   * went in, and kept (to run again on the next connect) when one could not.
   */
  private enqueue(x: Routed, id: string): void {
    const cid = x.ref.connectionId;
    let lanes = this.lanes.get(cid);
    if (!lanes) this.lanes.set(cid, (lanes = new Lanes(this.lanesPerConnection)));
    const own = lanes;
    let kept = 0;
    const parts = partsOf(this.channel, this.core, x).map((p) =>
      own.push(p.lane, () => {
        this.peak = Math.max(this.peak, own.running);
        return p.run();
      }).catch((err: Error) => {
        kept++;
        this.log().warn(`connection ${cid}: ${p.what} not handed to the core: ${err.message}`);
      }),
    );
    const done = Promise.all(parts)
      .then(async () => {
        if (!kept) await this.channel.opts.store.release(x.ref, id);
      })
      .catch((err: Error) => this.log().warn(`connection ${cid}: a webhook change was not processed: ${err.message}`))
      .finally(() => {
        this.running.delete(id);
        if (!own.pending && this.lanes.get(cid) === own) this.lanes.delete(cid);
      });
    this.running.set(id, done);
  }

  private log() {
    return this.channel.opts.logger;
  }
}
