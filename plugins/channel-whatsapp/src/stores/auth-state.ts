/**
 * A session's Baileys auth state (creds and every Signal key of 7.x) in the plugin's own
 * tables, behind the library's own SignalKeyStore interface, so that a restart or another
 * node resumes the session without a new QR code.
 *
 * - Values are serialised with Baileys' BufferJSON (Buffers and Uint8Arrays survive);
 *   app-state-sync-key values are read back with proto's fromObject (bytes, not base64
 *   strings: the "Invalid patch mac" resync loop otherwise).
 * - A write is committed (one transaction) before `set` or `saveCreds` returns; writes of one
 *   session run one after the other in call order, so concurrent sets never lose one another.
 * - `null` deletes a key; `wipe()` forgets the whole session (logged out, banned, reset).
 * - Fencing: the node that owns the session (owner-lock.ts) claims it with its lock's fencing
 *   token; a write made with an older token than the stored one is refused (FencedOffError),
 *   so a node that lost its lock without noticing cannot corrupt the new owner's keys.
 *
 * The interface (AuthStore) is what the session uses; Baileys v8 announces a new auth format,
 * which would be another implementation of it.
 */
import { createHash } from "node:crypto";
import type { AuthenticationCreds, SignalDataSet, SignalDataTypeMap, SignalKeyStore } from "@whiskeysockets/baileys";
import type { TenantData } from "@openatende/plugin-sdk";
import { baileys } from "../session/baileys";
import { AuthKeyRow, AuthSessionRow, TABLES } from "./tables";

/** The key types of Baileys 7.x (SignalDataTypeMap). */
export const KEY_TYPES = ["pre-key", "session", "sender-key", "sender-key-memory", "app-state-sync-key", "app-state-sync-version", "lid-mapping", "device-list", "tctoken", "identity-key"] as const;

export interface AuthStore {
  /** The stored creds, or null for a session never linked (or wiped). */
  loadCreds(): Promise<AuthenticationCreds | null>;
  /** Saves the whole creds object (Baileys mutates it in place and emits creds.update). */
  saveCreds(creds: AuthenticationCreds): Promise<void>;
  readonly keys: SignalKeyStore;
  /** Forgets creds and keys. */
  wipe(): Promise<void>;
  /** Whether the session has linked creds stored. */
  hasSession(): Promise<boolean>;
}

export class FencedOffError extends Error {
  constructor(connectionId: number, mine: number, stored: number) {
    super(`connection ${connectionId}: session state owned by a newer holder (fence ${stored} > ${mine}); write refused`);
    this.name = "FencedOffError";
  }
}

/** Longest key id kept as is; longer ones (none seen in 7.x) are stored by digest. */
const MAX_KEY_ID = 180;
const CHUNK = 400;

const dbKeyId = (id: string) => (id.length > MAX_KEY_ID ? `#${createHash("sha256").update(id).digest("hex")}` : id);

function chunks<T>(xs: T[], n = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < xs.length; i += n) out.push(xs.slice(i, i + n));
  return out;
}

export function serialise(value: unknown): string {
  return JSON.stringify(value, baileys().BufferJSON.replacer);
}

export function deserialise<T = unknown>(text: string): T {
  return JSON.parse(text, baileys().BufferJSON.reviver) as T;
}

export interface TableAuthStoreOptions {
  /** The owner's fencing token; without it, writes are not fenced (a wipe with no owner). */
  fence?: number;
  now?: () => number;
}

export class TableAuthStore implements AuthStore {
  readonly keys: SignalKeyStore;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly data: TenantData,
    readonly connectionId: number,
    private readonly opts: TableAuthStoreOptions = {},
  ) {
    this.keys = {
      get: (type, ids) => this.getKeys(type, ids),
      set: (d) => this.setKeys(d),
      clear: () => this.serial(() => this.fenced((tx) => this.deleteKeys(tx))),
    };
  }

  private now(): number {
    return this.opts.now?.() ?? Date.now();
  }

  /** Takes the session for the fencing token: refused when a newer token holds it. */
  async claim(): Promise<void> {
    const fence = this.opts.fence;
    if (fence === undefined) return;
    await this.serial(() =>
      this.data.transaction(async (tx) => {
        const sessions = tx.table<AuthSessionRow>(TABLES.sessions);
        const row = await sessions.get({ connectionId: this.connectionId });
        if (row && Number(row.fence) > fence) throw new FencedOffError(this.connectionId, fence, Number(row.fence));
        if (row) await sessions.update({ connectionId: this.connectionId }, { fence, updatedAt: this.now() });
        else await sessions.insert({ connectionId: this.connectionId, creds: null, fence, updatedAt: this.now() });
      }),
    );
  }

  async loadCreds(): Promise<AuthenticationCreds | null> {
    const row = await this.data.table<AuthSessionRow>(TABLES.sessions).get({ connectionId: this.connectionId });
    return row?.creds ? deserialise<AuthenticationCreds>(row.creds) : null;
  }

  async hasSession(): Promise<boolean> {
    const row = await this.data.table<AuthSessionRow>(TABLES.sessions).get({ connectionId: this.connectionId });
    return !!row?.creds;
  }

  saveCreds(creds: AuthenticationCreds): Promise<void> {
    const text = serialise(creds);
    return this.serial(() =>
      this.fenced(async (tx) => {
        const sessions = tx.table<AuthSessionRow>(TABLES.sessions);
        const n = await sessions.update({ connectionId: this.connectionId }, { creds: text, updatedAt: this.now() });
        if (!n) await sessions.insert({ connectionId: this.connectionId, creds: text, fence: this.opts.fence ?? 0, updatedAt: this.now() });
      }),
    );
  }

  wipe(): Promise<void> {
    return this.serial(() =>
      this.fenced(async (tx) => {
        await this.deleteKeys(tx);
        await tx.table<AuthSessionRow>(TABLES.sessions).update({ connectionId: this.connectionId }, { creds: null, updatedAt: this.now() });
      }),
    );
  }

  private async getKeys<T extends keyof SignalDataTypeMap>(type: T, ids: string[]): Promise<{ [id: string]: SignalDataTypeMap[T] }> {
    const out: { [id: string]: SignalDataTypeMap[T] } = {};
    if (!ids.length) return out;
    const byDbId = new Map(ids.map((id) => [dbKeyId(id), id]));
    const table = this.data.table<AuthKeyRow>(TABLES.keys);
    for (const part of chunks([...byDbId.keys()])) {
      for (const row of await table.find({ connectionId: this.connectionId, type, keyId: part })) {
        const id = byDbId.get(row.keyId);
        if (id === undefined) continue;
        let value = deserialise<unknown>(row.value);
        if (type === "app-state-sync-key" && value) value = baileys().proto.Message.AppStateSyncKeyData.fromObject(value as Record<string, unknown>);
        out[id] = value as SignalDataTypeMap[T];
      }
    }
    return out;
  }

  private setKeys(data: SignalDataSet): Promise<void> {
    const upserts: AuthKeyRow[] = [];
    const deletes = new Map<string, string[]>();
    for (const type of Object.keys(data) as Array<keyof SignalDataSet>) {
      const entries = data[type] ?? {};
      for (const id of Object.keys(entries)) {
        const value = entries[id];
        // Serialised now: the caller may mutate the object after set returns.
        if (value === null || value === undefined) deletes.set(type, [...(deletes.get(type) ?? []), dbKeyId(id)]);
        else upserts.push({ connectionId: this.connectionId, type, keyId: dbKeyId(id), value: serialise(value) });
      }
    }
    if (!upserts.length && !deletes.size) return Promise.resolve();
    return this.serial(() =>
      this.fenced(async (tx) => {
        const table = tx.table<AuthKeyRow>(TABLES.keys);
        for (const [type, ids] of deletes) for (const part of chunks(ids)) await table.delete({ connectionId: this.connectionId, type, keyId: part });
        for (const part of chunks(upserts)) await table.upsertMany(part);
      }),
    );
  }

  private async deleteKeys(tx: TenantData): Promise<void> {
    await tx.table<AuthKeyRow>(TABLES.keys).delete({ connectionId: this.connectionId });
  }

  /** Runs fn in a transaction that first checks no newer owner took the session. */
  private fenced<T>(fn: (tx: TenantData) => Promise<T>): Promise<T> {
    const fence = this.opts.fence;
    return this.data.transaction(async (tx) => {
      if (fence !== undefined) {
        const row = await tx.table<AuthSessionRow>(TABLES.sessions).get({ connectionId: this.connectionId });
        if (row && Number(row.fence) > fence) throw new FencedOffError(this.connectionId, fence, Number(row.fence));
      }
      return fn(tx);
    });
  }

  /** One write at a time per session, in call order; a failed write does not block the next. */
  private serial<T>(fn: () => Promise<T>): Promise<T> {
    const run = this.tail.then(fn, fn);
    this.tail = run.catch(() => undefined);
    return run;
  }
}
