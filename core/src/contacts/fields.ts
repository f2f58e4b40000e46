import {
  CONTACT_FIELDS,
  GENDERS,
  MARITAL_STATUSES,
  type AdditionalInfo,
  type ContactFieldSpec,
  type ContactFields,
  type Gender,
  type MaritalStatus,
} from "@openatende/contracts/contact-fields";
import { AppError } from "../errors/app-error";
import type { ErrorCode } from "../errors/codes";
import { isValidDocument, normaliseDocument } from "../licence/document";
import { normaliseContactNumber } from "./phone";

export type { ContactFields } from "@openatende/contracts/contact-fields";

/** Plain text fields and their maximum length (the field table's). */
const TEXT_MAX = Object.fromEntries(
  (Object.entries(CONTACT_FIELDS) as Array<[keyof ContactFields, ContactFieldSpec]>).filter(([, s]) => s.kind === "text").map(([k, s]) => [k, s.max!]),
) as Partial<Record<keyof ContactFields, number>>;
const INFO = CONTACT_FIELDS.additionalInfo;

export interface FieldError {
  field: string;
  code: ErrorCode;
  rule: string;
  expected?: unknown;
}

/** Pt-BR and English spellings a spreadsheet may use. */
const GENDER_ALIASES: Record<string, Gender> = {
  male: "male",
  m: "male",
  masculino: "male",
  homem: "male",
  female: "female",
  f: "female",
  feminino: "female",
  mulher: "female",
  "non-binary": "non-binary",
  nonbinary: "non-binary",
  "non binary": "non-binary",
  "nao-binario": "non-binary",
  "nao binario": "non-binary",
};
const MARITAL_ALIASES: Record<string, MaritalStatus> = {
  single: "single",
  solteiro: "single",
  solteira: "single",
  married: "married",
  casado: "married",
  casada: "married",
  divorced: "divorced",
  divorciado: "divorced",
  divorciada: "divorced",
  widowed: "widowed",
  viuvo: "widowed",
  viuva: "widowed",
  other: "other",
  outro: "other",
  outra: "other",
};

const fold = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "");

const EMAIL_RE = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:"]+\.[^\s@<>()[\]\\,;:"]{2,}$/;

/** A calendar date "YYYY-MM-DD" from "YYYY-MM-DD", an ISO date-time or "DD/MM/YYYY"; not in the future. */
export function normaliseBirthday(raw: unknown): string | null | undefined {
  if (raw instanceof Date) raw = Number.isNaN(raw.getTime()) ? "" : raw.toISOString().slice(0, 10);
  if (typeof raw !== "string") return undefined;
  const s = raw.trim();
  let y: number, m: number, d: number;
  let match = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s);
  if (match) [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])];
  else {
    match = /^(\d{1,2})[/.-](\d{1,2})[/.-](\d{4})$/.exec(s);
    if (!match) return undefined;
    [d, m, y] = [Number(match[1]), Number(match[2]), Number(match[3])];
  }
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  if (y < 1900 || date.getTime() > Date.now()) return undefined;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

function parseBool(raw: unknown): boolean | undefined {
  if (typeof raw === "boolean") return raw;
  if (typeof raw === "number") return raw !== 0;
  if (typeof raw !== "string") return undefined;
  const v = fold(raw);
  if (["true", "1", "yes", "sim", "s", "y"].includes(v)) return true;
  if (["false", "0", "no", "nao", "n", ""].includes(v)) return false;
  return undefined;
}

/**
 * Checks and normalises the contact fields present in `input` (absent = `undefined` = not
 * changed). Used by the API (values already typed by the action's params) and by the CSV
 * import (every value a string). Empty text clears a field; `name` cannot be cleared.
 * Errors carry the field, the catalogue code and the validation rule.
 */
export function normaliseContactFields(
  input: Record<string, unknown>,
  opts: { requireName: boolean },
): { value: Partial<ContactFields>; errors: FieldError[] } {
  const value: Partial<ContactFields> = {};
  const errors: FieldError[] = [];
  const bad = (field: string, rule: string, expected?: unknown, code: ErrorCode = "ERR_VALIDATION") =>
    errors.push({ field, code, rule, ...(expected !== undefined ? { expected } : {}) });
  const has = (k: string) => input[k] !== undefined;
  const text = (k: keyof ContactFields): string | null | undefined => {
    const raw = input[k];
    if (raw === undefined) return undefined;
    if (raw === null) return null;
    if (typeof raw !== "string" && typeof raw !== "number") {
      bad(k, "string");
      return undefined;
    }
    const s = String(raw).trim();
    return s === "" ? null : s;
  };

  for (const [k, max] of Object.entries(TEXT_MAX) as Array<[keyof ContactFields, number]>) {
    const s = text(k);
    if (s === undefined) continue;
    if (s !== null && s.length > max) {
      bad(k, "stringMax", max);
      continue;
    }
    (value as Record<string, unknown>)[k] = s;
  }
  if (value.name === null || (opts.requireName && !value.name && !errors.some((e) => e.field === "name"))) {
    delete value.name;
    bad("name", "required");
  }

  if (has("number")) {
    const r = normaliseContactNumber(input.number);
    if (r.ok) value.number = r.number;
    else bad("number", "phone", undefined, "ERR_CONTACT_NUMBER_INVALID");
  }

  const email = text("email");
  if (email !== undefined) {
    if (email === null) value.email = null;
    else if (email.length > CONTACT_FIELDS.email.max) bad("email", "emailMax", CONTACT_FIELDS.email.max);
    else if (!EMAIL_RE.test(email)) bad("email", "email");
    else value.email = email.toLowerCase();
  }

  const doc = text("document");
  if (doc !== undefined) {
    if (doc === null) value.document = null;
    else if (!isValidDocument(doc)) bad("document", "document");
    else value.document = normaliseDocument(doc);
  }

  if (has("birthday")) {
    const raw = input.birthday;
    if (raw === null || (typeof raw === "string" && raw.trim() === "")) value.birthday = null;
    else {
      const b = normaliseBirthday(raw);
      if (b) value.birthday = b;
      else bad("birthday", "date");
    }
  }

  const gender = text("gender");
  if (gender !== undefined) {
    if (gender === null) value.gender = null;
    else if (GENDER_ALIASES[fold(gender)]) value.gender = GENDER_ALIASES[fold(gender)];
    else bad("gender", "enumValue", GENDERS.join(", "));
  }
  const marital = text("maritalStatus");
  if (marital !== undefined) {
    if (marital === null) value.maritalStatus = null;
    else if (MARITAL_ALIASES[fold(marital)]) value.maritalStatus = MARITAL_ALIASES[fold(marital)];
    else bad("maritalStatus", "enumValue", MARITAL_STATUSES.join(", "));
  }

  const pic = text("profilePicUrl");
  if (pic !== undefined) {
    if (pic === null) value.profilePicUrl = null;
    else if (pic.length > CONTACT_FIELDS.profilePicUrl.max) bad("profilePicUrl", "stringMax", CONTACT_FIELDS.profilePicUrl.max);
    else if (!/^https?:\/\/\S+$/i.test(pic)) bad("profilePicUrl", "url");
    else value.profilePicUrl = pic;
  }

  if (has("whatsappValidated")) {
    const b = parseBool(input.whatsappValidated);
    if (b === undefined) bad("whatsappValidated", "boolean");
    else value.whatsappValidated = b;
  }

  if (has("additionalInfo")) {
    const list = input.additionalInfo;
    if (list === null) value.additionalInfo = [];
    else if (!Array.isArray(list)) bad("additionalInfo", "array");
    else if (list.length > INFO.max) bad("additionalInfo", "arrayMax", INFO.max);
    else {
      const out: AdditionalInfo[] = [];
      for (const item of list) {
        const o = (item ?? {}) as Record<string, unknown>;
        const description = typeof o.description === "string" ? o.description.trim() : undefined;
        const info = typeof o.info === "string" || typeof o.info === "number" ? String(o.info).trim() : undefined;
        if (typeof item !== "object" || description === undefined || info === undefined) {
          bad("additionalInfo", "object");
          break;
        }
        if (description.length > INFO.entry.description || info.length > INFO.entry.info) {
          bad("additionalInfo", "stringMax", description.length > INFO.entry.description ? INFO.entry.description : INFO.entry.info);
          break;
        }
        if (description || info) out.push({ description, info });
      }
      if (!errors.some((e) => e.field === "additionalInfo")) value.additionalInfo = out;
    }
  }

  return { value, errors };
}

/** The first field error as the API's error (ERR_VALIDATION carries field, rule and the validator-style list). */
export function fieldErrorToAppError(e: FieldError): AppError {
  const data: Record<string, unknown> = { field: e.field, rule: e.rule };
  if (e.code === "ERR_VALIDATION") data.errors = [{ field: e.field, rule: e.rule, expected: e.expected }];
  return new AppError(e.code, data);
}
