/**
 * Flows and bindings in the plugin's own database, always through the SDK's tenant-scoped
 * repository (another tenant's flow is simply not found). Also the engine's FlowSource.
 *
 * Activating a flow, binding one and deleting one run in a transaction that first writes the
 * tenant's `flow_locks` row: on MariaDB that row lock makes them run one after the other per
 * tenant, on SQLite the single writer does. So the free plan's count of active flows (checked
 * by the core's plan.assertWithin inside the transaction) and "is it still bound?" cannot race:
 * of two activations at once, the second counts the first.
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, type PluginData, type TenantData } from "@openatende/plugin-sdk";
import type { AutoReplyStep, BotSettings, Flow, FlowBindingValue, FlowGraph, FlowKind } from "../model";
import type { FlowSource } from "../engine";

/** The fields a create or an update writes (the store does not check them: routes.ts does). */
export interface FlowFields {
  kind: FlowKind;
  name: string;
  description: string;
  active: boolean;
  testPhone: string | null;
  settings: BotSettings;
  graph: FlowGraph | null;
  steps: AutoReplyStep[] | null;
}

export interface FlowRow extends FlowFields, Record<string, unknown> {
  id: number;
  createdAt: number;
  updatedAt: number;
}

interface LockRow extends Record<string, unknown> {
  id: number;
  touchedAt: number;
}

export interface BindingRow extends Record<string, unknown> {
  scope: "connection" | "queue";
  targetId: number;
  entryFlowId: number | null;
  closureFlowId: number | null;
  updatedAt: number;
}

/** Called inside the activation's transaction with the tenant's other active flows; throws to refuse. */
export type PlanCheck = (current: number) => Promise<void>;

const LOCK_ID = 1;
const newId = () => randomInt(1, 2 ** 31 - 1);

export function toFlow(r: FlowRow): Flow {
  return {
    id: Number(r.id),
    kind: r.kind,
    name: r.name,
    description: r.description ?? "",
    active: !!r.active,
    testPhone: r.testPhone ?? null,
    settings: r.settings,
    graph: r.graph ?? null,
    steps: r.steps ?? null,
    createdAt: new Date(Number(r.createdAt)).toISOString(),
    updatedAt: new Date(Number(r.updatedAt)).toISOString(),
  };
}

export class FlowStore implements FlowSource {
  private readonly ready = new Set<number>();

  constructor(
    private readonly data: PluginData,
    private readonly now: () => number = Date.now,
  ) {}

  private async ensureLock(tenantId: number): Promise<void> {
    if (this.ready.has(tenantId)) return;
    const locks = this.data.forTenant(tenantId).table<LockRow>("flow_locks");
    if (!(await locks.get({ id: LOCK_ID }))) {
      try {
        await locks.insert({ id: LOCK_ID, touchedAt: this.now() });
      } catch (err) {
        if (!(err instanceof DuplicateRowError)) throw err; // another node made it first
      }
    }
    this.ready.add(tenantId);
  }

  /** Runs fn alone among the tenant's activations, bindings and deletions (see above). */
  async locked<T>(tenantId: number, fn: (tx: TenantData) => Promise<T>): Promise<T> {
    await this.ensureLock(tenantId);
    return this.data.forTenant(tenantId).transaction(async (tx) => {
      await tx.table<LockRow>("flow_locks").update({ id: LOCK_ID }, { touchedAt: this.now() });
      return fn(tx);
    });
  }

  async list(tenantId: number, kinds?: FlowKind[], active?: boolean): Promise<Flow[]> {
    const where: Record<string, string | boolean | string[]> = {};
    if (kinds?.length) where.kind = kinds;
    if (active !== undefined) where.active = active;
    const rows = await this.data.forTenant(tenantId).table<FlowRow>("flows").find(where);
    // By name as people read it (the tables' binary collation would put "Zeta" before "alfa").
    return rows.map(toFlow).sort((x, y) => x.name.localeCompare(y.name, "pt-BR", { sensitivity: "base" }) || x.id - y.id);
  }

  async get(tenantId: number, id: number): Promise<Flow | null> {
    const row = await this.data.forTenant(tenantId).table<FlowRow>("flows").get({ id });
    return row ? toFlow(row) : null;
  }

  /** Active flows other than `except` (the count the plan's cap is about). */
  private async othersActive(tx: TenantData, except: number | null): Promise<number> {
    const rows = await tx.table<FlowRow>("flows").find({ active: true });
    return rows.filter((r) => Number(r.id) !== except).length;
  }

  async create(tenantId: number, fields: FlowFields, plan: PlanCheck): Promise<Flow> {
    const write = async (tx: TenantData) => {
      if (fields.active) await plan(await this.othersActive(tx, null));
      const table = tx.table<FlowRow>("flows");
      const at = this.now();
      for (let attempt = 0; ; attempt++) {
        const row: FlowRow = { ...fields, id: newId(), createdAt: at, updatedAt: at };
        if (!(await table.get({ id: row.id }))) {
          await table.insert(row);
          return toFlow(row);
        }
        if (attempt > 5) throw new Error("no free flow id");
      }
    };
    return fields.active ? this.locked(tenantId, write) : this.data.forTenant(tenantId).transaction(write);
  }

  /**
   * Writes `change` over flow `id`; `check` sees the flow as it is (inside the transaction) and
   * may refuse. Activation (inactive → active) runs under the tenant's lock with the plan check.
   */
  async update(tenantId: number, id: number, change: Partial<FlowFields>, plan: PlanCheck, check: (before: FlowRow) => void | Promise<void>): Promise<Flow> {
    const write = async (tx: TenantData) => {
      const table = tx.table<FlowRow>("flows");
      const before = await table.get({ id });
      if (!before) return null;
      await check(before);
      if (change.active && !before.active) await plan(await this.othersActive(tx, id));
      const values = { ...change, updatedAt: Math.max(this.now(), Number(before.updatedAt) + 1) };
      await table.update({ id }, values);
      return toFlow({ ...before, ...values });
    };
    const r = change.active ? await this.locked(tenantId, write) : await this.data.forTenant(tenantId).transaction(write);
    if (!r) throw Object.assign(new Error("flow not found"), { notFound: true });
    return r;
  }

  /** Bindings (the plugin's table) that name flow `id`. */
  async boundTo(tx: TenantData, id: number): Promise<BindingRow[]> {
    const t = tx.table<BindingRow>("bindings");
    const [entry, closure] = await Promise.all([t.find({ entryFlowId: id }), t.find({ closureFlowId: id })]);
    return [...entry, ...closure];
  }

  /** Deletes flow `id` unless `inUse` (run under the lock, after the local bindings are checked) says why not. */
  async delete(tenantId: number, id: number, inUse: (flow: Flow, bindings: BindingRow[], tx: TenantData) => Promise<void>): Promise<boolean> {
    return this.locked(tenantId, async (tx) => {
      const row = await tx.table<FlowRow>("flows").get({ id });
      if (!row) return false;
      await inUse(toFlow(row), await this.boundTo(tx, id), tx);
      await tx.table<FlowRow>("flows").delete({ id });
      return true;
    });
  }

  async binding(tenantId: number, scope: "connection" | "queue", targetId: number): Promise<FlowBindingValue | null> {
    const row = await this.data.forTenant(tenantId).table<BindingRow>("bindings").get({ scope, targetId });
    return row ? { entryFlowId: row.entryFlowId === null ? null : Number(row.entryFlowId), closureFlowId: row.closureFlowId === null ? null : Number(row.closureFlowId) } : null;
  }

  /**
   * Stores a connection's or queue's flows. `check` runs first under the lock (the flows are
   * read there, so a flow deleted meanwhile is not bound), then `apply` (the core's binding).
   */
  async setBinding(
    tenantId: number,
    scope: "connection" | "queue",
    targetId: number,
    value: FlowBindingValue,
    check: (tx: TenantData) => Promise<void>,
    apply: () => Promise<void>,
  ): Promise<FlowBindingValue> {
    return this.locked(tenantId, async (tx) => {
      await check(tx);
      await apply();
      const t = tx.table<BindingRow>("bindings");
      if (value.entryFlowId === null && value.closureFlowId === null) await t.delete({ scope, targetId });
      else await t.upsert({ scope, targetId, entryFlowId: value.entryFlowId, closureFlowId: value.closureFlowId, updatedAt: this.now() });
      return value;
    });
  }
}
