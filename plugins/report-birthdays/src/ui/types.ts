/** What the plugin's routes answer (src/service.ts). */
export type Period = "month" | "today" | "week";

export interface BirthdayRow {
  id: number;
  name: string;
  number: string | null;
  birthday: string;
  date: string;
  age: number;
  passed: boolean;
  scheduledId: number | null;
}

export interface Listing {
  timeZone: string;
  from: string;
  to: string;
  rows: BirthdayRow[];
}

export interface Batch {
  id: number;
  connectionId: number;
  body: string;
  delaySeconds: number;
  status: "running" | "finished";
  total: number;
  sent: number;
  failed: number;
  nextAt: number | null;
  createdAt: number;
}

export interface Scheduled {
  id: number;
  contactId: number;
  name: string;
  occursOn: string;
  age: number;
  runAt: number;
  status: "pending" | "sent" | "failed" | "cancelled";
  failReason: string | null;
}
