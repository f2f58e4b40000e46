/**
 * The chatbot conformance kit's stand-in for the core: a Moleculer service named "platform"
 * with the core API actions a chatbot calls (core-api/contract.ts), and a "scheduler" for its
 * timers (jobs.ts). Each tenant has a small world of its own — a contact, tickets handed to the
 * bot (status chatbot), two queues, an online user, a connection — whose ids no other tenant
 * shares, so a call that names another tenant's ticket, queue or user is answered with its
 * not-found code, as the core answers it. Every call is recorded, valid or not (`calls`,
 * `invalid`, `refused`): a plugin that swallows the core's refusal still fails the kit.
 *
 * It keeps the contract's rules a chatbot meets: only the bot that owns a ticket in status
 * chatbot hands it off (ERR_CHATBOT_NOT_OWNER), a media message names a file uploaded for the
 * same tenant (ERR_VALIDATION {field: "media"}), a plan cap answers ERR_FREE_PLAN_CHATFLOW_LIMIT.
 */
import Validator from "fastest-validator";
import { Errors, type Context, type ServiceSchema } from "moleculer";
import type { ChatbotBinding, ChatbotInbound } from "../chatbot-contract";
import type { PlatformFile, PlatformMessage, PlatformQueue, PlatformTicket, PlatformTimeState, PlatformUser } from "../core-api/contract";
import { collectMedia, MEDIA_MAX_BYTES } from "../media-transfer";
import { chatbotCallParams } from "./chatbot-params";

export interface FakePlatformCall {
  /** Its index in `calls` (since the last reset). */
  seq: number;
  /** "platform.messages.send", "scheduler.schedule"… */
  action: string;
  params: Record<string, any>;
  /** The plugin the call named in $caller (null: none). */
  caller: string | null;
}

export interface FakePlatformRefusal extends FakePlatformCall {
  type: string;
  /** True when the refused id is one of another tenant's: the plugin reached across tenants. */
  crossTenant: boolean;
}

export interface FakeTenantWorld {
  tenantId: number;
  contactId: number;
  connectionId: number;
  queueIds: [number, number];
  userId: number;
  /** Tickets handed to the bot, made by newTicket(). */
  ticketIds: number[];
}

export interface FakePlatformOptions {
  /** The tenants the fake knows (default 201 and 202). */
  tenants?: number[];
  /** What platform.businessTime.state answers (default open). */
  businessTime?: Partial<PlatformTimeState>;
  /** The chatflow cap platform.plan.assertWithin enforces (default 1, the free plan; null: unlimited). */
  chatflowMax?: number | null;
}

export interface FakePlatform {
  /** The services to create on the broker: "platform" and "scheduler". */
  schemas: ServiceSchema[];
  calls: FakePlatformCall[];
  /** Calls whose params break the contract (refused with VALIDATION_ERROR). */
  invalid: Array<FakePlatformCall & { errors: string[] }>;
  /** Calls the fake refused with a code (not found, not the owner, plan cap…). */
  refused: FakePlatformRefusal[];
  sent: Array<PlatformMessage & { tenantId: number; media: Record<string, unknown> | null }>;
  files: Array<PlatformFile & { tenantId: number }>;
  bindings: Array<ChatbotBinding & { tenantId: number }>;
  jobs: Array<Record<string, any>>;
  world(tenantId: number): FakeTenantWorld;
  ticket(id: number): (PlatformTicket & { tenantId: number; owner: { pluginId: string; ref: string } | null }) | undefined;
  /** A new ticket of the tenant handed to `pluginId`'s bot `ref` (status chatbot). */
  newTicket(tenantId: number, owner: { pluginId: string; ref: string }): number;
  /** A well-formed inbound for a ticket (a new id unless `id` is given). */
  inbound(ticketId: number, reason: ChatbotInbound["reason"], body?: string | null, id?: string): ChatbotInbound;
  /** Forgets recorded calls (the worlds stay). */
  reset(): void;
}

const ACTING = new Set(["platform.messages.send", "platform.chatbots.handoff", "platform.tickets.update"]);
/** Calls that act on a ticket (what a bot does with an inbound): a message, a hand-off, a close. */
export const isActingCall = (c: FakePlatformCall): boolean => ACTING.has(c.action);

class CodeError extends Errors.MoleculerClientError {
  constructor(type: string, status: number, data: Record<string, unknown> = {}) {
    super(type, status, type, data);
  }
}

export function createFakePlatform(opts: FakePlatformOptions = {}): FakePlatform {
  const v = new Validator();
  const checks = Object.fromEntries(Object.entries(chatbotCallParams).map(([a, p]) => [a, v.compile(p as never)]));
  const tenants = opts.tenants ?? [201, 202];
  const worlds = new Map<number, FakeTenantWorld>();
  const tickets = new Map<number, PlatformTicket & { tenantId: number; owner: { pluginId: string; ref: string } | null }>();
  const messages: FakePlatform["sent"] = [];
  let nextId = 1;
  const stamp = () => new Date().toISOString();

  for (const tenantId of tenants) {
    const base = tenantId * 1000;
    worlds.set(tenantId, { tenantId, contactId: base + 1, connectionId: base + 2, queueIds: [base + 3, base + 4], userId: base + 5, ticketIds: [] });
  }
  /** Which tenant an id of a kind belongs to (undefined: nobody's). */
  const ownerOf = (kind: "ticket" | "queue" | "user" | "contact" | "connection", id: number): number | undefined => {
    if (kind === "ticket") return tickets.get(id)?.tenantId;
    for (const w of worlds.values()) {
      const ids = kind === "queue" ? w.queueIds : [kind === "user" ? w.userId : kind === "contact" ? w.contactId : w.connectionId];
      if ((ids as number[]).includes(id)) return w.tenantId;
    }
    return undefined;
  };

  const fake: FakePlatform = {
    schemas: [],
    calls: [],
    invalid: [],
    refused: [],
    sent: messages,
    files: [],
    bindings: [],
    jobs: [],
    world(tenantId) {
      const w = worlds.get(tenantId);
      if (!w) throw new Error(`the fake core knows no tenant ${tenantId} (it has ${tenants.join(", ")})`);
      return w;
    },
    ticket: (id) => tickets.get(id),
    newTicket(tenantId, owner) {
      const w = fake.world(tenantId);
      const id = tenantId * 1000 + 100 + w.ticketIds.length;
      const now = stamp();
      tickets.set(id, {
        id,
        tenantId,
        owner,
        protocol: `2026${id}`,
        status: "chatbot",
        contactId: w.contactId,
        connectionId: w.connectionId,
        queueId: null,
        userId: null,
        isGroup: false,
        unreadMessages: 1,
        lastMessage: null,
        lastMessageAt: Date.now(),
        closedAt: null,
        createdAt: now,
        updatedAt: now,
        contact: { id: w.contactId, name: `Cliente ${tenantId}`, profilePicUrl: null },
        tags: [],
      });
      w.ticketIds.push(id);
      return id;
    },
    inbound(ticketId, reason, body = "Olá", id) {
      const t = tickets.get(ticketId);
      if (!t || !t.owner) throw new Error(`ticket ${ticketId} is not one the fake core handed to a bot`);
      const { tenantId, owner, ...ticket } = t;
      const message: PlatformMessage | null =
        body === null ? null : { id: nextId++, ticketId, fromMe: false, userId: null, body, mediaType: null, status: "received", createdAt: stamp() };
      return {
        id: id ?? `${ticketId}:${message ? message.id : `start:${nextId++}`}`,
        tenantId,
        ref: owner.ref,
        reason,
        ticket: { ...ticket },
        contact: { id: t.contactId, name: `Cliente ${tenantId}`, number: `55119${String(t.contactId).padStart(8, "0")}`, email: null },
        message,
        at: Date.now(),
      };
    },
    reset() {
      for (const l of [fake.calls, fake.invalid, fake.refused, fake.sent, fake.jobs]) l.length = 0;
    },
  };

  /** Records the call and checks its params; answers the call's tenant. */
  function enter(action: string, ctx: Context<any>): { tenantId: number; caller: string | null; p: Record<string, any> } {
    const caller = ((ctx.meta as { $caller?: { plugin?: unknown } }).$caller?.plugin as string | undefined) ?? null;
    const call: FakePlatformCall = { seq: fake.calls.length, action, params: ctx.params, caller };
    fake.calls.push(call);
    const check = checks[action];
    const res = check ? check(ctx.params ?? {}) : true;
    const errors = res === true ? [] : (res as Array<{ message?: string }>).map((e) => String(e.message));
    if (!caller && action.startsWith("platform.")) errors.push("the call names no plugin ($caller): use the SDK's coreApi(ctx)");
    const local = /^v\d+\.([a-z0-9][a-z0-9-]*)$/.exec(ctx.caller ?? "")?.[1];
    if (action.startsWith("scheduler.") && !errors.length && local && ctx.params.owner !== local) return refuse(call, "ERR_NO_PERMISSION", 403, { owner: ctx.params.owner, caller: local });
    if (action.startsWith("platform.") && ctx.params?.tenantId !== undefined && !worlds.has(ctx.params.tenantId) && !errors.length) {
      return refuse(call, "ERR_PLUGIN_DISABLED", 403, { tenantId: ctx.params.tenantId });
    }
    if (errors.length) {
      fake.invalid.push({ ...call, errors });
      throw new Errors.ValidationError("Parameters validation error!", "VALIDATION_ERROR", errors.map((message) => ({ type: "contract", message })) as never);
    }
    return { tenantId: ctx.params.tenantId, caller, p: ctx.params };
  }

  function refuse(call: FakePlatformCall, type: string, status: number, data: Record<string, unknown>, crossTenant = false): never {
    fake.refused.push({ ...call, type, crossTenant });
    throw new CodeError(type, status, data);
  }

  /** The tenant's own object of `kind`, else its not-found code (noting when it is another tenant's). */
  function own(call: FakePlatformCall, tenantId: number, kind: "ticket" | "queue" | "user" | "contact" | "connection", id: number): void {
    const owner = ownerOf(kind, id);
    if (owner === tenantId) return;
    const code = { ticket: "ERR_TICKET_NOT_FOUND", queue: "ERR_QUEUE_NOT_FOUND", user: "ERR_USER_NOT_FOUND", contact: "ERR_CONTACT_NOT_FOUND", connection: "ERR_CONNECTION_NOT_FOUND" }[kind];
    refuse(call, code, 404, { id }, owner !== undefined);
  }

  const last = () => fake.calls[fake.calls.length - 1];
  const ticketOut = (id: number): PlatformTicket => {
    const { tenantId: _t, owner: _o, ...t } = tickets.get(id)!;
    return { ...t };
  };
  const queuesOf = (w: FakeTenantWorld): PlatformQueue[] => w.queueIds.map((id, i) => ({ id, name: i ? "Suporte" : "Vendas", color: i ? "#0000ff" : "#00ff00" }));
  const userOf = (w: FakeTenantWorld): PlatformUser => ({ id: w.userId, name: `Atendente ${w.tenantId}`, profile: "user", online: true, queueIds: [...w.queueIds] });
  const page = <T>(rows: T[]) => ({ rows, count: rows.length, hasMore: false });

  type Handler = (ctx: Context<any>) => unknown;
  const act = (action: string, fn: (c: { tenantId: number; caller: string | null; p: Record<string, any>; ctx: Context<any> }) => unknown): Handler =>
    async (ctx) => fn({ ...enter(action, ctx), ctx });

  const platform: Record<string, Handler> = {
    "tickets.get": act("platform.tickets.get", ({ tenantId, p }) => (own(last(), tenantId, "ticket", p.id), ticketOut(p.id))),
    "tickets.list": act("platform.tickets.list", ({ tenantId }) => page(fake.world(tenantId).ticketIds.map(ticketOut))),
    "tickets.update": act("platform.tickets.update", ({ tenantId, p }) => {
      own(last(), tenantId, "ticket", p.id);
      if (p.queueId) own(last(), tenantId, "queue", p.queueId);
      if (p.userId) own(last(), tenantId, "user", p.userId);
      const t = tickets.get(p.id)!;
      Object.assign(t, {
        ...(p.status ? { status: p.status, closedAt: p.status === "closed" ? stamp() : null } : {}),
        ...("queueId" in p ? { queueId: p.queueId } : {}),
        ...("userId" in p ? { userId: p.userId } : {}),
        updatedAt: stamp(),
      });
      if (t.status !== "chatbot") t.owner = null;
      return ticketOut(p.id);
    }),
    "contacts.get": act("platform.contacts.get", ({ tenantId, p }) => {
      own(last(), tenantId, "contact", p.id);
      const now = stamp();
      return { id: p.id, name: `Cliente ${tenantId}`, number: null, email: null, profilePicUrl: null, isGroup: false, tags: [], birthday: null, state: null, createdAt: now, updatedAt: now };
    }),
    "contacts.update": act("platform.contacts.update", ({ tenantId, p }) => {
      own(last(), tenantId, "contact", p.id);
      const now = stamp();
      return { id: p.id, name: p.name ?? `Cliente ${tenantId}`, number: null, email: p.email ?? null, profilePicUrl: null, isGroup: false, tags: [], birthday: null, state: null, createdAt: now, updatedAt: now };
    }),
    "messages.list": act("platform.messages.list", ({ tenantId, p }) => (own(last(), tenantId, "ticket", p.ticketId), page(messages.filter((m) => m.ticketId === p.ticketId)))),
    "messages.send": act("platform.messages.send", ({ tenantId, p }) => {
      own(last(), tenantId, "ticket", p.ticketId);
      if (tickets.get(p.ticketId)!.status === "closed") refuse(last(), "ERR_TICKET_NOT_FOUND", 404, { id: p.ticketId, reason: "closed" });
      if (p.media && !fake.files.some((f) => f.tenantId === tenantId && f.path === p.media.path)) {
        refuse(last(), "ERR_VALIDATION", 422, { field: "media" }, fake.files.some((f) => f.path === p.media.path));
      }
      if (!p.media && !String(p.body).trim()) refuse(last(), "ERR_REQUIRED_BODY", 400, { field: "body" });
      const m = { id: nextId++, ticketId: p.ticketId, fromMe: true, userId: null, body: p.body, mediaType: p.media ? String(p.media.mimeType).split("/")[0] : null, status: "pending", createdAt: stamp() };
      messages.push({ ...m, tenantId, media: p.media ?? null });
      return m;
    }),
    "queues.list": act("platform.queues.list", ({ tenantId }) => queuesOf(fake.world(tenantId))),
    "users.list": act("platform.users.list", ({ tenantId }) => [userOf(fake.world(tenantId))]),
    "users.get": act("platform.users.get", ({ tenantId, p }) => (own(last(), tenantId, "user", p.id), userOf(fake.world(tenantId)))),
    "users.availability": act("platform.users.availability", ({ tenantId, p }) => (own(last(), tenantId, "user", p.userId), null)),
    "tags.list": act("platform.tags.list", () => []),
    "settings.get": act("platform.settings.get", () => ({})),
    "notes.list": act("platform.notes.list", () => page([])),
    "realtime.push": act("platform.realtime.push", () => ({ delivered: true })),
    "businessTime.state": act("platform.businessTime.state", ({ tenantId, p }) => {
      const target = p.target ?? {};
      if (target.queueId) own(last(), tenantId, "queue", target.queueId);
      if (target.userId) own(last(), tenantId, "user", target.userId);
      if (target.connectionId) own(last(), tenantId, "connection", target.connectionId);
      const state: PlatformTimeState = { open: true, reason: "open", message: null, scheduleId: null, holidayId: null, period: null, nextOpenAt: null, openWithin24h: true, nextDayHasHours: true };
      return { ...state, ...(opts.businessTime ?? {}) };
    }),
    "chatbots.bindings": act("platform.chatbots.bindings", ({ tenantId }) => fake.bindings.filter((b) => b.tenantId === tenantId).map(({ tenantId: _t, ...b }) => b)),
    "chatbots.bind": act("platform.chatbots.bind", ({ tenantId, caller, p }) => {
      own(last(), tenantId, p.scope === "queue" ? "queue" : "connection", p.targetId);
      const same = (b: ChatbotBinding & { tenantId: number }) => b.tenantId === tenantId && b.scope === p.scope && b.targetId === p.targetId;
      const i = fake.bindings.findIndex(same);
      if (p.ref === null) {
        if (i >= 0 && fake.bindings[i].pluginId === caller) fake.bindings.splice(i, 1);
        return { bound: false };
      }
      if (i >= 0) fake.bindings.splice(i, 1);
      fake.bindings.push({ tenantId, scope: p.scope, targetId: p.targetId, pluginId: caller!, ref: p.ref });
      return { bound: true };
    }),
    "chatbots.start": act("platform.chatbots.start", ({ tenantId, caller, p }) => {
      own(last(), tenantId, "ticket", p.ticketId);
      const t = tickets.get(p.ticketId)!;
      if (t.status !== "pending" || t.userId) refuse(last(), "ERR_VALIDATION", 422, { field: "ticketId", status: t.status });
      Object.assign(t, { status: "chatbot", owner: { pluginId: caller!, ref: p.ref }, updatedAt: stamp() });
      return ticketOut(p.ticketId);
    }),
    "chatbots.handoff": act("platform.chatbots.handoff", ({ tenantId, caller, p }) => {
      own(last(), tenantId, "ticket", p.ticketId);
      if (p.queueId) own(last(), tenantId, "queue", p.queueId);
      if (p.userId) own(last(), tenantId, "user", p.userId);
      const t = tickets.get(p.ticketId)!;
      if (t.status !== "chatbot" || t.owner?.pluginId !== caller) refuse(last(), "ERR_CHATBOT_NOT_OWNER", 409, { ticketId: p.ticketId });
      const distributed = !p.userId && p.queueId && p.distribute && p.distribute !== "none" ? fake.world(tenantId).userId : null;
      const userId = p.userId ?? distributed;
      Object.assign(t, { status: userId ? "open" : "pending", queueId: p.queueId ?? t.queueId, userId: userId ?? null, owner: null, updatedAt: stamp() });
      return ticketOut(p.ticketId);
    }),
    "plan.assertWithin": act("platform.plan.assertWithin", ({ p }) => {
      const max = opts.chatflowMax === undefined ? 1 : opts.chatflowMax;
      if (max !== null && p.current >= max) refuse(last(), "ERR_FREE_PLAN_CHATFLOW_LIMIT", 403, { current: p.current, max, kind: p.kind });
      return { max };
    }),
    "files.upload": act("platform.files.upload", async ({ tenantId, p, ctx }) => {
      const stream = (ctx as unknown as { stream?: AsyncIterable<unknown> }).stream;
      if (!stream) refuse(last(), "ERR_VALIDATION", 422, { field: "stream", rule: "required" });
      const max = Math.min(p.maxBytes ?? MEDIA_MAX_BYTES, MEDIA_MAX_BYTES);
      const data = await collectMedia(stream!, max).catch(() => refuse(last(), "ERR_MEDIA_TOO_LARGE", 413, { field: "media", max }));
      const path = `tenants/${tenantId}/plugin-files/conformance/${nextId++}-${p.fileName}`;
      const file: PlatformFile = { path, url: `/api/files/${encodeURIComponent(path)}`, mimeType: p.mimeType, fileName: p.fileName, size: data.length };
      fake.files.push({ ...file, tenantId });
      return file;
    }),
  };

  const jobId = (j: Record<string, any>) => `${j.owner}:${j.tenantId}:${j.name}:${j.key}`;
  const scheduler: Record<string, Handler> = {
    schedule: act("scheduler.schedule", ({ p }) => {
      const i = fake.jobs.findIndex((j) => jobId(j) === jobId(p));
      const runAt = p.runAt !== undefined ? new Date(p.runAt).getTime() : Date.now() + (p.delayMs ?? (typeof p.every === "number" ? p.every : 0));
      const status = i < 0 ? "created" : fake.jobs[i].runAt === runAt ? "unchanged" : "replaced";
      if (i >= 0) fake.jobs.splice(i, 1);
      fake.jobs.push({ ...p, runAt });
      return { jobId: jobId(p), runAt, status };
    }),
    cancel: act("scheduler.cancel", ({ p }) => {
      const i = fake.jobs.findIndex((j) => jobId(j) === jobId(p));
      if (i >= 0) fake.jobs.splice(i, 1);
      return { cancelled: i >= 0, jobId: i >= 0 ? jobId(p) : null };
    }),
    list: act("scheduler.list", ({ p }) =>
      fake.jobs
        .filter((j) => j.owner === p.owner && j.tenantId === p.tenantId && (!p.name || j.name === p.name))
        .map((j) => ({ jobId: jobId(j), owner: j.owner, name: j.name, key: j.key, tenantId: j.tenantId, runAt: j.runAt, every: j.every ?? null, data: j.data ?? {} })),
    ),
  };

  fake.schemas = [
    { name: "platform", actions: platform as ServiceSchema["actions"] },
    { name: "scheduler", actions: scheduler as ServiceSchema["actions"] },
  ];
  return fake;
}
