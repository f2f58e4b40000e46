import { createHash, randomUUID } from "node:crypto";
import Bull from "bull";
import { Op, UniqueConstraintError } from "sequelize";
import type { Service, ServiceBroker } from "moleculer";
import { CONTACT_EXPORT_COLUMNS, type ContactFields } from "@openatende/contracts/contact-fields";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import { lockTenantRow } from "../db/row-locks";
import { call, emit } from "../bus/call";
import type { Ctx } from "../types";
import type { ContactRow } from "./models";
import { normaliseContactFields } from "./fields";
import { CsvFormatError, CsvRow, parseContactsCsv, splitTagNames, toCsv } from "./csv";
import type { ContactsKit } from "./views";
import { closeQueue } from "../lib/bull-close";

/** Bull queue that runs CSV imports (one job per file). */
export const IMPORT_QUEUE = "contacts-import";
/** Finished imports stay readable this long (seconds). */
const IMPORT_KEEP_SECONDS = 24 * 3600;
const IMPORT_MAX_ROWS = 100_000;
const IMPORT_BATCH = 100;
/** Errors kept in an import's answer (the count is always exact). */
const IMPORT_MAX_ERRORS = 5000;

export interface ImportRowError {
  row: number;
  field: string | null;
  code: ErrorCode;
}
interface ImportJobData {
  tenantId: number;
  userId: number;
  rows: CsvRow[];
}
interface ImportProgress {
  processed: number;
  total: number;
  imported: number;
  errorCount: number;
  errors: ImportRowError[];
  limit?: { current: number; max: number; code: string };
}

/**
 * CSV in and out (spec §5): an import is a Bull job of its own (one at a time per node) whose
 * progress the admin reads back; the export is written at once, the field table's columns.
 */
export function contactTransfers(kit: ContactsKit) {
  const { deps, models } = kit;
  const { Contact: ContactModel, ContactTag } = models;
  let importQueue: Bull.Queue<ImportJobData> | undefined;

  /** Bull keys of this deployment: nodes sharing a database share the queue; another database (another test) never sees it. */
  function queuePrefix(): string {
    const db = deps.config.database;
    const id = createHash("sha1")
      .update([db.dialect, db.host ?? "", db.port ?? "", db.database ?? "", db.storage ?? ""].join("|"))
      .digest("hex")
      .slice(0, 12);
    return `oa:${deps.config.namespace}:${id}`;
  }

  async function runImport(broker: ServiceBroker, job: Bull.Job<ImportJobData>): Promise<ImportProgress> {
    const { tenantId, rows } = job.data;
    const p: ImportProgress = { processed: 0, total: rows.length, imported: 0, errorCount: 0, errors: [] };
    const fail = (row: number, field: string | null, code: ErrorCode) => {
      p.errorCount++;
      if (p.errors.length < IMPORT_MAX_ERRORS) p.errors.push({ row, field, code });
    };

    // 1. Check every row; a bad row is refused whole, with one error per bad field.
    const good: Array<{ row: number; value: Partial<ContactFields>; tags: string[] }> = [];
    const seen = new Set<string>();
    for (const r of rows) {
      const { value, errors } = normaliseContactFields(r.values, { requireName: true });
      const tags = splitTagNames(r.values.tags);
      if (tags.some((t) => t.length > 100)) errors.push({ field: "tags", code: "ERR_VALIDATION", rule: "stringMax" });
      if (!errors.length && value.number) {
        if (seen.has(value.number)) errors.push({ field: "number", code: "ERR_CONTACT_DUPLICATED", rule: "unique" });
        seen.add(value.number);
      }
      if (errors.length) {
        for (const e of errors) fail(r.row, e.field, e.code);
        p.processed++;
      } else good.push({ row: r.row, value, tags });
    }
    await job.progress({ ...p });

    // 2. Tags by name (created when missing), then the plan's cap.
    const names = [...new Set(good.flatMap((g) => g.tags))];
    const tagIds = new Map<string, number>();
    for (let i = 0; i < names.length; i += 1000) {
      const chunk = names.slice(i, i + 1000);
      const ids = await call(broker, "tags.ensureByNames", { tenantId, names: chunk });
      for (const n of chunk) if (ids[n]) tagIds.set(n, ids[n]);
    }
    const limits = await call(broker, "licence.limits", { tenantId });

    // 3. Insert in batches, each under the tenant lock so the cap holds against concurrent creations.
    for (let i = 0; i < good.length; i += IMPORT_BATCH) {
      const batch = good.slice(i, i + IMPORT_BATCH);
      const created: number[] = [];
      await deps.sequelize.transaction(async (transaction) => {
        await lockTenantRow(deps.sequelize, tenantId, transaction);
        let current = limits.contacts === null ? 0 : await ContactModel.count({ where: { tenantId }, transaction });
        const numbers = batch.map((b) => b.value.number).filter((n): n is string => !!n);
        const existing = new Set(
          numbers.length
            ? (await ContactModel.findAll({ where: { tenantId, number: { [Op.in]: numbers } }, attributes: ["number"], transaction })).map((c) => c.get("number") as string)
            : [],
        );
        for (const b of batch) {
          if (b.value.number && existing.has(b.value.number)) {
            fail(b.row, "number", "ERR_CONTACT_ALREADY_EXISTS");
            continue;
          }
          if (limits.contacts !== null && current >= limits.contacts) {
            p.limit = { current, max: limits.contacts, code: `ERR_CONTACT_LIMIT:${current}:${limits.contacts}` };
            fail(b.row, null, "ERR_CONTACT_LIMIT");
            continue;
          }
          try {
            const c = await ContactModel.create({ ...b.value, tenantId, source: b.value.source ?? "import" } as Partial<ContactRow>, { transaction });
            const id = c.get("id") as number;
            const tags = [...new Set(b.tags.map((t) => tagIds.get(t)).filter((t): t is number => !!t))];
            if (tags.length) await ContactTag.bulkCreate(tags.map((tagId) => ({ tenantId, contactId: id, tagId })), { transaction });
            created.push(id);
            current++;
          } catch (err) {
            if (!(err instanceof UniqueConstraintError)) throw err;
            fail(b.row, "number", "ERR_CONTACT_ALREADY_EXISTS");
          }
        }
      });
      p.imported += created.length;
      p.processed += batch.length;
      for (const id of created) emit(broker, "contacts.created", { tenantId, contactId: id, source: "import" });
      await job.progress({ ...p });
    }
    p.errors.sort((a, b) => a.row - b.row);
    return p;
  }

  async function importView(job: Bull.Job<ImportJobData>) {
    const state = await job.getState();
    const done = state === "completed" ? (job.returnvalue as ImportProgress | null) : null;
    const prog = done ?? (typeof job.progress() === "object" ? (job.progress() as ImportProgress) : null);
    const total = prog?.total ?? job.data.rows.length;
    return {
      importId: String(job.id),
      status: state,
      processed: prog?.processed ?? 0,
      total,
      imported: prog?.imported ?? 0,
      errorCount: prog?.errorCount ?? 0,
      errors: [...(prog?.errors ?? [])].sort((a, b) => a.row - b.row),
      ...(prog?.limit ? { limit: prog.limit } : {}),
      ...(state === "failed" ? { failedReason: job.failedReason ?? null } : {}),
      createdAt: new Date(job.timestamp).toISOString(),
      finishedAt: job.finishedOn ? new Date(job.finishedOn).toISOString() : null,
    };
  }

  /** The service started: this node runs imports too. */
  function start(svc: Service) {
    importQueue = new Bull<ImportJobData>(IMPORT_QUEUE, deps.config.redisUrl, {
      prefix: queuePrefix(),
      defaultJobOptions: { attempts: 1, removeOnComplete: { age: IMPORT_KEEP_SECONDS }, removeOnFail: { age: IMPORT_KEEP_SECONDS } },
    });
    importQueue.on("error", (err) => svc.logger.warn(`contacts import queue: ${err.message}`));
    importQueue.process(1, (job) => runImport(svc.broker, job)).catch((err: Error) => svc.logger.warn(`contacts import worker stopped: ${err.message}`));
  }

  async function stop() {
    const q = importQueue;
    importQueue = undefined;
    if (q) await closeQueue(q).catch(() => undefined);
  }

  /** POST /contacts/import: the file is read and queued; the answer is the import's id (202). */
  async function enqueue(ctx: Ctx<{ csv: string }>, tenantId: number) {
    let parsed: ReturnType<typeof parseContactsCsv>;
    try {
      parsed = parseContactsCsv(ctx.params.csv, IMPORT_MAX_ROWS);
    } catch (err) {
      if (err instanceof CsvFormatError) {
        const rule = err.reason === "too_many_rows" ? "arrayMax" : err.reason === "empty" ? "stringEmpty" : "any";
        throw new AppError("ERR_VALIDATION", { field: "csv", rule, reason: err.reason, ...(err.reason === "too_many_rows" ? { errors: [{ field: "csv", rule, expected: IMPORT_MAX_ROWS }] } : {}) });
      }
      throw err;
    }
    if (!importQueue) throw new AppError("ERR_SERVICE_UNAVAILABLE", { service: IMPORT_QUEUE });
    const job = await importQueue.add({ tenantId, userId: ctx.meta.user!.id, rows: parsed.rows }, { jobId: randomUUID() });
    ctx.meta.$statusCode = 202;
    return { importId: String(job.id), total: parsed.rows.length, columns: parsed.fields };
  }

  /** GET /contacts/import/:importId: where the import is, and the rows it refused. */
  async function status(ctx: Ctx<{ importId: string }>, tenantId: number) {
    const job = importQueue ? await importQueue.getJob(ctx.params.importId) : null;
    // Another tenant's import does not exist for this caller.
    if (!job || Number(job.data?.tenantId) !== tenantId) throw new AppError("ERR_IMPORT_NOT_FOUND", { importId: ctx.params.importId });
    return importView(job);
  }

  /** GET /contacts/export: every contact of the tenant, a download. */
  async function exportCsv(ctx: Ctx, tenantId: number) {
    const out: Array<Record<string, unknown>> = [];
    for (let last = 0; ; ) {
      const page = await ContactModel.findAll({ where: { tenantId, id: { [Op.gt]: last } }, order: [["id", "ASC"]], limit: 1000 });
      if (!page.length) break;
      for (const v of await kit.views.views(ctx, tenantId, page, false)) {
        out.push({ ...v, tags: v.tags.map((t) => t.name).join(";"), wallet: v.wallet.join(";"), createdAt: new Date(v.createdAt).toISOString() });
      }
      last = page[page.length - 1].get("id") as number;
      if (page.length < 1000) break;
    }
    const stamp = new Date().toISOString().slice(0, 10);
    ctx.meta.$responseType = "text/csv; charset=utf-8";
    ctx.meta.$responseHeaders = { "Content-Disposition": `attachment; filename="contacts-${stamp}.csv"` };
    return toCsv([...CONTACT_EXPORT_COLUMNS], out);
  }

  return { start, stop, enqueue, status, exportCsv };
}
