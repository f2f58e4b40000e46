import {
  CONTACT_EXPORT_COLUMNS,
  CONTACT_FIELDS,
  CONTACT_FIELD_NAMES,
  CONTACT_IMPORT_HEADERS,
  FILLABLE_CONTACT_FIELDS,
  HIDDEN_CONTACT_FIELDS,
  foldHeader,
  type ContactFieldSpec,
  type ContactFields,
} from "./contact-fields";

const specs = Object.entries(CONTACT_FIELDS) as Array<[string, ContactFieldSpec]>;

describe("contact field table", () => {
  it("the contact's columns are every field but the two links, in table order", () => {
    expect(CONTACT_FIELD_NAMES).toEqual([
      "name",
      "firstName",
      "lastName",
      "businessName",
      "document",
      "birthday",
      "gender",
      "maritalStatus",
      "source",
      "number",
      "email",
      "instagram",
      "telegramId",
      "website",
      "category",
      "state",
      "additionalInfo",
      "whatsappValidated",
      "profilePicUrl",
    ]);
  });

  it("the export's columns are the ones spreadsheets already hold (their order is part of the API)", () => {
    expect(CONTACT_EXPORT_COLUMNS.join(",")).toBe(
      "id,name,firstName,lastName,businessName,document,birthday,gender,maritalStatus,source,number,email,instagram,telegramId,website,category,state,tags,wallet,whatsappValidated,profilePicUrl,createdAt",
    );
  });

  it("every exported field the import reads is read under its export header, so an export reads back", () => {
    for (const [field, headers] of Object.entries(CONTACT_IMPORT_HEADERS)) expect(headers[0]).toBe(foldHeader(field));
    const readBack = CONTACT_EXPORT_COLUMNS.filter((c) => CONTACT_IMPORT_HEADERS[c]);
    // What the import cannot take from a file: the row's id and stamp (the importing tenant's own), the wallet (user ids of another tenant).
    expect(CONTACT_EXPORT_COLUMNS.filter((c) => !readBack.includes(c))).toEqual(["id", "wallet", "createdAt"]);
  });

  it("a header spelling names one field only, and is written folded", () => {
    const all = Object.values(CONTACT_IMPORT_HEADERS).flat();
    expect(new Set(all).size).toBe(all.length);
    for (const h of all) expect(foldHeader(h)).toBe(h);
    expect(foldHeader("Data de Nascimento")).toBe("datadenascimento");
    expect(foldHeader("E-mail")).toBe("email");
  });

  it("a merge fills the plain fields only: not the name, number, list, flag or links it merges by rules of their own", () => {
    for (const f of ["name", "number", "additionalInfo", "whatsappValidated"] as const) expect(FILLABLE_CONTACT_FIELDS).not.toContain(f);
    for (const f of FILLABLE_CONTACT_FIELDS) expect(CONTACT_FIELD_NAMES).toContain(f);
    expect(FILLABLE_CONTACT_FIELDS).toHaveLength(CONTACT_FIELD_NAMES.length - 4);
  });

  it("the tenant's hide setting withholds the number and the e-mail", () => {
    expect(HIDDEN_CONTACT_FIELDS).toEqual(["number", "email"]);
  });

  it("each field says what the API accepts: a length for text, values for an enum, a size for lists", () => {
    for (const [name, s] of specs) {
      if (s.kind === "enum") expect(s.values?.length).toBeGreaterThan(0);
      else if (s.kind !== "boolean") expect({ name, max: s.max }).toEqual({ name, max: expect.any(Number) });
      if (s.column !== undefined) expect(s.column).toBeLessThanOrEqual(s.max ?? Infinity);
    }
  });

  it("derives the field types (compile-time: a contact with every field)", () => {
    const c: ContactFields = {
      name: "Ana",
      firstName: null,
      lastName: null,
      businessName: null,
      document: null,
      birthday: "1990-05-17",
      gender: "female",
      maritalStatus: null,
      source: null,
      number: "5511988887777",
      email: null,
      instagram: null,
      telegramId: null,
      website: null,
      category: null,
      state: null,
      additionalInfo: [{ description: "Time", info: "Corinthians" }],
      whatsappValidated: false,
      profilePicUrl: null,
    };
    expect(Object.keys(c)).toEqual([...CONTACT_FIELD_NAMES]);
  });
});
