/**
 * Holidays (spec §3 Holiday, §5): a local day closed for the whole tenant (type global) or for
 * the queues, users or connections named; `yearly` ones recur on their month and day. Their
 * message overrides the schedules' holiday message.
 */
import { Op, type WhereOptions } from "sequelize";
import type { ActionSchema } from "moleculer";
import { AppError } from "../../errors/app-error";
import type { Ctx } from "../../types";
import type { BusinessTimeKit } from "./kit";
import type { HolidayModel, HolidayRow } from "../model";
import { idParam, targetIdsParam, textOrNull, YMD } from "./params";
import { checkTargets, targetNames } from "./targets";
import { tenantOf } from "./hours";
import { BUSINESS_HOURS_TYPES, type BusinessHoursType } from "../types";

/** "YYYY-MM-DD" naming a real calendar day. */
function checkDate(date: string): string {
  const m = YMD.exec(date) ? date.split("-").map(Number) : null;
  const d = m ? new Date(Date.UTC(m[0], m[1] - 1, m[2])) : null;
  if (!m || !d || m[0] < 1970 || d.getUTCFullYear() !== m[0] || d.getUTCMonth() !== m[1] - 1 || d.getUTCDate() !== m[2]) {
    throw new AppError("ERR_VALIDATION", { field: "date", rule: "date" });
  }
  return date;
}

type HolidayView = Omit<HolidayRow, "tenantId"> & { targets: Array<{ id: number; name: string }> };

async function viewsOf(ctx: Ctx, tenantId: number, rows: HolidayRow[]): Promise<HolidayView[]> {
  const names = new Map<string, string>();
  for (const type of ["queue", "user", "whatsapp"] as const) {
    const ids = [...new Set(rows.filter((r) => r.type === type).flatMap((r) => r.targetIds ?? []))];
    for (const t of await targetNames(ctx, tenantId, type, ids)) names.set(`${type}:${t.id}`, t.name);
  }
  return rows.map((r) => ({
    id: r.id,
    date: r.date,
    description: r.description,
    type: r.type,
    targetIds: r.targetIds ?? [],
    targets: (r.targetIds ?? []).filter((id) => names.has(`${r.type}:${id}`)).map((id) => ({ id, name: names.get(`${r.type}:${id}`)! })),
    yearly: !!r.yearly,
    message: r.message ?? null,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
  }));
}

interface Writable {
  date?: string;
  description?: string;
  type?: BusinessHoursType;
  targetIds?: number[];
  yearly?: boolean;
  message?: string | null;
}

const writable = {
  date: { type: "string", max: 10 },
  description: { type: "string", min: 1, max: 200, trim: true },
  type: { type: "enum", values: BUSINESS_HOURS_TYPES as unknown as string[], optional: true },
  targetIds: { ...targetIdsParam, optional: true },
  yearly: { type: "boolean", optional: true, convert: true },
  message: { type: "string", max: 4000, optional: true, nullable: true },
};
const optional = Object.fromEntries(Object.entries(writable).map(([k, v]) => [k, { ...v, optional: true }]));

const plain = (r: HolidayModel): HolidayRow => r.get({ plain: true });

export function holidaysActions(kit: BusinessTimeKit): Record<string, ActionSchema> {
  const { Holiday } = kit;

  async function findHoliday(tenantId: number, id: number): Promise<HolidayModel> {
    const row = await Holiday.findOne({ where: { id, tenantId } });
    if (!row) throw new AppError("ERR_HOLIDAY_NOT_FOUND", { id });
    return row;
  }

  return {
    holidaysList: {
      rest: "GET /holidays",
      access: "admin",
      params: { year: { type: "number", integer: true, min: 1970, max: 9999, convert: true, optional: true } },
      async handler(ctx: Ctx<{ year?: number }>) {
        const tenantId = tenantOf(ctx);
        const { year } = ctx.params;
        // A year's list holds its own days and every yearly one (which recur in it).
        const where: WhereOptions = year ? { tenantId, [Op.or]: [{ yearly: true }, { date: { [Op.like]: `${year}-%` } }] } : { tenantId };
        const rows = (await Holiday.findAll({ where, order: [["date", "ASC"], ["id", "ASC"]], limit: 5000 })).map(plain);
        // In a year, yearly ones fall on their month and day of it.
        if (year) rows.sort((a, b) => a.date.slice(5).localeCompare(b.date.slice(5)) || a.id - b.id);
        return viewsOf(ctx, tenantId, rows);
      },
    },
    holidaysCreate: {
      rest: "POST /holidays",
      access: "admin",
      params: writable,
      async handler(ctx: Ctx<Writable & { date: string; description: string }>) {
        const tenantId = tenantOf(ctx);
        const p = ctx.params;
        const date = checkDate(p.date);
        const type = p.type ?? "global";
        const targetIds = await checkTargets(ctx, tenantId, type, p.targetIds);
        const row = await Holiday.create({ tenantId, date, description: p.description, type, targetIds, yearly: p.yearly ?? false, message: textOrNull(p.message) });
        await kit.changed(ctx, tenantId, "holidays");
        ctx.meta.$statusCode = 201;
        return (await viewsOf(ctx, tenantId, [plain(row)]))[0];
      },
    },
    holidaysUpdate: {
      rest: "PUT /holidays/:id",
      access: "admin",
      resource: "holidays",
      params: { id: idParam, ...optional },
      async handler(ctx: Ctx<Writable & { id: number }>) {
        const tenantId = tenantOf(ctx);
        const p = ctx.params;
        const row = await findHoliday(tenantId, p.id);
        const current = plain(row);
        const type = p.type ?? current.type;
        const patch: Partial<HolidayRow> = { type };
        patch.targetIds = p.targetIds !== undefined || type !== current.type ? await checkTargets(ctx, tenantId, type, p.targetIds) : current.targetIds;
        if (p.date !== undefined) patch.date = checkDate(p.date);
        if (p.description !== undefined) patch.description = p.description;
        if (p.yearly !== undefined) patch.yearly = p.yearly;
        if (p.message !== undefined) patch.message = textOrNull(p.message);
        await row.update(patch);
        await kit.changed(ctx, tenantId, "holidays");
        return (await viewsOf(ctx, tenantId, [plain(row)]))[0];
      },
    },
    holidaysRemove: {
      rest: "DELETE /holidays/:id",
      access: "admin",
      resource: "holidays",
      params: { id: idParam },
      async handler(ctx: Ctx<{ id: number }>) {
        const tenantId = tenantOf(ctx);
        await (await findHoliday(tenantId, ctx.params.id)).destroy();
        await kit.changed(ctx, tenantId, "holidays");
        return { id: ctx.params.id, deleted: true };
      },
    },
  };
}
