/**
 * A campaign type's service, written once: its routes (CAMPAIGN_ROUTE_OPS under the type's
 * base), its `dispatch` job on the core's scheduler, and its `message.acked` handler. A type
 * plugin spreads `campaignService(...)` into definePlugin:
 *
 *   const campaigns = campaignService({ type: normalType, errorPrefix: "CAMPAIGN_WHATSAPP", tier: "BASIC", contentParams });
 *   export default definePlugin({ pkgJson, service: campaigns.service, platformEvents: campaigns.platformEvents });
 *
 * Routes are a supervisor's or admin's (the tenant is always the caller's); ids travel in the
 * query or body. Each change pushes the campaign's progress to the tenant's screens
 * (CAMPAIGN_PROGRESS_EVENT); so do dispatch runs that sent and acks, at most once a second.
 */
import type { Context } from "moleculer";
import { CAMPAIGN_CONTACT_STATUSES, CAMPAIGN_PROGRESS_EVENT, campaignRoute, coreApi, jobActions, openPluginData, pluginJobs, type CampaignContactSource, type CampaignRouteOp, type CampaignTypeDefinition, type JobDelivery, type PlatformEventEnvelope, type PluginJobs, type PluginServiceSchema } from "@openatende/plugin-sdk";
import { resolveContacts } from "./contacts";
import { CampaignDispatcher } from "./dispatch";
import { CampaignErrors } from "./errors";
import { assertDraft, cancel, pause, resume, schedule } from "./rules";
import { CampaignStore, type CampaignRow, type ContactRow, type Draft, type NewContact } from "./store";

type Meta = { user?: { id: number; tenantId: number } };
type Ctx<P = Record<string, unknown>> = Context<P, Meta>;

export interface CampaignServiceOptions<Content> {
  type: CampaignTypeDefinition<Content>;
  /** The plugin's prefix of the engine's own codes: "CAMPAIGN_WHATSAPP" → ERR_CAMPAIGN_WHATSAPP_NOT_PAUSABLE. */
  errorPrefix: string;
  tier: "FREE" | "BASIC" | "PLUS" | "PREMIUM";
  /** fastest-validator params of the type's content. */
  contentParams: Record<string, unknown>;
  /** The clock (tests); default Date.now. */
  now?: () => number;
  /**
   * A type's own refusals of contacts about to be linked (SMS: repeated and invalid numbers):
   * `checkSource` before the source is read (a CSV's lines), `checkContacts` with what it found
   * and what is linked already. Each throws its code.
   */
  checkSource?(source: CampaignContactSource): void;
  /** A type's own check of a draft being created or edited (SMS: every connection is an SMS one whose token works). Throws its code. */
  checkDraft?(ctx: Context, p: { tenantId: number; draft: Draft }): Promise<void>;
  checkContacts?(p: { found: NewContact[]; linked: NewContact[] }): void;
  /**
   * A type's check before a campaign is scheduled (SMS: credits for every recipient): the
   * pending contacts in the order they were linked — the first `limitTo` only when the client
   * asked to keep those (the others are then unlinked once the check passed). Throws its code.
   */
  beforeSchedule?(ctx: Context, p: { tenantId: number; campaign: CampaignRow; pending: ContactRow[]; limitTo: number | null }): Promise<void>;
}

interface Self {
  store: CampaignStore;
  jobs: PluginJobs;
  dispatcher: CampaignDispatcher;
  /** Campaigns' last progress push from a send or an ack (real ms), and those with one waiting. */
  pushedAt: Map<string, number>;
  pushWaiting: Set<string>;
}

/** Sends and acks push a campaign's progress at most this often (each push counts its contacts). */
export const PROGRESS_EVERY_MS = 1000;
const me = (svc: unknown) => svc as Self;

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const ids = { type: "array", items: id, min: 1, max: 10_000 } as const;
export const DISPATCH_JOB = "dispatch";
const jobKey = (campaignId: number) => `campaign-${campaignId}`;

function tenantOf(ctx: Ctx<unknown>): number {
  const t = ctx.meta.user?.tenantId;
  if (!t) throw Object.assign(new Error("ERR_SESSION_REQUIRED"), { type: "ERR_SESSION_REQUIRED", code: 401, data: {} });
  return t;
}

export function campaignService<Content>(opts: CampaignServiceOptions<Content>) {
  const errors = new CampaignErrors(opts.errorPrefix);
  const now = opts.now ?? Date.now;
  const base = opts.type.routeBase;
  const route = (op: CampaignRouteOp) => ({ rest: campaignRoute(base, op), access: "supervisor" as const, tier: opts.tier });
  const draftParams = {
    name: { type: "string", trim: true, empty: false, max: 200 },
    startAt: { type: "number", integer: true, positive: true, convert: true },
    connectionIds: { type: "array", items: id, min: 1, max: 20, unique: true },
    minIntervalSeconds: { type: "number", integer: true, min: 0, max: 3600, convert: true },
    maxIntervalSeconds: { type: "number", integer: true, min: 0, max: 3600, convert: true },
    content: { type: "object", props: opts.contentParams },
  };

  function draftOf(ctx: Ctx<Record<string, unknown>>): Draft {
    const p = ctx.params as unknown as Draft;
    const d: Draft = { name: p.name, startAt: p.startAt, connectionIds: p.connectionIds, minIntervalSeconds: p.minIntervalSeconds, maxIntervalSeconds: p.maxIntervalSeconds, content: p.content, createdBy: ctx.meta.user?.id ?? null };
    assertDraft(d, now(), errors);
    const problems = opts.type.validateContent(d.content as Content);
    if (Object.keys(problems).length) throw errors.own("CONTENT_INVALID", { fields: Object.keys(problems).join(", "), problems });
    return d;
  }

  async function progress(ctx: Ctx<unknown> | Context, tenantId: number, c: CampaignRow, store: CampaignStore): Promise<void> {
    try {
      await coreApi(ctx as Context).realtime.push({ tenantId, event: CAMPAIGN_PROGRESS_EVENT, payload: { campaignId: c.id, status: c.status, counts: await store.counts(tenantId, c.id) } });
    } catch {
      // A push that fails never fails the change (the screen reads the campaign again).
    }
  }

  /**
   * The progress after sends or acks: at once when the last push is a second old, else once at
   * the second's end with the counts then (a campaign at 300 sends/s would otherwise count its
   * contacts 900 times a second, with two acks per send).
   */
  function progressSoon(self: Self, svc: Context["service"], tenantId: number, campaignId: number): void {
    const key = `${tenantId}:${campaignId}`;
    if (self.pushWaiting.has(key)) return;
    const push = async () => {
      self.pushedAt.set(key, Date.now());
      const c = await self.store.find(tenantId, campaignId).catch(() => null);
      if (c) await progress(svc as unknown as Context, tenantId, c, self.store);
    };
    const wait = (self.pushedAt.get(key) ?? 0) + PROGRESS_EVERY_MS - Date.now();
    if (wait <= 0) return void push();
    self.pushWaiting.add(key);
    setTimeout(() => {
      self.pushWaiting.delete(key);
      void push();
    }, wait).unref();
  }

  /** A change of status through a rule, then the job it implies and the push. */
  async function change(self: Self, ctx: Ctx<{ id: number }>, decide: (c: CampaignRow, linked: number) => CampaignRow["status"]) {
    const tenantId = tenantOf(ctx);
    const c = await self.store.transition(tenantId, ctx.params.id, decide);
    if (c.status === "scheduled" || c.status === "processing") await self.jobs.schedule(ctx, { name: DISPATCH_JOB, key: jobKey(c.id), tenantId, runAt: Math.max(now(), c.status === "scheduled" ? c.startAt : now()), data: { campaignId: c.id } });
    else await self.jobs.cancel(ctx, { name: DISPATCH_JOB, key: jobKey(c.id), tenantId });
    await progress(ctx, tenantId, c, self.store);
    return self.store.summary(tenantId, c);
  }

  const service: PluginServiceSchema = {
    settings: { rest: "/" },
    created() {
      me(this).jobs = pluginJobs(this as unknown as { name: string; fullName?: string });
      me(this).pushedAt = new Map();
      me(this).pushWaiting = new Set();
    },
    async started() {
      const self = me(this);
      self.store = new CampaignStore(await openPluginData(this as never), errors, now);
      self.dispatcher = new CampaignDispatcher(self.store, opts.type as CampaignTypeDefinition<unknown>, {
        now,
        random: Math.random,
        send: (p) => coreApi(this as never).messages.sendTo({ ...p, ticket: "closed" }),
        messageStatus: async ({ tenantId, messageId }) => (await coreApi(this as never).messages.get({ tenantId, id: messageId })).status,
        businessTime: async ({ tenantId, connectionId, at }) => {
          const s = await coreApi(this as never).businessTime.state({ tenantId, target: { connectionId }, at });
          return { open: s.open, nextOpenAt: s.nextOpenAt };
        },
        // Waiting in process for the next slot only on the real clock (a test's clock moves by hand).
        ...(opts.now ? {} : { sleep: (ms: number) => new Promise<void>((r) => setTimeout(r, ms)) }),
      });
    },
    actions: {
      list: {
        ...route("list"),
        params: {},
        async handler(ctx: Ctx) {
          const tenantId = tenantOf(ctx);
          const rows = await me(this).store.list(tenantId);
          return Promise.all(rows.map((c) => me(this).store.summary(tenantId, c)));
        },
      },
      get: {
        ...route("get"),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          const tenantId = tenantOf(ctx);
          return me(this).store.summary(tenantId, await me(this).store.get(tenantId, ctx.params.id));
        },
      },
      create: {
        ...route("create"),
        params: draftParams,
        async handler(ctx: Ctx<Record<string, unknown>>) {
          const tenantId = tenantOf(ctx);
          const draft = draftOf(ctx);
          await opts.checkDraft?.(ctx, { tenantId, draft });
          return me(this).store.summary(tenantId, await me(this).store.create(tenantId, draft));
        },
      },
      update: {
        ...route("update"),
        params: { id, ...draftParams },
        async handler(ctx: Ctx<Record<string, unknown>>) {
          const tenantId = tenantOf(ctx);
          const draft = draftOf(ctx);
          if (opts.checkDraft) {
            await me(this).store.get(tenantId, Number(ctx.params.id)); // another tenant's campaign: not found before anything else
            await opts.checkDraft(ctx, { tenantId, draft });
          }
          return me(this).store.summary(tenantId, await me(this).store.update(tenantId, Number(ctx.params.id), draft));
        },
      },
      remove: {
        ...route("remove"),
        params: { id },
        async handler(ctx: Ctx<{ id: number }>) {
          await me(this).store.remove(tenantOf(ctx), ctx.params.id);
          return { deleted: true };
        },
      },
      addContacts: {
        ...route("addContacts"),
        params: {
          id,
          source: [
            { type: "object", strict: "remove", props: { kind: { type: "equal", value: "tags" }, tagIds: ids } },
            { type: "object", strict: "remove", props: { kind: { type: "equal", value: "contacts" }, contactIds: ids } },
            { type: "object", strict: "remove", props: { kind: { type: "equal", value: "csv" }, csv: { type: "string", empty: false, max: 5_000_000 } } },
          ],
        },
        async handler(ctx: Ctx<{ id: number; source: CampaignContactSource }>) {
          const tenantId = tenantOf(ctx);
          await me(this).store.get(tenantId, ctx.params.id);
          opts.checkSource?.(ctx.params.source);
          const found = await resolveContacts(ctx, tenantId, ctx.params.source, errors);
          if (!found.length) throw errors.core("contactsMissing");
          if (opts.checkContacts) opts.checkContacts({ found, linked: await me(this).store.allContacts(tenantId, ctx.params.id) });
          return me(this).store.addContacts(tenantId, ctx.params.id, found);
        },
      },
      removeContacts: {
        ...route("removeContacts"),
        params: { id, contactIds: { ...ids, optional: true } },
        async handler(ctx: Ctx<{ id: number; contactIds?: number[] }>) {
          return me(this).store.removeContacts(tenantOf(ctx), ctx.params.id, ctx.params.contactIds);
        },
      },
      contacts: {
        ...route("contacts"),
        params: { id, status: { type: "enum", values: [...CAMPAIGN_CONTACT_STATUSES], optional: true }, page: { type: "number", integer: true, min: 1, max: 100_000, optional: true, convert: true }, limit: { type: "number", integer: true, min: 1, max: 200, optional: true, convert: true } },
        async handler(ctx: Ctx<{ id: number; status?: (typeof CAMPAIGN_CONTACT_STATUSES)[number]; page?: number; limit?: number }>) {
          const { id: campaignId, ...q } = ctx.params;
          return me(this).store.contacts(tenantOf(ctx), campaignId, q);
        },
      },
      schedule: {
        ...route("schedule"),
        // `limitTo` (a type with beforeSchedule): keep only the first N pending contacts.
        params: { id, limitTo: { type: "number", integer: true, positive: true, optional: true, convert: true } },
        async handler(ctx: Ctx<{ id: number; limitTo?: number }>) {
          const self = me(this);
          if (opts.beforeSchedule) {
            const tenantId = tenantOf(ctx);
            const campaign = await self.store.get(tenantId, ctx.params.id);
            const all = await self.store.allContacts(tenantId, campaign.id, "pending");
            const limitTo = ctx.params.limitTo ?? null;
            // The rules first (status, contacts, date): a campaign that cannot be scheduled is not checked further.
            schedule(campaign, limitTo === null ? all.length : Math.min(limitTo, all.length), now(), errors);
            await opts.beforeSchedule(ctx, { tenantId, campaign, pending: limitTo === null ? all : all.slice(0, limitTo), limitTo });
            if (limitTo !== null && all.length > limitTo) await self.store.removeContacts(tenantId, campaign.id, all.slice(limitTo).map((r) => r.contactId));
          }
          return change(self, ctx, (c, linked) => schedule(c, linked, now(), errors));
        },
      },
      pause: { ...route("pause"), params: { id }, handler(ctx: Ctx<{ id: number }>) { return change(me(this), ctx, (c) => pause(c, errors)); } },
      resume: { ...route("resume"), params: { id }, handler(ctx: Ctx<{ id: number }>) { return change(me(this), ctx, (c) => resume(c, errors)); } },
      cancel: { ...route("cancel"), params: { id }, handler(ctx: Ctx<{ id: number }>) { return change(me(this), ctx, (c) => cancel(c, errors)); } },
      ...jobActions({
        async [DISPATCH_JOB](ctx: Context<JobDelivery>, job: JobDelivery) {
          const self = me(ctx.service);
          const campaignId = Number(job.data.campaignId);
          const out = await self.dispatcher.run(job.tenantId, campaignId);
          if (out.state === "wait") await self.jobs.schedule(ctx, { name: DISPATCH_JOB, key: jobKey(campaignId), tenantId: job.tenantId, runAt: Math.max(out.wakeAt, now()), data: { campaignId } });
          if (out.state === "finished") {
            const c = await self.store.find(job.tenantId, campaignId);
            if (c) await progress(ctx, job.tenantId, c, self.store);
          } else if (out.state === "wait" && out.sent > 0) progressSoon(self, ctx.service, job.tenantId, campaignId);
          return out;
        },
      }),
    },
  };

  const platformEvents = {
    /** An ack of a campaign's message moves its contact's status up, and the screens follow. */
    async "message.acked"(envelope: PlatformEventEnvelope<"message.acked">, ctx: Context) {
      const m = envelope.data.message;
      if (!m.fromMe) return;
      const self = me(ctx.service);
      const campaignId = await self.store.ack(envelope.tenantId, Number(m.id), m.status);
      if (campaignId !== null) progressSoon(self, ctx.service, envelope.tenantId, campaignId);
    },
  };

  return { service, platformEvents, errors };
}
