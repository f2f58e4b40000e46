/** The users API's params and the rules on their values the validator cannot state. */
import type { Profile } from "../types";
import type { LoginHours } from "../auth/login-hours";

/** Now, to the second: MariaDB's DATETIME keeps no fraction, so the answer matches what a later read returns. */
export const nowToSecond = () => new Date(Math.floor(Date.now() / 1000) * 1000);

export function validPhone(p: string | null): boolean {
  return p === null || /^\d{10,15}$/.test(p);
}

export interface UserInput {
  name?: string;
  email?: string;
  password?: string;
  profile?: Profile;
  phoneNumber?: string | null;
  queues?: number[];
  active?: boolean;
  isHidden?: boolean;
  isSupport?: boolean;
  image?: string | null;
  limitLoginHours?: boolean;
  loginHours?: LoginHours;
}

export const writableFields = {
  name: { type: "string", min: 2, max: 120, trim: true },
  email: { type: "email", normalize: true, max: 190 },
  // The password rule (spec §5, isStrongPassword) decides, so every breach answers ERR_PASSWORD_WEAK.
  password: { type: "string", max: 200 },
  profile: { type: "enum", values: ["user", "supervisor", "admin", "super"] },
  phoneNumber: { type: "string", max: 30, optional: true, nullable: true },
  queues: { type: "array", items: { type: "number", integer: true, positive: true }, max: 200, optional: true },
  active: { type: "boolean", optional: true, convert: true },
  isHidden: { type: "boolean", optional: true, convert: true },
  /** Support accounts have admin status (spec §6); only the platform level marks them. */
  isSupport: { type: "boolean", optional: true, convert: true },
  image: { type: "string", max: 500, optional: true, nullable: true },
  limitLoginHours: { type: "boolean", optional: true, convert: true },
  loginHours: { type: "object", optional: true },
};

export const optional = <T extends Record<string, object>>(o: T) =>
  Object.fromEntries(Object.entries(o).map(([k, v]) => [k, { ...v, optional: true }])) as T;

export const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };
