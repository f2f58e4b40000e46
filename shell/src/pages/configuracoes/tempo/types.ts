/**
 * The shapes of the business-time API as the time screens see them: the wire types shared
 * with the core are @openatende/contracts/business-time; here, what only the screens add
 * (the week's display order, the rows as the API lists them with their targets' names).
 * Times of day are "HH:MM" in the tenant's time zone; weekdays 0 = Sunday … 6 = Saturday.
 */
import type { AvailabilitySlotKind, BusinessHoursType, BusinessTimeMessages, DayHours, Weekday } from "@openatende/contracts/business-time";

export {
  AVAILABILITY_SLOTS,
  AVAILABILITY_DEFAULT_RANGES,
  type Weekday,
  type TimeRange,
  type DayHours,
  type BusinessHoursType,
  type BusinessTimeMessages,
  type SmartCloseSettings,
  type TimeState,
  type AvailabilitySlotKind,
} from "@openatende/contracts/business-time";

/** The order the week is shown in: Monday first, as Brazilians read a week; the data keeps 0 = Sunday. */
export const WEEK_ORDER: readonly Weekday[] = [1, 2, 3, 4, 5, 6, 0];

export type DayMode = DayHours["mode"];
export const DAY_MODES: readonly DayMode[] = ["specific", "open", "closed"];

/** The types a schedule of /configuracoes/business-hours can have (global is /configuracoes/horario's). */
export const TARGET_TYPES = ["queue", "user", "whatsapp"] as const;
export type TargetType = (typeof TARGET_TYPES)[number];

export const MESSAGE_KINDS = ["outOfHours", "holiday", "lunch"] as const;

export interface BusinessHours {
  id: number;
  name: string;
  type: BusinessHoursType;
  targetIds: number[];
  active: boolean;
  /** Index = weekday (0 = Sunday); 7 entries. */
  days: DayHours[];
  messages: BusinessTimeMessages;
  /** The targets that still exist, with their names. */
  targets?: Array<{ id: number; name: string }>;
  updatedAt?: string;
}

export interface Holiday {
  id: number;
  /** "YYYY-MM-DD", local to the tenant. */
  date: string;
  description: string;
  type: BusinessHoursType;
  targetIds: number[];
  yearly: boolean;
  message?: string | null;
  targets?: Array<{ id: number; name: string }>;
}

/** A slot as the screen edits it: its hours may be left to the kind's defaults (the core fills them in). */
export interface AvailabilitySlot {
  kind: AvailabilitySlotKind;
  start?: string;
  end?: string;
}
/** Index = weekday (0 = Sunday); 7 lists of slots (empty: unavailable that day). */
export type Availability = AvailabilitySlot[][];

/** GET /availability: one row per user of the tenant (never set: seven empty days and no updatedAt). */
export interface UserAvailabilityRow {
  userId: number;
  name: string;
  days: Availability | null;
  updatedAt?: string | null;
}
