/** What the routes answer for appointments and services: ISO dates and the names the screens show. */
import type { CoreApi } from "@openatende/plugin-sdk";
import type { AppointmentRow, ServiceRow } from "./store";

export function serviceView(s: ServiceRow) {
  return { id: s.id, name: s.name, description: s.description, duration: s.duration, price: Number(s.priceCents) / 100, users: s.users };
}

export async function appointmentViews(api: CoreApi, tenantId: number, rows: AppointmentRow[], services: ServiceRow[]) {
  const users = new Map((await api.users.list({ tenantId })).map((u) => [u.id, u.name]));
  const contactIds = [...new Set(rows.map((r) => r.contactId))];
  const contacts = new Map<number, string>();
  await Promise.all(
    contactIds.map(async (id) => {
      try {
        contacts.set(id, (await api.contacts.get({ tenantId, id })).name);
      } catch {
        // A contact deleted since: the appointment shows without a name.
      }
    }),
  );
  const byService = new Map(services.map((s) => [s.id, s.name]));
  return rows.map((r) => ({
    id: r.id,
    contactId: r.contactId,
    contactName: contacts.get(r.contactId) ?? null,
    connectionId: r.connectionId,
    userId: r.userId,
    userName: users.get(r.userId) ?? null,
    serviceId: r.serviceId,
    serviceName: byService.get(r.serviceId) ?? null,
    startAt: new Date(r.startAt).toISOString(),
    endAt: new Date(r.endAt).toISOString(),
    duration: r.duration,
    message: r.message,
    closeTicket: r.closeTicket,
    template: r.template,
    complementaryMessage: r.complementaryMessage,
    attachment: r.attachment,
    reminders: r.reminders,
    status: r.status,
    errorMessage: r.errorMessage,
    ticketId: r.ticketId,
    createdBy: r.createdBy,
    createdAt: new Date(Number(r.createdAt)).toISOString(),
    updatedAt: new Date(Number(r.updatedAt)).toISOString(),
  }));
}
