/** What the module's routes answer (src/view.ts), as the screens use it. */
export type Status = "scheduled" | "sent" | "failed";
export type ReminderUnit = "minutes" | "hours" | "days";
export const REMINDER_UNITS: ReminderUnit[] = ["minutes", "hours", "days"];
export interface Reminder {
  amount: number;
  unit: ReminderUnit;
}
export interface Attachment {
  path: string;
  mimeType: string;
  fileName: string;
}
export interface Appointment {
  id: number;
  contactId: number;
  contactName: string | null;
  connectionId: number;
  userId: number;
  userName: string | null;
  serviceId: number;
  serviceName: string | null;
  startAt: string;
  endAt: string;
  duration: number;
  message: string;
  closeTicket: boolean;
  template: { name: string; language: string; params: string[] } | null;
  complementaryMessage: string | null;
  attachment: Attachment | null;
  reminders: Reminder[];
  status: Status;
  errorMessage: string | null;
}
export interface Named {
  id: number;
  name: string;
}
export interface Service extends Named {
  description: string;
  duration: number;
  price: number;
  users: number[];
}
export interface Options {
  contacts: Array<Named & { number: string | null }>;
  users: Named[];
  services: Service[];
  timeZone?: string;
}
export interface TemplateOption {
  name: string;
  language: string;
  body: string;
  variables: number;
}
export const CHANGED_EVENT = "appointments.changed";
export const STATUS_COLOURS: Record<Status, string> = { scheduled: "#0d9488", sent: "#64748b", failed: "#dc2626" };
