/**
 * Schedules (spec §3 Business hours, §5): the tenant's own global schedule (/configuracoes/
 * horario, routes /business-hours/global) and the schedules by queue, user or WhatsApp
 * connection (/configuracoes/business-hours). A target is covered by one active schedule of a
 * type at a time, so which schedule decides is never a coin toss.
 */
import { Op, type Transaction } from "sequelize";
import type { ActionSchema } from "moleculer";
import { AppError } from "../../errors/app-error";
import { lockTenantRow } from "../../db/row-locks";
import type { Ctx } from "../../types";
import type { BusinessTimeKit } from "./kit";
import type { BusinessHoursModel, BusinessHoursRow } from "../model";
import { daysParam, idParam, messagesParam, targetIdsParam, textOrNull } from "./params";
import { checkTargets, targetNames } from "./targets";
import { validateDays } from "../rules";
import type { BusinessHoursType, BusinessTimeMessages, DayHours } from "../types";

type TargetType = Exclude<BusinessHoursType, "global">;
const TARGET_TYPES: TargetType[] = ["queue", "user", "whatsapp"];

const closed = (): DayHours => ({ mode: "closed", morning: null, afternoon: null });
const weekday = (): DayHours => ({ mode: "specific", morning: { start: "08:00", end: "12:00" }, afternoon: { start: "13:00", end: "18:00" } });

/** The hours a tenant that never saved its own starts from: Monday to Friday 08:00–12:00 and 13:00–18:00, weekend closed. */
export const defaultDays = (): DayHours[] => [closed(), weekday(), weekday(), weekday(), weekday(), weekday(), closed()];

export const tenantOf = (ctx: Ctx): number => {
  const tenantId = ctx.meta.user?.tenantId;
  if (!tenantId) throw new AppError("ERR_SESSION_REQUIRED");
  return tenantId;
};

const messagesOf = (m: BusinessTimeMessages | undefined): Required<BusinessTimeMessages> => ({
  outOfHours: textOrNull(m?.outOfHours),
  holiday: textOrNull(m?.holiday),
  lunch: textOrNull(m?.lunch),
});

/** A week of hours as stored: 7 days, each with its ranges or null; their meaning checked by the rules. */
export function checkDays(days: DayHours[] | undefined): DayHours[] {
  if (!Array.isArray(days) || days.length !== 7) throw new AppError("ERR_VALIDATION", { field: "days", rule: "arrayLength", expected: 7 });
  const week = days.map((d) => ({ mode: d.mode, morning: d.morning ?? null, afternoon: d.afternoon ?? null }));
  const bad = validateDays(week);
  if (bad) throw new AppError("ERR_BUSINESS_HOURS_INVALID_RANGE", { field: `days[${bad.day}]`, ...bad });
  return week;
}

type HoursView = Omit<BusinessHoursRow, "globalKey" | "tenantId" | "id" | "messages"> & {
  id: number | null;
  messages: Required<BusinessTimeMessages>;
  targets: Array<{ id: number; name: string }>;
};

function viewOf(r: BusinessHoursRow, targets: Array<{ id: number; name: string }> = []): HoursView {
  return {
    id: r.id,
    name: r.name,
    type: r.type,
    targetIds: r.targetIds ?? [],
    targets,
    active: !!r.active,
    days: r.days,
    messages: messagesOf(r.messages),
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  };
}

/** Views with the names of their targets (one look-up per type). */
async function viewsOf(ctx: Ctx, tenantId: number, rows: BusinessHoursRow[]): Promise<HoursView[]> {
  const names = new Map<string, string>();
  for (const type of TARGET_TYPES) {
    const ids = [...new Set(rows.filter((r) => r.type === type).flatMap((r) => r.targetIds ?? []))];
    for (const t of await targetNames(ctx, tenantId, type, ids)) names.set(`${type}:${t.id}`, t.name);
  }
  return rows.map((r) =>
    viewOf(
      r,
      (r.targetIds ?? []).filter((id) => names.has(`${r.type}:${id}`)).map((id) => ({ id, name: names.get(`${r.type}:${id}`)! })),
    ),
  );
}

/** Another active schedule of the type covering one of the targets (checked under the tenant's row lock). */
async function checkConflict(kit: BusinessTimeKit, tenantId: number, type: TargetType, targetIds: number[], exceptId: number | null, transaction: Transaction) {
  const others = await kit.BusinessHours.findAll({
    where: { tenantId, type, active: true, ...(exceptId ? { id: { [Op.ne]: exceptId } } : {}) },
    transaction,
  });
  for (const o of others) {
    const overlap = (o.get("targetIds") as number[]).filter((id) => targetIds.includes(id));
    if (overlap.length) throw new AppError("ERR_BUSINESS_HOURS_CONFLICT", { field: "targetIds", ids: overlap, scheduleId: o.get("id"), name: o.get("name") });
  }
}

const plain = (r: BusinessHoursModel): BusinessHoursRow => r.get({ plain: true });

interface Writable {
  name?: string;
  type?: TargetType;
  targetIds?: number[];
  active?: boolean;
  days?: DayHours[];
  messages?: BusinessTimeMessages;
}

const writable = {
  name: { type: "string", min: 1, max: 120, trim: true },
  type: { type: "enum", values: TARGET_TYPES },
  targetIds: targetIdsParam,
  active: { type: "boolean", optional: true, convert: true },
  days: daysParam,
  messages: { ...messagesParam, optional: true },
};
const optional = Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, { ...v, optional: true }]));

export function hoursActions(kit: BusinessTimeKit): Record<string, ActionSchema> {
  const { BusinessHours, deps } = kit;

  async function findSchedule(tenantId: number, id: number, transaction?: Transaction): Promise<BusinessHoursModel> {
    // The global schedule is reached through /business-hours/global only.
    const row = await BusinessHours.findOne({ where: { id, tenantId, type: { [Op.ne]: "global" } }, transaction, lock: transaction ? true : undefined });
    if (!row) throw new AppError("ERR_BUSINESS_HOURS_NOT_FOUND", { id });
    return row;
  }

  return {
    hoursList: {
      rest: "GET /business-hours",
      access: "admin",
      params: { type: { type: "enum", values: TARGET_TYPES, optional: true } },
      async handler(ctx: Ctx<{ type?: TargetType }>) {
        const tenantId = tenantOf(ctx);
        const type = ctx.params.type ? ctx.params.type : { [Op.in]: TARGET_TYPES };
        const rows = await BusinessHours.findAll({ where: { tenantId, type }, order: [["type", "ASC"], ["name", "ASC"], ["id", "ASC"]], limit: 2000 });
        return viewsOf(ctx, tenantId, rows.map(plain));
      },
    },
    hoursGlobal: {
      rest: "GET /business-hours/global",
      access: "admin",
      async handler(ctx: Ctx) {
        const tenantId = tenantOf(ctx);
        const row = await BusinessHours.findOne({ where: { tenantId, globalKey: tenantId } });
        if (row) return viewOf(plain(row));
        // Never saved: the default a new tenant starts from (inactive: it decides nothing yet).
        return { ...viewOf({ id: 0, tenantId, name: "", type: "global", globalKey: tenantId, targetIds: [], active: false, days: defaultDays(), messages: {} }), id: null };
      },
    },
    hoursSetGlobal: {
      rest: "PUT /business-hours/global",
      access: "admin",
      params: { name: { type: "string", max: 120, trim: true, optional: true }, active: { type: "boolean", convert: true }, days: daysParam, messages: messagesParam },
      async handler(ctx: Ctx<{ name?: string; active: boolean; days: DayHours[]; messages: BusinessTimeMessages }>) {
        const tenantId = tenantOf(ctx);
        const days = checkDays(ctx.params.days);
        const values = { active: ctx.params.active, days, messages: messagesOf(ctx.params.messages), ...(ctx.params.name !== undefined ? { name: ctx.params.name } : {}) };
        const row = await deps.sequelize.transaction(async (transaction) => {
          await lockTenantRow(deps.sequelize, tenantId, transaction);
          const found = await BusinessHours.findOne({ where: { tenantId, globalKey: tenantId }, transaction });
          if (found) return found.update(values, { transaction });
          return BusinessHours.create({ tenantId, type: "global", globalKey: tenantId, targetIds: [], name: "", ...values }, { transaction });
        });
        await kit.changed(ctx, tenantId, "hours");
        return viewOf(plain(row));
      },
    },
    hoursCreate: {
      rest: "POST /business-hours",
      access: "admin",
      params: writable,
      async handler(ctx: Ctx<Required<Writable>>) {
        const tenantId = tenantOf(ctx);
        const p = ctx.params;
        const targetIds = await checkTargets(ctx, tenantId, p.type, p.targetIds);
        const days = checkDays(p.days);
        const active = p.active ?? true;
        const row = await deps.sequelize.transaction(async (transaction) => {
          await lockTenantRow(deps.sequelize, tenantId, transaction);
          if (active) await checkConflict(kit, tenantId, p.type, targetIds, null, transaction);
          return BusinessHours.create({ tenantId, name: p.name, type: p.type, globalKey: null, targetIds, active, days, messages: messagesOf(p.messages) }, { transaction });
        });
        await kit.changed(ctx, tenantId, "hours");
        ctx.meta.$statusCode = 201;
        return (await viewsOf(ctx, tenantId, [plain(row)]))[0];
      },
    },
    hoursUpdate: {
      rest: "PUT /business-hours/:id",
      access: "admin",
      resource: "businessHours",
      params: { id: idParam, ...optional },
      async handler(ctx: Ctx<Writable & { id: number }>) {
        const tenantId = tenantOf(ctx);
        const p = ctx.params;
        const current = plain(await findSchedule(tenantId, p.id));
        const type = p.type ?? (current.type as TargetType);
        const targetIds = p.targetIds !== undefined || type !== current.type ? await checkTargets(ctx, tenantId, type, p.targetIds) : current.targetIds;
        const patch: Partial<BusinessHoursRow> = { type, targetIds };
        if (p.name !== undefined) patch.name = p.name;
        if (p.active !== undefined) patch.active = p.active;
        if (p.days !== undefined) patch.days = checkDays(p.days);
        if (p.messages !== undefined) patch.messages = messagesOf(p.messages);
        const row = await deps.sequelize.transaction(async (transaction) => {
          await lockTenantRow(deps.sequelize, tenantId, transaction);
          const r = await findSchedule(tenantId, p.id, transaction);
          if (patch.active ?? r.get("active")) await checkConflict(kit, tenantId, type, targetIds, p.id, transaction);
          return r.update(patch, { transaction });
        });
        await kit.changed(ctx, tenantId, "hours");
        return (await viewsOf(ctx, tenantId, [plain(row)]))[0];
      },
    },
    hoursRemove: {
      rest: "DELETE /business-hours/:id",
      access: "admin",
      resource: "businessHours",
      params: { id: idParam },
      async handler(ctx: Ctx<{ id: number }>) {
        const tenantId = tenantOf(ctx);
        const row = await findSchedule(tenantId, ctx.params.id);
        await row.destroy();
        await kit.changed(ctx, tenantId, "hours");
        return { id: ctx.params.id, deleted: true };
      },
    },
  };
}
