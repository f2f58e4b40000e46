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
  /** The agent signs their outgoing messages with their name (unless the tenant forces it on or off). */
  signature?: boolean;
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

/** A user's id and name (users.names). */
export interface UserName {
  id: number;
  name: string;
}

/** Actions of the users service other services call. */
export interface UsersActions {
  "users.getInternal": { params: { id: number }; result: UserWithQueues | null };
  "users.findForLogin": { params: { email?: string; phoneNumber?: string }; result: UserWithQueues | null };
  "users.setPasswordHash": { params: { id: number; passwordHash: string }; result: boolean };
  "users.touchLogin": { params: { id: number }; result: boolean };
  "users.setStatus": { params: { id: number; status: "online" | "offline" }; result: boolean };
  "users.createInternal": {
    params: { tenantId: number; name: string; email: string; password: string; profile: Profile; isMaster?: boolean; queues?: number[] };
    result: { id: number };
  };
  /** A tenant's admin created by the platform level (tenants: a new tenant's first admin, or one more). */
  "users.createAdmin": {
    params: { tenantId: number; name: string; email: string; password: string };
    result: { id: number; tenantId: number; name: string; email: string; profile: "admin" };
  };
  "users.deactivate": { params: { id: number; tenantId: number }; result: boolean };
  "users.detachQueue": { params: { tenantId: number; queueId: number }; result: number };
  "users.countInQueue": { params: { tenantId: number; queueId: number }; result: number };
  /** Names of the tenant's users (deleted ones too: their tickets still show them). */
  "users.names": { params: { tenantId: number; ids: number[] }; result: UserName[] };
  /** The tenant's users not deleted, by name, with their queues. */
  "users.listInternal": { params: { tenantId: number }; result: UserWithQueues[] };
}

export interface UsersEvents {
  "users.created": { tenantId: number; userId: number };
  "users.updated": { tenantId: number; userId: number };
  "users.deleted": { tenantId: number; userId: number; newUserId?: number };
}
