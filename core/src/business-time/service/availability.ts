/**
 * Users' availability (spec §3 Availability; /configuracoes/horarios): per weekday, the slots a
 * user can be booked in (appointments, chatbot distribution). Never set: not bookable (seven
 * empty days on the screens, null for the internal action).
 */
import type { ActionSchema } from "moleculer";
import { AppError } from "../../errors/app-error";
import { call } from "../../bus/call";
import type { Ctx } from "../../types";
import type { BusinessTimeKit } from "./kit";
import { availabilityParam, idParam, MAX_SLOTS_PER_DAY } from "./params";
import { tenantOf } from "./hours";
import { defaultAvailability, validateAvailability } from "../rules";
import { parseTimeOfDay } from "../local-time";
import { AVAILABILITY_DEFAULT_RANGES, type Availability, type AvailabilitySlot, type AvailabilitySlotKind } from "../types";

type SlotInput = { kind: AvailabilitySlotKind; start?: string; end?: string };

/**
 * An availability as stored: 7 days, each slot with its kind's default hours where it gave
 * none, in order of start; no more than MAX_SLOTS_PER_DAY a day and no two overlapping.
 */
export function checkAvailability(days: SlotInput[][] | undefined): Availability {
  if (!Array.isArray(days) || days.length !== 7) throw new AppError("ERR_VALIDATION", { field: "days", rule: "arrayLength", expected: 7 });
  const filled: Availability = days.map((slots) =>
    (slots ?? [])
      .map((s) => ({ kind: s.kind, start: s.start ?? AVAILABILITY_DEFAULT_RANGES[s.kind]?.start, end: s.end ?? AVAILABILITY_DEFAULT_RANGES[s.kind]?.end }) as AvailabilitySlot)
      .sort((a, b) => a.start.localeCompare(b.start)),
  );
  const bad = validateAvailability(filled);
  if (bad) throw new AppError("ERR_VALIDATION", { field: `days[${bad.day}]`, rule: bad.problem, day: bad.day });
  filled.forEach((slots, day) => {
    if (slots.length > MAX_SLOTS_PER_DAY) throw new AppError("ERR_VALIDATION", { field: `days[${day}]`, rule: "arrayMax", expected: MAX_SLOTS_PER_DAY, day });
    for (let i = 1; i < slots.length; i++) {
      // Sorted by start: a slot that starts before the previous one ends overlaps it.
      if (parseTimeOfDay(slots[i].start)! < parseTimeOfDay(slots[i - 1].end, true)!) {
        throw new AppError("ERR_VALIDATION", { field: `days[${day}]`, rule: "overlap", day });
      }
    }
  });
  return filled;
}

export function availabilityActions(kit: BusinessTimeKit): Record<string, ActionSchema> {
  const { UserAvailability } = kit;

  /** The tenant's user (not deleted), else ERR_USER_NOT_FOUND. */
  async function userOf(ctx: Ctx, tenantId: number, userId: number) {
    const u = await call(ctx, "users.getInternal", { id: userId });
    if (!u || u.tenantId !== tenantId || u.deletedAt) throw new AppError("ERR_USER_NOT_FOUND", { id: userId });
    return u;
  }

  const stored = async (tenantId: number, userId: number) => {
    const row = await UserAvailability.findOne({ where: { tenantId, userId } });
    return row ? { days: row.get("days") as Availability, updatedAt: row.get("updatedAt") as Date } : null;
  };

  return {
    availabilityList: {
      rest: "GET /availability",
      access: "admin",
      async handler(ctx: Ctx) {
        const tenantId = tenantOf(ctx);
        const users = (await call(ctx, "users.listInternal", { tenantId })).filter((u) => u.tenantId === tenantId && u.active);
        const rows = await UserAvailability.findAll({ where: { tenantId } });
        const byUser = new Map(rows.map((r) => [r.get("userId") as number, r]));
        return users.map((u) => {
          const r = byUser.get(u.id);
          return { userId: u.id, name: u.name, profile: u.profile, days: r ? (r.get("days") as Availability) : defaultAvailability(), updatedAt: r ? r.get("updatedAt") : null };
        });
      },
    },
    availabilityGet: {
      rest: "GET /availability/:userId",
      access: "user",
      resource: "users",
      params: { userId: idParam },
      async handler(ctx: Ctx<{ userId: number }>) {
        const tenantId = tenantOf(ctx);
        const u = await userOf(ctx, tenantId, ctx.params.userId);
        const s = await stored(tenantId, u.id);
        return { userId: u.id, name: u.name, days: s?.days ?? defaultAvailability(), updatedAt: s?.updatedAt ?? null };
      },
    },
    availabilitySet: {
      rest: "PUT /availability/:userId",
      access: "admin",
      resource: "users",
      params: { userId: idParam, days: availabilityParam },
      async handler(ctx: Ctx<{ userId: number; days: SlotInput[][] }>) {
        const tenantId = tenantOf(ctx);
        const u = await userOf(ctx, tenantId, ctx.params.userId);
        const days = checkAvailability(ctx.params.days);
        // One row per user (unique): two saves at once both land, the later one wins.
        await UserAvailability.upsert({ tenantId, userId: u.id, days });
        await kit.changed(ctx, tenantId, "availability");
        const s = await stored(tenantId, u.id);
        return { userId: u.id, name: u.name, days: s?.days ?? days, updatedAt: s?.updatedAt ?? null };
      },
    },
    /** businessTime.availability (contract.ts): null when never set. */
    availability: {
      visibility: "public",
      params: { tenantId: idParam, userId: idParam },
      async handler(ctx: Ctx<{ tenantId: number; userId: number }>): Promise<Availability | null> {
        return (await stored(ctx.params.tenantId, ctx.params.userId))?.days ?? null;
      },
    },
  };
}
