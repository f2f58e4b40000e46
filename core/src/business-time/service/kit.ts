import type { CoreDeps } from "../../deps";
import type { Ctx } from "../../types";
import { broadcast, call, type Broadcaster } from "../../bus/call";
import { TtlCache } from "../../lib/ttl-cache";
import { defineBusinessTimeModels, type BusinessHoursRow, type BusinessTimeModels, type HolidayRow } from "../model";
import type { BusinessHours, Holiday, TimeRulesInput } from "../types";

/** The time zone of a tenant whose row names none (the tenants table's own default). */
export const DEFAULT_TIME_ZONE = "America/Sao_Paulo";

/** A safety net only: every write forgets its tenant at once (businessTime.changed). */
const INPUT_TTL_MS = 5_000;

export const hoursOf = (r: BusinessHoursRow): BusinessHours => ({
  id: r.id,
  tenantId: r.tenantId,
  name: r.name,
  type: r.type,
  targetIds: r.targetIds ?? [],
  active: !!r.active,
  days: r.days,
  messages: r.messages ?? {},
  createdAt: r.createdAt,
  updatedAt: r.updatedAt,
});

export const holidayOf = (r: HolidayRow): Holiday => ({
  id: r.id,
  tenantId: r.tenantId,
  date: r.date,
  description: r.description,
  type: r.type,
  targetIds: r.targetIds ?? [],
  yearly: !!r.yearly,
  message: r.message ?? null,
});

/**
 * What the business-time service's parts share: its tables, the clock, and the per-tenant
 * input of the rules (time zone, active schedules, holidays), cached in memory and forgotten
 * on every change of the tenant's (here at once, on other nodes by businessTime.changed).
 */
export interface BusinessTimeKit extends BusinessTimeModels {
  deps: CoreDeps;
  now(): number;
  /** The rules' input for the tenant (cached). */
  inputOf(ctx: Ctx, tenantId: number): Promise<TimeRulesInput>;
  forget(tenantId?: number): void;
  /** After a write: forgets the tenant here and tells every node. */
  changed(ctx: Broadcaster, tenantId: number, what: "hours" | "holidays" | "availability"): Promise<void>;
}

export function createKit(deps: CoreDeps): BusinessTimeKit {
  const models = defineBusinessTimeModels(deps.sequelize);
  const inputs = new TtlCache<number, TimeRulesInput>(INPUT_TTL_MS, 5000);

  async function load(ctx: Ctx, tenantId: number): Promise<TimeRulesInput> {
    const [tenant, hours, holidays] = await Promise.all([
      call(ctx, "tenants.getInternal", { id: tenantId }),
      models.BusinessHours.findAll({ where: { tenantId, active: true }, order: [["id", "ASC"]], limit: 5000 }),
      models.Holiday.findAll({ where: { tenantId }, order: [["date", "ASC"], ["id", "ASC"]], limit: 20000 }),
    ]);
    return {
      timeZone: tenant?.timezone || DEFAULT_TIME_ZONE,
      hours: hours.map((h) => hoursOf(h.get({ plain: true }))),
      holidays: holidays.map((h) => holidayOf(h.get({ plain: true }))),
    };
  }

  const forget = (tenantId?: number) => (tenantId ? inputs.dropKey(tenantId) : inputs.drop());

  return {
    ...models,
    deps,
    now: () => deps.clock.now(),
    inputOf: (ctx, tenantId) => inputs.get(tenantId, () => load(ctx, tenantId)),
    forget,
    async changed(ctx, tenantId, what) {
      forget(tenantId);
      await broadcast(ctx, "businessTime.changed", { tenantId, what });
    },
  };
}
