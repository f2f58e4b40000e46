/**
 * Reading a projection's selection a batch of key values at a time, so that memory and every
 * query stay bounded however many rows the selection holds.
 *
 * The plugin's repository compares by equality only: there is no "older than" (keyset) to
 * continue from, and an OFFSET over the whole selection re-sorts every earlier row on each page
 * (quadratic: bench:reports). So the selection is cut on an indexed column whose values can be
 * listed in reading order — a ticket's createdHour (the period's hours, newest first), a
 * contact's name bucket — and each query reads one batch of them (`key IN (batch)`): its sort
 * and its OFFSET cover that batch's rows only.
 *
 * A batch that came back thin doubles the next one (a sparse year takes a few queries); one that
 * needed more than a page halves it (a busy day stays small). A batch with more rows than a read
 * goes on from the key value its read ended in: that value alone (the only OFFSET: within one
 * value), then the batches from the value after it. Batch after batch, each sorted with the key
 * first, is the order of the whole selection.
 */
import type { TenantTable, Where } from "@openatende/plugin-sdk";

export type KeyValue = number | string;

export interface BatchedSelection<Row> {
  /** What every selected row matches besides its key (equality; an array means IN). */
  where: Where;
  /** The indexed column the batches cut on. */
  key: string;
  /** Every value the key may take, in reading order. */
  keys: readonly KeyValue[];
  /** The order of a read: one the key follows in the direction of `keys` (the key itself, or createdAt for createdHour), then a unique tie-break. */
  orderBy: Array<[string, "asc" | "desc"]>;
  /** The row as the caller uses it (bigint columns may come back as strings). */
  map?: (raw: Row) => Row;
  /** Rows of the selected keys still to leave out (a period's edge inside an hour). */
  keep?: (row: Row) => boolean;
  /** One batch over every key (a search naming at most a thousand rows). */
  oneBatch?: boolean;
  /**
   * A value no row's key has, added to a read of one key value. MariaDB, given `key = x` and an
   * ORDER BY that another index starts with (contacts: `deleted, name`), walks that index from
   * its start and filters, reading every row before x's; with `key IN (x, pad)` it keeps to the
   * key's index (measured: 19,000 rows read for 1,500 on 20,000 contacts).
   */
  pad?: KeyValue;
}

export const FIRST_BATCH_KEYS = 6;
export const MAX_BATCH_KEYS = 24 * 32;

/** The selection's key values, a batch at a time, the batch's size following what was found. */
export class KeyBatches {
  private next = 0;
  private size: number;
  private readonly index = new Map<KeyValue, number>();

  constructor(
    private readonly keys: readonly KeyValue[],
    oneBatch = false,
  ) {
    this.size = oneBatch ? Math.max(1, keys.length) : FIRST_BATCH_KEYS;
    keys.forEach((k, i) => this.index.set(k, i));
  }

  /** The next batch (undefined: every key was read). */
  take(): KeyValue[] | undefined {
    if (this.next >= this.keys.length) return undefined;
    const batch = this.keys.slice(this.next, this.next + this.size);
    this.next += batch.length;
    return batch;
  }

  /** The next batch starts after `key`, one of the last batch's. */
  resumeAfter(key: KeyValue): void {
    const i = this.index.get(key);
    if (i === undefined) throw new Error(`key ${String(key)} is not among the selection's`);
    this.next = i + 1;
  }

  /** What the last batch held, against the rows a reader wants a query. */
  saw(rows: number, wanted: number): void {
    if (rows < wanted / 4) this.size = Math.min(MAX_BATCH_KEYS, this.size * 2);
    else if (rows > wanted) this.size = Math.max(1, Math.floor(this.size / 2));
  }
}

function reader<Row extends Record<string, unknown>>(table: TenantTable<Row>, s: BatchedSelection<Row>) {
  const map = s.map ?? ((r: Row) => r);
  return async (keys: KeyValue[], limit: number, offset: number): Promise<Row[]> => {
    const values = keys.length === 1 && s.pad !== undefined ? [keys[0], s.pad] : keys;
    const rows = await table.find({ ...s.where, [s.key]: values }, { orderBy: s.orderBy, limit, ...(offset ? { offset } : {}) });
    return rows.map(map);
  };
}

const keyOf = <Row extends Record<string, unknown>>(s: BatchedSelection<Row>, r: Row) => r[s.key] as KeyValue;

/** Every selected row in the selection's order, at most `chunk` rows a query and in memory. */
export async function* batchedRows<Row extends Record<string, unknown>>(table: TenantTable<Row>, s: BatchedSelection<Row>, chunk = 1000): AsyncGenerator<Row> {
  const read = reader(table, s);
  const keep = s.keep ?? (() => true);
  const batches = new KeyBatches(s.keys, s.oneBatch);
  for (let keys = batches.take(); keys; keys = batches.take()) {
    const first = await read(keys, chunk, 0);
    yield* first.filter(keep);
    batches.saw(first.length < chunk ? first.length : chunk + 1, chunk);
    if (first.length < chunk) continue;
    const last = keyOf(s, first[first.length - 1]);
    for (let offset = first.filter((r) => keyOf(s, r) === last).length; ; offset += chunk) {
      const rows = await read([last], chunk, offset);
      yield* rows.filter(keep);
      if (rows.length < chunk) break;
    }
    batches.resumeAfter(last);
  }
}

/** One page (1-based) of the selection in its order; earlier pages' batches are counted, not read. */
export async function batchedPage<Row extends Record<string, unknown>>(table: TenantTable<Row>, s: BatchedSelection<Row>, page: number, limit: number): Promise<{ rows: Row[]; hasMore: boolean }> {
  const read = reader(table, s);
  const batches = new KeyBatches(s.keys, s.oneBatch);
  let skip = (page - 1) * limit;
  const found: Row[] = [];
  for (let keys = batches.take(); keys && found.length <= limit; keys = batches.take()) {
    if (skip > 0) {
      const n = await table.count({ ...s.where, [s.key]: keys });
      batches.saw(n, limit);
      if (n <= skip) {
        skip -= n;
        continue;
      }
    }
    const rows = await read(keys, limit + 1 - found.length, skip);
    if (skip === 0) batches.saw(rows.length, limit);
    skip = 0;
    found.push(...rows);
  }
  return { rows: found.slice(0, limit).filter(s.keep ?? (() => true)), hasMore: found.length > limit };
}
