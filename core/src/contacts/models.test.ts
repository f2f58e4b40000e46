import { Sequelize, type QueryInterface } from "sequelize";
import { CONTACT_FIELD_NAMES } from "@openatende/contracts/contact-fields";
import { m0005 } from "./migrations/0005-contacts";
import { defineContactModels } from "./models";

type Column = { type?: unknown; allowNull?: boolean; defaultValue?: unknown };

/** What a column is, in words both sides can be compared in: "STRING(120) null", "BOOLEAN not null = false". */
function shape(c: Column | undefined): string {
  if (!c) return "missing";
  const t = c.type as { key?: string; _length?: number; options?: { length?: number } } | undefined;
  const length = t?._length ?? t?.options?.length;
  return `${t?.key}${length ? `(${length})` : ""} ${c.allowNull === false ? "not null" : "null"}${c.defaultValue !== undefined ? ` = ${String(c.defaultValue)}` : ""}`;
}

describe("contact model", () => {
  it("has the columns migration 0005 created, as the field table derives them", async () => {
    const tables: Record<string, Record<string, Column>> = {};
    const qi = {
      createTable: async (name: string, attrs: Record<string, Column>) => void (tables[name] = attrs),
      addIndex: async () => undefined,
    } as unknown as QueryInterface;
    await m0005.up(qi);
    const { Contact } = defineContactModels(new Sequelize({ dialect: "sqlite", storage: ":memory:", logging: false }));
    const model = Contact.getAttributes() as Record<string, Column>;
    for (const f of CONTACT_FIELD_NAMES) expect({ f, column: shape(model[f]) }).toEqual({ f, column: shape(tables.contacts[f]) });
    // Every column of the table is a field of the table, or the row's own bookkeeping.
    expect(Object.keys(tables.contacts).sort()).toEqual(["id", "tenantId", ...CONTACT_FIELD_NAMES, "createdAt", "updatedAt"].sort());
  });
});
