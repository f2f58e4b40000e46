import type { ActionParams } from "moleculer";
import { CONTACT_FIELDS, CONTACT_FIELD_NAMES, type ContactFieldSpec } from "@openatende/contracts/contact-fields";

export const idParam = { id: { type: "number", integer: true, positive: true, convert: true } };
const ids = (max: number) => ({ type: "array", items: { type: "number", integer: true, positive: true, convert: true }, max });

/** The validator's rule for one field of the table: its shape and size only. */
function ruleOf(s: ContactFieldSpec): ActionParams[string] {
  if (s.required) return { type: "string", min: 1, max: s.max };
  if (s.kind === "enum") return { type: "enum", values: [...s.values!], optional: true, nullable: true };
  if (s.kind === "boolean") return { type: "boolean", optional: true, convert: true };
  if (s.kind === "info") {
    const props = { description: { type: "string", max: s.entry!.description }, info: { type: "string", max: s.entry!.info } };
    return { type: "array", max: s.max, optional: true, nullable: true, items: { type: "object", props } };
  }
  return { type: "string", max: s.max, optional: true, nullable: true };
}

/**
 * The writable fields through the API (POST /contacts), with the ids of its tags and wallet;
 * meaning (phone, CPF/CNPJ, dates, e-mail, URL) is checked by normaliseContactFields.
 */
export const contactParams: ActionParams = {
  ...Object.fromEntries(CONTACT_FIELD_NAMES.map((f) => [f, ruleOf(CONTACT_FIELDS[f])])),
  tagIds: { ...ids(CONTACT_FIELDS.tags.max), optional: true },
  walletUserIds: { ...ids(CONTACT_FIELDS.wallet.max), optional: true },
  $$strict: "remove",
};

/** The same for a change (PUT /contacts/:id): every field may be left out. */
export const optionalContactParams: ActionParams = Object.fromEntries(
  Object.entries(contactParams).map(([k, v]) => [k, typeof v === "object" ? { ...v, optional: true } : v]),
);

/** PUT /contacts/:id/tags and /wallet: the whole new list. */
export const tagIdsParam = { tagIds: ids(CONTACT_FIELDS.tags.max) };
export const walletParam = { userIds: ids(CONTACT_FIELDS.wallet.max) };
