/**
 * Meta's review of templates, `message_template_status_update` webhook changes
 * (WHATSAPP.md §2.4): `value:{event, message_template_id, message_template_name,
 * message_template_language, reason, other_info?, rejection_info?}` with event APPROVED,
 * REJECTED (reason), PAUSED, DISABLED, … The change names the WhatsApp Business Account
 * (entry id), not a phone number: it belongs to the connection whose URL it came to when that
 * connection serves that account (the signature was already checked with its app secret).
 *
 * Each status is recorded per tenant and business account in the plugin's Redis
 * (`<prefix>:templates:<tenant>:<WABA id>`, one hash field per template id: every number of
 * the account shares its templates), so screens and campaigns read it without asking Meta, and
 * pushed live to the tenant's screens as `plugin:channel-waba:template.status`. The value
 * carries no time of its own, so the last change to arrive is the one kept.
 */
import type Redis from "ioredis";
/** Whose statuses: a tenant's WhatsApp Business Account (its numbers' connections share its templates). */
export interface AccountRef {
  tenantId: number;
  businessAccountId: string;
}
import type { WebhookChange } from "./webhook";

export const TEMPLATE_STATUS_FIELD = "message_template_status_update";

export interface TemplateStatusRecord {
  /** Meta's template id. */
  id: string;
  name: string;
  language: string;
  /** Meta's event: APPROVED, REJECTED, PAUSED, DISABLED, PENDING, … */
  status: string;
  /** Meta's reason (REJECTED: INVALID_FORMAT, …; "NONE" is dropped), with rejection_info's when given. */
  reason: string | null;
  /** When it arrived (ms). */
  at: number;
}

const str = (v: unknown) => (typeof v === "string" ? v : typeof v === "number" ? String(v) : "");

/** A template status change's record, or null when the change is not one (or lacks the template's id or event). */
export function templateStatusOf(change: WebhookChange, receivedAt = Date.now()): TemplateStatusRecord | null {
  if (change.field !== TEMPLATE_STATUS_FIELD) return null;
  const v = change.value;
  const id = str(v.message_template_id);
  const status = str(v.event).toUpperCase();
  if (!id || !/^[A-Z_]{2,40}$/.test(status)) return null;
  const info = (v.rejection_info ?? v.other_info) as { reason?: unknown; recommendation?: unknown; title?: unknown; description?: unknown } | undefined;
  const reasons = [str(v.reason), str(info?.reason) || str(info?.title), str(info?.recommendation) || str(info?.description)].filter((r) => r && r !== "NONE");
  return { id, name: str(v.message_template_name), language: str(v.message_template_language), status, reason: reasons.length ? reasons.join(" — ").slice(0, 500) : null, at: receivedAt };
}

export class TemplateStatusStore {
  private redis: Redis | null = null;

  constructor(private readonly opts: { redisUrl?: string; prefix: string; log: { warn(...a: unknown[]): void } }) {}

  private client(): Redis | null {
    if (!this.opts.redisUrl) return null;
    if (!this.redis) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const IORedis = require("ioredis") as typeof import("ioredis").default;
      this.redis = new IORedis(this.opts.redisUrl, { maxRetriesPerRequest: 2, connectTimeout: 3000 });
      this.redis.on("error", () => undefined);
    }
    return this.redis;
  }

  private key(ref: AccountRef): string {
    return `${this.opts.prefix}:templates:${ref.tenantId}:${ref.businessAccountId}`;
  }

  async record(ref: AccountRef, rec: TemplateStatusRecord): Promise<void> {
    const r = this.client();
    if (!r) return;
    try {
      await r.hset(this.key(ref), rec.id, JSON.stringify(rec));
    } catch (err) {
      this.opts.log.warn(`template statuses: not recorded (${(err as Error).message})`);
    }
  }

  /** The account's recorded statuses (of templates Meta reviewed since a connection of it took webhooks). */
  async list(ref: AccountRef): Promise<TemplateStatusRecord[]> {
    const r = this.client();
    if (!r) return [];
    const all = await r.hgetall(this.key(ref));
    return Object.values(all)
      .map((json) => JSON.parse(json) as TemplateStatusRecord)
      .sort((a, b) => a.name.localeCompare(b.name) || a.language.localeCompare(b.language));
  }

  async forget(ref: AccountRef, ids: string[]): Promise<void> {
    const r = this.client();
    if (r && ids.length) await r.hdel(this.key(ref), ...ids).catch(() => 0);
  }

  async close(): Promise<void> {
    const r = this.redis;
    this.redis = null;
    if (r) await r.quit().catch(() => r.disconnect());
  }
}
