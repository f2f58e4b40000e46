import bcrypt from "bcryptjs";

/** Spec §5: at least 8 characters, an upper-case letter, a lower-case letter and a digit; letters and digits only. */
export const PASSWORD_RULE = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{8,72}$/;

export function isStrongPassword(p: unknown): p is string {
  return typeof p === "string" && PASSWORD_RULE.test(p);
}

export function hashPassword(p: string, rounds: number): Promise<string> {
  return bcrypt.hash(p, rounds);
}

export function checkPassword(p: string, hash: string): Promise<boolean> {
  return bcrypt.compare(p, hash);
}

/** A hash to compare against when the user does not exist, so timing does not tell. */
export const DUMMY_HASH = "$2b$10$CwTycUXWue0Thq9StjUM0uJ8.CS1xF1ZRoTe7K/WxvZRXt1Ih6ytq";
