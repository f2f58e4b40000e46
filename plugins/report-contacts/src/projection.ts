/**
 * The contacts projection: a core contact as a row and its tag links, the backfill paging
 * through the core's contacts, and what contact and tag events write (the contact as the core
 * answers it now; a deleted or merged-away contact as a tombstone; a deleted tag's links gone).
 */
import type { CoreApi, PlatformContact, TenantData } from "@openatende/plugin-sdk";
import { contactPages, type ProjectionSource } from "@openatende/report-kit";
import { nameBucket } from "./buckets";

export interface ContactRow extends Record<string, unknown> {
  id: number;
  name: string;
  number: string | null;
  email: string | null;
  state: string | null;
  createdAt: number;
  version: number;
  deleted: boolean;
  /** nameBucket(name): the key the reads by name are batched on. */
  bucket: number;
}
/** A contact's tag, with the contact's name and bucket: the tags page reads the links by name. */
export interface LinkRow extends Record<string, unknown> {
  contactId: number;
  tagId: number;
  bucket: number;
  name: string;
}

export const contactsTable = (t: TenantData) => t.table<ContactRow>("contacts");
export const linksTable = (t: TenantData) => t.table<LinkRow>("contact_tags");

const cut = (s: string | null | undefined, n: number) => (s ? s.trim().slice(0, n) || null : null);

export function contactRow(c: PlatformContact): ContactRow {
  const createdAt = Date.parse(c.createdAt);
  const updatedAt = Date.parse(c.updatedAt);
  const name = c.name.slice(0, 191);
  return { id: c.id, name, number: cut(c.number, 64), email: cut(c.email, 191), state: cut(c.state, 64), createdAt, version: Number.isFinite(updatedAt) ? updatedAt : createdAt, deleted: false, bucket: nameBucket(name) };
}

export function fromDb(r: ContactRow): ContactRow {
  return { ...r, id: Number(r.id), createdAt: Number(r.createdAt), version: Number(r.version), deleted: Boolean(Number(r.deleted)), bucket: Number(r.bucket) };
}

/**
 * Writes contacts (and replaces their tag links) unless what is kept is newer or a tombstone;
 * `force`: the core's current answer to an event, written whatever the version says (a tag
 * change does not move the contact's updatedAt). Answers how many it wrote.
 */
export async function writeContacts(tenant: TenantData, contacts: PlatformContact[], force = false): Promise<number> {
  const people = contacts.filter((c) => !c.isGroup);
  if (!people.length) return 0;
  const kept = new Map((await contactsTable(tenant).find({ id: people.map((c) => c.id) })).map((r) => [Number(r.id), fromDb(r)]));
  const fresh = people.filter((c) => {
    const k = kept.get(c.id);
    return !k || (!k.deleted && (force || k.version <= contactRow(c).version));
  });
  if (!fresh.length) return 0;
  const rows = fresh.map(contactRow);
  await contactsTable(tenant).upsertMany(rows);
  await linksTable(tenant).delete({ contactId: fresh.map((c) => c.id) });
  const links = fresh.flatMap((c, i) => c.tags.map((t) => ({ contactId: c.id, tagId: t.id, bucket: rows[i].bucket, name: rows[i].name })));
  if (links.length) await linksTable(tenant).upsertMany(links);
  return fresh.length;
}

/** A contact gone (deleted, merged into another): a tombstone no older backfill page revives. */
export async function forget(tx: TenantData, id: number): Promise<void> {
  await linksTable(tx).delete({ contactId: id });
  const gone = { deleted: true, version: Number.MAX_SAFE_INTEGER };
  if (await contactsTable(tx).update({ id }, gone)) return;
  await contactsTable(tx).upsert({ id, name: "", number: null, email: null, state: null, createdAt: 0, bucket: 0, ...gone });
}

/** The contact as the core has it now (deleted there: forgotten here). */
export async function refreshContact(api: CoreApi, tx: TenantData, id: number): Promise<void> {
  const c = await api.contacts.get({ tenantId: tx.tenantId, id }).catch((err: { code?: number }) => {
    if (err?.code === 404) return null;
    throw err;
  });
  if (!c || c.isGroup) await forget(tx, id);
  else await writeContacts(tx, [c], true);
}

/** A tag changed: when the tenant no longer has it, its links go. */
export async function tagChanged(api: CoreApi, tx: TenantData, tagId: number): Promise<void> {
  const tags = await api.tags.list({ tenantId: tx.tenantId });
  if (!tags.some((t) => t.id === tagId)) await linksTable(tx).delete({ tagId });
}

export const contactsSource: ProjectionSource = {
  // "-v2": the rows gained their name bucket (migration 0002); a new name backfills every tenant once more.
  name: "contacts-v2",
  async clear(tenant) {
    await linksTable(tenant).delete({});
    await contactsTable(tenant).delete({});
  },
  async backfill({ api, tenantId, tenant, progress }) {
    let total = 0;
    for await (const { rows, seen, expected } of contactPages(api, tenantId)) {
      const n = await writeContacts(tenant, rows);
      total += n;
      await progress(n, { seen, expected });
    }
    return total;
  },
};
