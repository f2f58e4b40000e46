/**
 * "WhatsApp-validated" (spec §3 Contact): a contact's number asked on the network through a
 * connection of the tenant whose channel plugin declares `numberCheck` (its optional
 * `checkNumber` action). The default connection is asked first, then the other connected ones.
 */
import { callChannel, type CheckNumberResult, type ChannelForResult } from "@openatende/plugin-sdk";
import { AppError } from "../errors/app-error";
import { isErrorCode } from "../errors/codes";
import { isPluginAway } from "../channels/outbox-contract";
import type { Ctx } from "../types";
import { call } from "../bus/call";
import type { RankedConnection } from "../connections/contract";

type ConnectionLite = RankedConnection;

/** Digits of a number as the contract asks them (E.164 without "+"). */
const NUMBER = /^\d{6,20}$/;

/**
 * The connection to ask: connected ones first (the default before the others), so a tenant
 * with a WhatsApp number that is down hears "not started" rather than "no connection".
 */
async function numberCheckConnection(ctx: Ctx, tenantId: number): Promise<{ connection: ConnectionLite; service: string } | null> {
  const rows = await call(ctx, "connections.ranked", { tenantId, limit: 50 });
  const plugins = new Map<string, ChannelForResult | null>();
  for (const connection of rows) {
    const key = `${connection.type}@${connection.pluginMajor ?? ""}`;
    if (!plugins.has(key)) {
      // A plugin the tenant may not use (switched off, not allowed, away) checks nothing.
      const found = await call(ctx, "plugins.channelFor", { type: connection.type, tenantId, major: connection.pluginMajor ?? undefined }).catch(() => null);
      plugins.set(key, found);
    }
    const plugin = plugins.get(key);
    if (plugin?.numberCheck) return { connection, service: plugin.service };
  }
  return null;
}

/**
 * Asks the network whether `number` has an account. Answers { exists, connectionId }; throws
 * ERR_CONTACT_NUMBER_INVALID for a number that cannot be one, ERR_NO_DEFAULT_CONNECTION when
 * no connection of the tenant can check numbers, ERR_SESSION_NOT_INITIALIZED when the one that
 * can is not connected.
 */
export async function checkOnWhatsApp(ctx: Ctx, tenantId: number, number: string | null): Promise<CheckNumberResult & { connectionId: number }> {
  const digits = String(number ?? "").replace(/\D/g, "");
  if (!NUMBER.test(digits)) throw new AppError("ERR_CONTACT_NUMBER_INVALID", { field: "number", reason: "invalid" });
  const found = await numberCheckConnection(ctx, tenantId);
  if (!found) throw new AppError("ERR_NO_DEFAULT_CONNECTION", { reason: "no connection checks numbers" });
  const { connection, service } = found;
  if (connection.status !== "connected") throw new AppError("ERR_SESSION_NOT_INITIALIZED", { connectionId: connection.id });
  try {
    const r = await callChannel(ctx, service, "checkNumber", { tenantId, connectionId: connection.id, number: digits });
    return { exists: r.exists === true, ...(r.externalId ? { externalId: r.externalId } : {}), connectionId: connection.id };
  } catch (err) {
    const e = err as { type?: string; data?: Record<string, unknown> };
    if (isPluginAway(err)) throw new AppError("ERR_SESSION_NOT_INITIALIZED", { connectionId: connection.id });
    if (isErrorCode(e.type)) throw new AppError(e.type, { ...(e.data ?? {}), connectionId: connection.id });
    throw err;
  }
}
