/**
 * The groups' routes for /configuracoes/grupos (admins of a PLUS tenant; spec §3 "Internal chat
 * group: name, image, active, users"; §4 "group photo 5MB and image only"). Members must be
 * users of the tenant (another tenant's id: the core's ERR_USER_NOT_FOUND); another tenant's
 * group: ERR_INTERNAL_CHAT_GROUP_NOT_FOUND. Every change tells the members before and after
 * (`groups.changed`), so their chat lists follow.
 */
import { coreApi, PluginError, uploadPlatformFile } from "@openatende/plugin-sdk";
import { assertGroupImage, decodeUpload, GROUP_IMAGE_MAX_BYTES, GROUP_NAME_MAX, GROUP_USERS_MAX } from "./rules";
import { callerOf, EVENTS, groupNotFound, groupView, pushTo, storeOf, type Caller, type Ctx } from "./context";

const id = { type: "number", integer: true, positive: true, convert: true } as const;
const name = { type: "string", trim: true, empty: false, max: GROUP_NAME_MAX } as const;
const userIds = { type: "array", items: { type: "number", integer: true, positive: true }, min: 1, max: GROUP_USERS_MAX } as const;
const active = { type: "boolean", optional: true, convert: true } as const;

const route = (rest: string) => ({ rest, access: "admin" as const, tier: "PLUS" as const });

/** The ids, once each, all of them users of the tenant. */
async function tenantUsers(ctx: Ctx<unknown>, me: Caller, ids: number[]): Promise<number[]> {
  const known = new Set((await coreApi(ctx).users.list({ tenantId: me.tenantId })).map((u) => u.id));
  const unknown = ids.filter((u) => !known.has(u));
  if (unknown.length) throw new PluginError("ERR_USER_NOT_FOUND", 404, { id: unknown[0], ids: unknown });
  return [...new Set(ids)].sort((a, b) => a - b);
}

async function existing(ctx: Ctx<unknown>, me: Caller, groupId: number) {
  const g = await storeOf(ctx).group(me.tenantId, groupId);
  if (!g) throw groupNotFound(groupId);
  return g;
}

async function answer(ctx: Ctx<unknown>, me: Caller, groupId: number, tell: number[]) {
  const g = (await storeOf(ctx).groups(me.tenantId)).find((x) => x.id === groupId);
  await pushTo(ctx, me.tenantId, [...tell, ...(g?.userIds ?? [])], EVENTS.groups, { groupId });
  return g ? groupView(g) : null;
}

export const groupActions = {
  listGroups: {
    ...route("GET /chat-interno/groups"),
    async handler(ctx: Ctx) {
      const me = callerOf(ctx);
      return (await storeOf(ctx).groups(me.tenantId)).map(groupView);
    },
  },

  createGroup: {
    ...route("POST /chat-interno/groups"),
    params: { name, userIds, active },
    async handler(ctx: Ctx<{ name: string; userIds: number[]; active?: boolean }>) {
      const me = callerOf(ctx);
      const members = await tenantUsers(ctx, me, ctx.params.userIds);
      const g = await storeOf(ctx).createGroup(me.tenantId, { name: ctx.params.name, active: ctx.params.active ?? true, userIds: members });
      return answer(ctx, me, g.id, []);
    },
  },

  updateGroup: {
    ...route("PUT /chat-interno/groups"),
    params: { id, name: { ...name, optional: true }, userIds: { ...userIds, optional: true }, active, removeImage: { type: "boolean", optional: true } },
    async handler(ctx: Ctx<{ id: number; name?: string; userIds?: number[]; active?: boolean; removeImage?: boolean }>) {
      const me = callerOf(ctx);
      await existing(ctx, me, ctx.params.id);
      const members = ctx.params.userIds ? await tenantUsers(ctx, me, ctx.params.userIds) : undefined;
      const before = await storeOf(ctx).updateGroup(me.tenantId, ctx.params.id, { name: ctx.params.name, active: ctx.params.active, userIds: members, image: ctx.params.removeImage ? null : undefined });
      return answer(ctx, me, ctx.params.id, before);
    },
  },

  deleteGroup: {
    ...route("DELETE /chat-interno/groups"),
    params: { id },
    async handler(ctx: Ctx<{ id: number }>) {
      const me = callerOf(ctx);
      await existing(ctx, me, ctx.params.id);
      const before = await storeOf(ctx).deleteGroup(me.tenantId, ctx.params.id);
      await pushTo(ctx, me.tenantId, before, EVENTS.groups, { groupId: ctx.params.id, deleted: true });
      return { id: ctx.params.id, deleted: true };
    },
  },

  /** The group's photo: an image (by its type here, by its content in the core), at most 5 MB. */
  setGroupImage: {
    ...route("POST /chat-interno/groups/image"),
    params: {
      id,
      file: {
        type: "object",
        strict: "remove",
        props: { fileName: { type: "string", trim: true, empty: false, max: 255 }, mimeType: { type: "string", trim: true, empty: false, max: 120 }, data: { type: "string", empty: true } },
      },
    },
    async handler(ctx: Ctx<{ id: number; file: { fileName: string; mimeType: string; data: string } }>) {
      const me = callerOf(ctx);
      const f = ctx.params.file;
      assertGroupImage(f.mimeType);
      const bytes = decodeUpload(f.data, GROUP_IMAGE_MAX_BYTES);
      await existing(ctx, me, ctx.params.id);
      const stored = await uploadPlatformFile(ctx, { tenantId: me.tenantId, data: bytes, mimeType: f.mimeType, fileName: f.fileName, maxBytes: GROUP_IMAGE_MAX_BYTES });
      const before = await storeOf(ctx).updateGroup(me.tenantId, ctx.params.id, { image: { path: stored.path, url: stored.url } });
      return answer(ctx, me, ctx.params.id, before);
    },
  },
};
