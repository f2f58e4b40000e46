/**
 * The fields of a contact (spec §3), written once. The core's model, the API's params and
 * view, the CSV import and export, the merge of duplicates and the shell's types all read
 * this table; adding a field here (and a migration for its column) is the whole change.
 * The table's order is the order of the CSV export's columns and of the API's fields.
 *
 * The columns themselves were created by migration 0005, which stays as applied: `column`
 * repeats the size it gave a field whose stored value is shorter than what the API accepts.
 */

export const GENDERS = ["male", "female", "non-binary"] as const;
export const MARITAL_STATUSES = ["single", "married", "divorced", "widowed", "other"] as const;
export type Gender = (typeof GENDERS)[number];
export type MaritalStatus = (typeof MARITAL_STATUSES)[number];

/** One line of a contact's free-form extra information. */
export interface AdditionalInfo {
  description: string;
  info: string;
}

/**
 * What a field holds, which decides how it is checked and stored:
 * text (trimmed, `max` characters), phone (E.164 digits), email, document (CPF/CNPJ digits),
 * date (YYYY-MM-DD), enum (one of `values`), boolean, url (http/https), info (a list of
 * AdditionalInfo), and the two links to other tables: tags and wallet (user ids).
 */
export type ContactFieldKind = "text" | "phone" | "email" | "document" | "date" | "enum" | "boolean" | "url" | "info" | "tags" | "wallet";

export interface ContactFieldSpec {
  kind: ContactFieldKind;
  /** The longest value the API accepts, in characters; for a list, how many entries. */
  max?: number;
  /** The column's size when the normalised value is shorter than what the API accepts. */
  column?: number;
  /** The values of an enum. */
  values?: readonly string[];
  /** Every contact has one; it cannot be cleared. */
  required?: true;
  /** For `info`: the longest description and info of one entry. */
  entry?: { description: number; info: number };
  /** A column of the CSV export. */
  exported?: true;
  /**
   * Read by the CSV import, under its own name and these header spellings. Headers are
   * compared folded: lower case, no accents, letters and digits only ("E-mail" is "email").
   */
  imported?: readonly string[];
  /** A merge copies it from a duplicate onto the kept contact when the kept one has none. */
  fillable?: true;
  /** Hidden from non-admins when the tenant hides contact information (spec §6). */
  hidden?: true;
}

export const CONTACT_FIELDS = {
  name: { kind: "text", max: 200, required: true, exported: true, imported: ["nome", "fullname", "nomecompleto", "contato", "contact"] },
  firstName: { kind: "text", max: 120, exported: true, imported: ["primeironome", "prenome"], fillable: true },
  lastName: { kind: "text", max: 120, exported: true, imported: ["sobrenome", "ultimonome"], fillable: true },
  businessName: { kind: "text", max: 200, exported: true, imported: ["empresa", "razaosocial", "company", "nomefantasia"], fillable: true },
  document: { kind: "document", max: 30, column: 14, exported: true, imported: ["documento", "cpf", "cnpj", "cpfcnpj"], fillable: true },
  birthday: { kind: "date", max: 40, exported: true, imported: ["birthdate", "aniversario", "nascimento", "datanascimento", "datadenascimento"], fillable: true },
  gender: { kind: "enum", values: GENDERS, column: 16, exported: true, imported: ["genero", "sexo"], fillable: true },
  maritalStatus: { kind: "enum", values: MARITAL_STATUSES, column: 16, exported: true, imported: ["estadocivil"], fillable: true },
  source: { kind: "text", max: 100, exported: true, imported: ["origem"], fillable: true },
  // A merge keeps the kept contact's number, or takes the oldest duplicate's once that one is gone (unique per tenant).
  number: { kind: "phone", max: 40, column: 20, hidden: true, exported: true, imported: ["numero", "phone", "phonenumber", "telefone", "whatsapp", "celular", "mobile"] },
  email: { kind: "email", max: 190, hidden: true, exported: true, imported: ["mail"], fillable: true },
  instagram: { kind: "text", max: 120, exported: true, imported: [], fillable: true },
  telegramId: { kind: "text", max: 64, exported: true, imported: ["telegram"], fillable: true },
  website: { kind: "text", max: 500, exported: true, imported: ["site", "url"], fillable: true },
  category: { kind: "text", max: 100, exported: true, imported: ["categoria"], fillable: true },
  state: { kind: "text", max: 100, exported: true, imported: ["estado", "uf"], fillable: true },
  // A merge joins the lists (no entry twice).
  additionalInfo: { kind: "info", max: 50, entry: { description: 200, info: 2000 } },
  tags: { kind: "tags", max: 100, exported: true, imported: ["tag", "etiquetas", "etiqueta", "labels"] },
  wallet: { kind: "wallet", max: 50, exported: true },
  // A merge keeps it when any of the contacts had it.
  whatsappValidated: { kind: "boolean", exported: true, imported: ["whatsappvalidado"] },
  profilePicUrl: { kind: "url", max: 1000, exported: true, imported: ["foto", "avatar"], fillable: true },
} as const satisfies Record<string, ContactFieldSpec>;

type Table = typeof CONTACT_FIELDS;
export type ContactFieldName = keyof Table;
/** The contact's own columns; tags and wallet are rows of other tables. */
export type ContactColumnName = { [K in ContactFieldName]: Table[K]["kind"] extends "tags" | "wallet" ? never : K }[ContactFieldName];

type ValueOf<S> = S extends { kind: "enum"; values: readonly (infer V)[] }
  ? V | null
  : S extends { kind: "boolean" }
    ? boolean
    : S extends { kind: "info" }
      ? AdditionalInfo[]
      : S extends { required: true }
        ? string
        : string | null;

/** The writable fields of a contact, normalised (what the API answers and the core stores). */
export type ContactFields = { -readonly [K in ContactColumnName]: ValueOf<Table[K]> };

const entries = Object.entries(CONTACT_FIELDS) as Array<[ContactFieldName, ContactFieldSpec]>;
const names = (keep: (s: ContactFieldSpec) => unknown) => entries.filter(([, s]) => keep(s)).map(([k]) => k);
const isLink = (s: ContactFieldSpec) => s.kind === "tags" || s.kind === "wallet";

/** The contact's own columns, in table order. */
export const CONTACT_FIELD_NAMES = names((s) => !isLink(s)) as readonly ContactColumnName[];

/** The fields a merge fills on the kept contact from its duplicates. */
export const FILLABLE_CONTACT_FIELDS = names((s) => "fillable" in s && s.fillable) as readonly ContactColumnName[];

/** The fields hidden from non-admins when the tenant hides contact information. */
export const HIDDEN_CONTACT_FIELDS = names((s) => "hidden" in s && s.hidden) as readonly ContactColumnName[];

/** The CSV export's columns in order: the contact's id, the exported fields, when it was created. */
export const CONTACT_EXPORT_COLUMNS: readonly string[] = ["id", ...names((s) => s.exported), "createdAt"];

/** A CSV header folded for comparison: no accents, lower case, letters and digits only. */
export function foldHeader(h: string): string {
  return h
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]/g, "");
}

/** The headers the CSV import reads, by field: the field's own name first (the export's header), then its other spellings. */
export const CONTACT_IMPORT_HEADERS: Readonly<Record<string, readonly string[]>> = Object.fromEntries(
  entries.filter(([, s]) => s.imported).map(([k, s]) => [k, [...new Set([foldHeader(k), ...s.imported!])]]),
);

/** A tag as a contact shows it. */
export interface ContactTagRef {
  id: number;
  name: string;
  color: string;
}

/** A contact as the API shows it (GET /contacts, GET /contacts/:id); the core builds it with Date stamps. */
export type ContactView<Stamp = string> = { id: number } & ContactFields & {
  tags: ContactTagRef[];
  wallet: number[];
  /** The number and e-mail were withheld from this caller (HIDDEN_CONTACT_FIELDS are null). */
  contactInfoHidden?: boolean;
  createdAt: Stamp;
  updatedAt: Stamp;
};
