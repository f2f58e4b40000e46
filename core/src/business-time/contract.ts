import type { Availability, TimeState, TimeTarget } from "./types";

/**
 * The business-time service's actions other services call (the REST routes are in
 * ./business-time.service.ts). Which schedule decides for a target: the first active one of
 * the ticket's user, then its queue, then its WhatsApp connection, then the tenant's global
 * schedule; none: always open ("unscheduled").
 */
export interface BusinessTimeActions {
  /**
   * Is it open for this target at `at` (epoch ms; default: the service's clock), and what
   * follows from it. `checkTarget`: the ids came from outside (a plugin): each must be the
   * tenant's, else its not-found code.
   */
  "businessTime.state": { params: { tenantId: number; target: TimeTarget; at?: number; checkTarget?: boolean }; result: TimeState };
  /** A user's availability (null: never set, i.e. not available for bookings). */
  "businessTime.availability": { params: { tenantId: number; userId: number }; result: Availability | null };
}

export interface BusinessTimeEvents {
  /** A schedule, holiday or availability of the tenant changed (caches forget it). */
  "businessTime.changed": { tenantId: number; what: "hours" | "holidays" | "availability" };
}
