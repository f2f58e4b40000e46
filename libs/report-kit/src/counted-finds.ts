/**
 * Tests' view of what a read asked of the database: a tenant's scope (or one table) whose every
 * `find` is noted — the table, its where, offset, limit and the rows it answered — so a test can
 * say a read never held more than a chunk, or skipped only within one key value. Not part of the
 * kit's index: tests import it.
 */
import type { FindOptions, TenantData, TenantTable, Where } from "@openatende/plugin-sdk";

export interface FindNote {
  table: string;
  where: Where;
  offset: number;
  limit: number;
  rows: number;
}

/** The table with its finds noted in `finds`. */
export function countedTable<R extends Record<string, unknown>>(table: TenantTable<R>, finds: FindNote[], name = ""): TenantTable<R> {
  const proxy = Object.create(table) as TenantTable<R>;
  proxy.find = async (where?: Where, opts?: FindOptions) => {
    const r = await table.find(where, opts);
    finds.push({ table: name, where: where ?? {}, offset: opts?.offset ?? 0, limit: opts?.limit ?? Infinity, rows: r.length });
    return r;
  };
  return proxy;
}

/** The tenant's scope with the finds of every table noted. */
export function countedTenant(tenant: TenantData, finds: FindNote[] = []): { tenant: TenantData; finds: FindNote[] } {
  const spy = Object.create(tenant) as TenantData;
  spy.table = <R extends Record<string, unknown>>(name: string) => countedTable(tenant.table<R>(name), finds, name);
  return { tenant: spy, finds };
}

/** How many key values a noted find asked for (`key IN (…)`: its length; one value: 1). */
export const keysOf = (f: FindNote, key: string): number => (Array.isArray(f.where[key]) ? (f.where[key] as unknown[]).length : f.where[key] === undefined ? 0 : 1);
