/**
 * Business time (spec §3 Business hours, Holiday, Smart-close settings, Availability; §5
 * Business hours): the shapes the one time-rules module (./rules.ts) decides on and the
 * business-time service (./business-time.service.ts) stores. Everything later that asks
 * "is it open" (automatic messages, smart close, chatbots, campaigns, appointments) asks
 * through these.
 *
 * Times of day are "HH:MM" in the tenant's time zone (tenants.timezone); an end may be
 * "24:00" and is exclusive. Weekdays are 0 = Sunday … 6 = Saturday.
 */

import type { BusinessHoursType, BusinessTimeMessages, DayHours } from "@openatende/contracts/business-time";

/** The wire shapes and constants, shared with the shell and the SDK (written once, in contracts). */
export {
  WEEKDAYS,
  BUSINESS_HOURS_TYPES,
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
  type AvailabilitySlot,
  type Availability,
} from "@openatende/contracts/business-time";

/** A schedule (table business_hours). A global one has no targets; the others at least one. */
export interface BusinessHours {
  id: number;
  tenantId: number;
  name: string;
  type: BusinessHoursType;
  /** Queue ids, user ids or connection ids by type; [] for global. */
  targetIds: number[];
  active: boolean;
  /** Index = weekday (0 = Sunday); always 7 entries. */
  days: DayHours[];
  messages: BusinessTimeMessages;
  createdAt?: Date | string;
  updatedAt?: Date | string;
}

/**
 * A day off (table holidays): the whole local day `date` is closed for the global schedule
 * (type global) or for the targets named. `yearly`: the same day every year (Natal,
 * Tiradentes). Its message overrides the schedule's holiday message.
 */
export interface Holiday {
  id: number;
  tenantId: number;
  /** "YYYY-MM-DD", local to the tenant. */
  date: string;
  description: string;
  type: BusinessHoursType;
  targetIds: number[];
  yearly: boolean;
  message?: string | null;
}

/** What a question about time is about: a ticket's queue, user and connection (any may be missing). */
export interface TimeTarget {
  queueId?: number | null;
  userId?: number | null;
  connectionId?: number | null;
}

/** Everything the rules decide on, gathered once per question (the service's job). */
export interface TimeRulesInput {
  timeZone: string;
  hours: BusinessHours[];
  holidays: Holiday[];
}

