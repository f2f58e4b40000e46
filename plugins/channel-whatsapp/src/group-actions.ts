/**
 * The Groups tab's WhatsApp routes (admins of the tenant; the connection is named by its
 * token, as in the connection form's routes):
 *
 *   POST /api/channel-whatsapp/groups                  { token, name, contactIds, picture? }
 *        → the new group (spec §5 Group: name, connection and contacts required, at most
 *          1,023 participants; photo ≤ 5 MB, image only)
 *   GET  /api/channel-whatsapp/groups/join-requests?token=…&group=…   → pending requests
 *   POST /api/channel-whatsapp/groups/join-requests    { token, group, participants, action }
 *        → one answer per person (spec §4 Other: join requests approved or rejected)
 *
 * Participants are the tenant's contacts by id: their WhatsApp addresses come from the core
 * (the identity this channel reported, else the number), so a contact of another tenant is
 * not found (404), like an unknown one. `group` is the group's JID or the id of the tenant's
 * contact that stands for the group (the Groups tab knows its tickets' contacts, not JIDs).
 *
 * Every client mistake is answered before WhatsApp is asked. The work runs where the session
 * runs: on another node of the plugin the call is forwarded there, once.
 *
 * Wiring: the service spreads `groupActions` into its actions; handlers take `this` as the
 * service (its `wa.manager` and `fullName`).
 */
import { Errors } from "moleculer";
import type { Context } from "moleculer";
import { call, coreApi, resolveToken, type ConnectionRef, type ResolvedToken } from "@openatende/plugin-sdk";
import { answerJoinRequests, checkNewGroup, createGroup, listJoinRequests, GROUP_PARTICIPANTS_MAX, GROUP_PICTURE_MAX_BYTES, type CreatedGroup, type JoinRequest, type JoinRequestResult } from "./groups";
import { isGroupJid, jidOfExternalId } from "./messages/jids";
import type { SessionPort } from "./ports";
import { connectionNotFound, notConnected } from "./session/errors";
import type { SessionManager } from "./session/manager";

const PLUGIN_ID = "channel-whatsapp";

/** What the handlers need of the plugin's service. */
interface Host {
  wa: { manager: SessionManager };
  fullName: string;
  broker: { nodeID: string };
}

type Meta = { user?: { tenantId?: number }; waForwarded?: boolean };
type Ctx<P> = Context<P, Meta>;

export interface CreateGroupParams {
  token: string;
  name: string;
  contactIds?: number[];
  /** The photo as base64 (a data: URL prefix is tolerated). */
  picture?: { data: string; mimeType: string; fileName?: string };
}

export interface JoinRequestsParams {
  token: string;
  group: string;
}

export interface AnswerJoinRequestsParams extends JoinRequestsParams {
  participants: string[];
  action: "approve" | "reject";
}

/** New catalogue codes these routes answer (core/src/errors/codes.ts). */
export const GROUP_PICTURE_TOO_LARGE = "ERR_GROUP_PICTURE_TOO_LARGE";
export const WHATSAPP_GROUP_REFUSED = "ERR_WHATSAPP_GROUP_REFUSED";

const token = { type: "string", min: 10, max: 64 } as const;
/** A group's JID or its contact's id (digits). */
const group = { type: "string", min: 1, max: 120 } as const;
/** Base64 of a bit more than 5 MB: a larger photo still reaches the handler and gets its own code. */
const PICTURE_DATA_MAX = 40 * 1024 * 1024;

// --- helpers ------------------------------------------------------------------------------------------

function clientError(message: string, status: number, code: string, data: Record<string, unknown> = {}) {
  return new Errors.MoleculerClientError(message, status, code, data);
}

/** The caller's tenant's connection of this token (404 for any other, as for an unknown token). */
async function ownConnection(ctx: Ctx<unknown>, tok: string): Promise<ResolvedToken> {
  const tenantId = ctx.meta.user?.tenantId;
  if (!tenantId) throw clientError("Sign in as an administrator", 401, "ERR_SESSION_REQUIRED");
  if (!ctx.meta.waForwarded) await call(ctx, "plugins.isEnabled", { tenantId, id: PLUGIN_ID, assert: true });
  const r = await resolveToken(ctx, tok);
  if (!r || r.tenantId !== tenantId) throw connectionNotFound({ field: "token" });
  return r;
}

/** Baileys' Boom for a socket that closed under the call. */
const closedUnder = (err: unknown) => {
  const e = err as { output?: { statusCode?: number }; isBoom?: boolean };
  return !!e?.isBoom && [408, 428, 440, 500, 503, 515].includes(Number(e.output?.statusCode));
};

/** WhatsApp's refusals (not an admin of the group, a request withdrawn…) as a catalogue error. */
async function onWhatsApp<T>(ref: ConnectionRef, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (typeof (err as { type?: unknown })?.type === "string") throw err;
    if (closedUnder(err)) throw notConnected(ref, `the session closed during the call (${(err as Error).message})`);
    const status = (err as { output?: { statusCode?: number } })?.output?.statusCode;
    throw new Errors.MoleculerError(`WhatsApp refused: ${(err as Error)?.message ?? String(err)}`, 502, WHATSAPP_GROUP_REFUSED, {
      connectionId: ref.connectionId,
      reason: (err as Error)?.message ?? String(err),
      ...(status ? { whatsappStatus: status } : {}),
    });
  }
}

/**
 * Runs `work` on the live session of the connection: here when this node runs it, on its
 * node otherwise (forwarded once), refused with ERR_SESSION_NOT_INITIALIZED when it is not open.
 */
async function onSession<T>(host: Host, ctx: Ctx<object>, action: string, ref: ConnectionRef, work: (port: SessionPort) => Promise<T>): Promise<T> {
  const m = host.wa.manager;
  const e = m.local(ref);
  if (e) {
    if (!e.session.isOpen) throw notConnected(ref);
    return onWhatsApp(ref, () => work(e.port));
  }
  const holder = await m.holder(ref);
  if (holder && holder.nodeId !== host.broker.nodeID && !ctx.meta.waForwarded) {
    return ctx.call(`${host.fullName}.${action}`, ctx.params, { nodeID: holder.nodeId, meta: { waForwarded: true } }) as Promise<T>;
  }
  throw notConnected(ref);
}

/** The base64 photo as bytes, refused by size before anything else looks at it. */
function pictureOf(p: CreateGroupParams["picture"]): { data: Buffer; mimeType: string; fileName?: string } | undefined {
  if (!p) return undefined;
  const b64 = p.data.replace(/^data:[^,]*;base64,/, "");
  const data = Buffer.from(b64, "base64");
  if (data.length > GROUP_PICTURE_MAX_BYTES) throw clientError("A group photo is at most 5 MB", 413, GROUP_PICTURE_TOO_LARGE, { field: "picture", size: data.length, max: GROUP_PICTURE_MAX_BYTES });
  return { data, mimeType: p.mimeType, ...(p.fileName ? { fileName: p.fileName } : {}) };
}

/**
 * The WhatsApp addresses of the tenant's contacts, in the order given, through the core API
 * (the core answers only this channel's addresses, only of the tenant's contacts): an id that
 * is not the tenant's is not found (404, all such ids named); a contact with no address is an
 * invalid number.
 */
async function addressesOf(ctx: Ctx<object>, tenantId: number, ids: number[]): Promise<string[]> {
  const found = await coreApi(ctx)
    .contacts.addresses({ tenantId, ids })
    .catch((err: { type?: string; data?: { ids?: number[] } }) => {
      throw err?.type === "ERR_CONTACT_NOT_FOUND" ? clientError("Contact not found", 404, "ERR_CONTACT_NOT_FOUND", { field: "contactIds", ids: err.data?.ids ?? [] }) : err;
    });
  return found.map(({ id: contactId, address }) => {
    if (!address) throw clientError("The contact has no WhatsApp number", 400, "ERR_CONTACT_NUMBER_INVALID", { field: "contactIds", contactId });
    return address;
  });
}

/** The group's JID: given as one, or the identity of the tenant's contact that stands for it. */
async function groupJidOf(ctx: Ctx<object>, tenantId: number, g: string): Promise<string> {
  const raw = g.trim();
  if (/^\d{1,12}$/.test(raw)) {
    const contactId = Number(raw);
    const [{ address: id }] = await coreApi(ctx)
      .contacts.addresses({ tenantId, ids: [contactId] })
      .catch((err: { type?: string }) => {
        throw err?.type === "ERR_CONTACT_NOT_FOUND" ? clientError("Contact not found", 404, "ERR_CONTACT_NOT_FOUND", { field: "group", id: contactId }) : err;
      });
    const jid = id ? jidOfExternalId(id) : undefined;
    if (!jid || !isGroupJid(jid)) throw clientError("This contact is not a WhatsApp group", 400, "ERR_VALIDATION", { field: "group", rule: "group" });
    return jid;
  }
  const jid = jidOfExternalId(raw);
  if (!jid || !isGroupJid(jid)) throw clientError(`"${raw}" is not a WhatsApp group`, 400, "ERR_VALIDATION", { field: "group", rule: "group" });
  return jid;
}

/** Errors about `participants[i]` of the message side named as the route's `contactIds`. */
function asContactError(err: unknown, ids: number[]): unknown {
  const e = err as { data?: Record<string, unknown> };
  const m = typeof e?.data?.field === "string" ? /^participants\[(\d+)\]$/.exec(e.data.field) : null;
  if (m && e.data) e.data = { ...e.data, field: "contactIds", contactId: ids[Number(m[1])] };
  else if (e?.data?.field === "participants") e.data = { ...e.data, field: "contactIds" };
  return err;
}

// --- actions ------------------------------------------------------------------------------------------

export const GROUP_ACTION_NAMES = { create: "groupCreate", list: "groupJoinRequests", answer: "groupAnswerJoinRequests" } as const;

export const groupActions = {
  [GROUP_ACTION_NAMES.create]: {
    rest: "POST /channel-whatsapp/groups",
    access: "admin" as const,
    params: {
      token,
      name: { type: "string", max: 1000 },
      contactIds: { type: "array", optional: true, max: 20_000, items: { type: "number", integer: true, positive: true, convert: true } },
      picture: {
        type: "object",
        optional: true,
        props: {
          data: { type: "string", max: PICTURE_DATA_MAX },
          mimeType: { type: "string", max: 120 },
          fileName: { type: "string", optional: true, max: 255 },
        },
      },
    },
    async handler(this: unknown, ctx: Ctx<CreateGroupParams>): Promise<CreatedGroup> {
      const r = await ownConnection(ctx, ctx.params.token);
      const ref = { tenantId: r.tenantId, connectionId: r.connectionId };
      const ids = [...new Set(ctx.params.contactIds ?? [])];
      if (!ids.length) throw clientError("A group needs at least one participant", 400, "ERR_REQUIRED_CONTACT", { field: "contactIds" });
      if (ids.length > GROUP_PARTICIPANTS_MAX)
        throw clientError(`A group has at most ${GROUP_PARTICIPANTS_MAX} participants`, 400, "ERR_GROUP_PARTICIPANT_LIMIT", { field: "contactIds", count: ids.length, max: GROUP_PARTICIPANTS_MAX });
      const picture = pictureOf(ctx.params.picture);
      const participants = await addressesOf(ctx, r.tenantId, ids);
      const g = { name: ctx.params.name, participants, ...(picture ? { picture } : {}) };
      try {
        checkNewGroup(g);
      } catch (err) {
        throw asContactError(err, ids);
      }
      return onSession(this as Host, ctx, GROUP_ACTION_NAMES.create, ref, (port) => createGroup(port, g));
    },
  },

  [GROUP_ACTION_NAMES.list]: {
    rest: "GET /channel-whatsapp/groups/join-requests",
    access: "admin" as const,
    params: { token, group },
    async handler(this: unknown, ctx: Ctx<JoinRequestsParams>): Promise<{ group: string; requests: JoinRequest[] }> {
      const r = await ownConnection(ctx, ctx.params.token);
      const jid = await groupJidOf(ctx, r.tenantId, ctx.params.group);
      const requests = await onSession(this as Host, ctx, GROUP_ACTION_NAMES.list, { tenantId: r.tenantId, connectionId: r.connectionId }, (port) => listJoinRequests(port, jid));
      return { group: jid, requests };
    },
  },

  [GROUP_ACTION_NAMES.answer]: {
    rest: "POST /channel-whatsapp/groups/join-requests",
    access: "admin" as const,
    params: {
      token,
      group,
      participants: { type: "array", max: 1024, items: { type: "string", min: 1, max: 120 } },
      action: { type: "enum", values: ["approve", "reject"] },
    },
    async handler(this: unknown, ctx: Ctx<AnswerJoinRequestsParams>): Promise<{ group: string; results: JoinRequestResult[] }> {
      const r = await ownConnection(ctx, ctx.params.token);
      if (!ctx.params.participants.length) throw clientError("Choose at least one request", 400, "ERR_REQUIRED_CONTACT", { field: "participants" });
      const jid = await groupJidOf(ctx, r.tenantId, ctx.params.group);
      const results = await onSession(this as Host, ctx, GROUP_ACTION_NAMES.answer, { tenantId: r.tenantId, connectionId: r.connectionId }, (port) =>
        answerJoinRequests(port, jid, ctx.params.participants, ctx.params.action),
      );
      return { group: jid, results };
    },
  },
};
