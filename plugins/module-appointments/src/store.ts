/**
 * Appointments and services in the plugin's own database, always through the SDK's
 * tenant-scoped repository: another tenant's id is simply not found (ERR_SCHEDULE_NOT_FOUND,
 * ERR_APPOINTMENT_SERVICE_NOT_FOUND, 404).
 */
import { randomInt } from "node:crypto";
import { DuplicateRowError, PluginError, type PluginData } from "@openatende/plugin-sdk";
import type { AppointmentFields, Reminder, ServiceFields } from "./rules";

export type Status = "scheduled" | "sent" | "failed";

export interface AppointmentRow extends Record<string, unknown> {
  id: number;
  contactId: number;
  connectionId: number;
  userId: number;
  serviceId: number;
  startAt: number;
  endAt: number;
  duration: number;
  message: string;
  closeTicket: boolean;
  template: AppointmentFields["template"];
  complementaryMessage: string | null;
  attachment: AppointmentFields["attachment"];
  reminders: Reminder[];
  status: Status;
  errorMessage: string | null;
  ticketId: number | null;
  createdBy: number;
  createdAt: number;
  updatedAt: number;
}

export interface ServiceRow extends Record<string, unknown> {
  id: number;
  name: string;
  description: string;
  duration: number;
  priceCents: number;
  users: number[];
  createdAt: number;
  updatedAt: number;
}

export interface SendRow extends Record<string, unknown> {
  appointmentId: number;
  kind: string;
  dueAt: number;
  state: "sent" | "failed";
  ticketId: number | null;
  error: string | null;
  at: number;
}

export const appointmentNotFound = (id: number) => new PluginError("ERR_SCHEDULE_NOT_FOUND", 404, { id });
export const serviceNotFound = (id: number) => new PluginError("ERR_APPOINTMENT_SERVICE_NOT_FOUND", 404, { id, field: "serviceId" });
const newId = () => randomInt(1, 2 ** 31 - 1);

async function insertWithId<R extends { id: number }>(insert: (row: R) => Promise<void>, make: (id: number) => R): Promise<R> {
  for (let attempt = 0; ; attempt++) {
    const row = make(newId());
    try {
      await insert(row);
      return row;
    } catch (err) {
      if (!(err instanceof DuplicateRowError) || attempt > 3) throw err;
    }
  }
}

/** Booleans come back as 0/1 from MariaDB. */
const fixRow = (r: AppointmentRow): AppointmentRow => ({ ...r, closeTicket: Boolean(r.closeTicket), startAt: Number(r.startAt), endAt: Number(r.endAt) });

export class AppointmentStore {
  constructor(private readonly data: PluginData) {}

  private appointments(tenantId: number) {
    return this.data.forTenant(tenantId).table<AppointmentRow>("appointments");
  }
  private services(tenantId: number) {
    return this.data.forTenant(tenantId).table<ServiceRow>("services");
  }
  sends(tenantId: number) {
    return this.data.forTenant(tenantId).table<SendRow>("sends");
  }

  async find(tenantId: number, id: number): Promise<AppointmentRow | null> {
    const r = await this.appointments(tenantId).get({ id });
    return r ? fixRow(r) : null;
  }

  async get(tenantId: number, id: number): Promise<AppointmentRow> {
    const r = await this.find(tenantId, id);
    if (!r) throw appointmentNotFound(id);
    return r;
  }

  create(tenantId: number, f: AppointmentFields & { duration: number }, by: { userId: number; now: number }): Promise<AppointmentRow> {
    return insertWithId(
      (row) => this.appointments(tenantId).insert(row),
      (id) => ({ id, ...f, endAt: f.startAt + f.duration * 60_000, status: "scheduled", errorMessage: null, ticketId: null, createdBy: by.userId, createdAt: by.now, updatedAt: by.now }),
    );
  }

  /** Applies `values` only while the row is as read (`expect`): answers whether it did. */
  async updateIf(tenantId: number, id: number, expect: Partial<Pick<AppointmentRow, "status" | "startAt">>, values: Partial<AppointmentRow>): Promise<boolean> {
    return (await this.appointments(tenantId).update({ id, ...expect }, values)) === 1;
  }

  async remove(tenantId: number, id: number): Promise<boolean> {
    return (await this.appointments(tenantId).delete({ id })) === 1;
  }

  /** Appointments whose time meets [from, to) (either bound optional), of one user or all, soonest first. */
  async list(tenantId: number, q: { from?: number; to?: number; userId?: number; status?: Status }): Promise<AppointmentRow[]> {
    const where: Record<string, number | string> = {};
    if (q.userId) where.userId = q.userId;
    if (q.status) where.status = q.status;
    // The repository filters by equality: the time range is applied here, on the tenant's rows.
    const rows = (await this.appointments(tenantId).find(where, { orderBy: [["startAt", "asc"], ["id", "asc"]] })).map(fixRow);
    return rows.filter((r) => (q.from === undefined || r.endAt > q.from) && (q.to === undefined || r.startAt < q.to));
  }

  async service(tenantId: number, id: number): Promise<ServiceRow> {
    const r = await this.services(tenantId).get({ id });
    if (!r) throw serviceNotFound(id);
    return r;
  }

  listServices(tenantId: number): Promise<ServiceRow[]> {
    return this.services(tenantId).find({}, { orderBy: [["name", "asc"]] });
  }

  createService(tenantId: number, f: ServiceFields, now: number): Promise<ServiceRow> {
    return insertWithId(
      (row) => this.services(tenantId).insert(row),
      (id) => ({ id, name: f.name, description: f.description, duration: f.duration, priceCents: Math.round(f.price * 100), users: f.users, createdAt: now, updatedAt: now }),
    );
  }

  async updateService(tenantId: number, id: number, f: ServiceFields, now: number): Promise<void> {
    await this.services(tenantId).update({ id }, { name: f.name, description: f.description, duration: f.duration, priceCents: Math.round(f.price * 100), users: f.users, updatedAt: now });
  }

  async removeService(tenantId: number, id: number): Promise<void> {
    await this.services(tenantId).delete({ id });
  }
}
