/**
 * Who a schedule or a holiday applies to: the tenant's queues, users or connections by type
 * (spec §5: a type other than global needs at least one target). Each id is looked up within
 * the tenant through its own service; another tenant's id answers that entity's not-found code.
 */
import { AppError } from "../../errors/app-error";
import type { ErrorCode } from "../../errors/codes";
import { call } from "../../bus/call";
import type { Ctx } from "../../types";
import type { BusinessHoursType, TimeTarget } from "../types";

type TargetType = Exclude<BusinessHoursType, "global">;

const NOT_FOUND: Record<TargetType, ErrorCode> = {
  queue: "ERR_QUEUE_NOT_FOUND",
  user: "ERR_USER_NOT_FOUND",
  whatsapp: "ERR_CONNECTION_NOT_FOUND",
};

/** The tenant's targets of `type` among `ids`, with their names (users: not deleted). */
export async function targetNames(ctx: Ctx, tenantId: number, type: TargetType, ids: number[]): Promise<Array<{ id: number; name: string }>> {
  if (!ids.length) return [];
  if (type === "queue") return call(ctx, "queues.names", { tenantId, ids });
  if (type === "whatsapp") return (await call(ctx, "connections.names", { tenantId, ids })).map((c) => ({ id: c.id, name: c.name }));
  const wanted = new Set(ids);
  return (await call(ctx, "users.listInternal", { tenantId })).filter((u) => wanted.has(u.id) && u.tenantId === tenantId).map((u) => ({ id: u.id, name: u.name }));
}

/**
 * The targets of a schedule or holiday, checked: none for global, at least one of the tenant's
 * for the other types. Answers them without repeats, in ascending order.
 */
export async function checkTargets(ctx: Ctx, tenantId: number, type: BusinessHoursType, ids: number[] | undefined): Promise<number[]> {
  if (type === "global") return [];
  const unique = [...new Set(ids ?? [])].sort((a, b) => a - b);
  if (!unique.length) throw new AppError("ERR_BUSINESS_HOURS_TARGET_REQUIRED", { field: "targetIds", type });
  const found = new Set((await targetNames(ctx, tenantId, type, unique)).map((t) => t.id));
  const missing = unique.filter((id) => !found.has(id));
  if (missing.length) throw new AppError(NOT_FOUND[type], { field: "targetIds", ids: missing, id: missing[0] });
  return unique;
}

/** The ids a question about time names are the tenant's (another tenant's: its not-found code). */
export async function checkTimeTarget(ctx: Ctx, tenantId: number, target: TimeTarget): Promise<void> {
  const pairs: Array<[TargetType, number | null | undefined, string]> = [
    ["queue", target.queueId, "queueId"],
    ["user", target.userId, "userId"],
    ["whatsapp", target.connectionId, "connectionId"],
  ];
  for (const [type, id, field] of pairs) {
    if (!id) continue;
    const found = await targetNames(ctx, tenantId, type, [id]);
    if (!found.length) throw new AppError(NOT_FOUND[type], { field, id });
  }
}
