/**
 * What other services may know of a user: the stored row as the internal actions answer it,
 * and the phone rule (logins look users up by phone). Other services import this file, never
 * the users service or its model.
 */
import type { Profile } from "../types";
import type { LoginHours } from "../auth/login-hours";

export interface UserConfigs {
  filtrosAtendimento?: Record<string, unknown>;
  isDark?: boolean;
  [k: string]: unknown;
}

export interface UserRow {
  id: number;
  tenantId: number;
  name: string;
  email: string;
  phoneNumber: string | null;
  passwordHash: string;
  profile: Profile;
  isMaster: boolean;
  isSupport: boolean;
  isHidden: boolean;
  active: boolean;
  status: "online" | "offline";
  image: string | null;
  configs: UserConfigs;
  limitLoginHours: boolean;
  loginHours: LoginHours;
  lgpdAccepted: boolean | null;
  lgpdAcceptedAt: Date | null;
  lastLoginAt: Date | null;
  deletedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** A user's row with the ids of their queues (users.getInternal, users.findForLogin). */
export type UserWithQueues = UserRow & { queues: number[] };

/** Phone numbers are kept as digits only (country + area code + number). */
export function normalisePhone(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const digits = String(raw).replace(/\D/g, "");
  return digits.length ? digits : null;
}
