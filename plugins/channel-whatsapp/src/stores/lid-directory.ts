/**
 * LID ↔ phone number, per connection, in the plugin's own table (lid_map). What the session
 * learns from message keys (remoteJidAlt, participantAlt), lid-mapping.update events and the
 * history sync lands here; a LID not in the table is also looked up in the mappings Baileys
 * keeps in the auth state ('lid-mapping' keys, "<lid user>_reverse" → phone user).
 */
import type { SignalKeyStore } from "@whiskeysockets/baileys";
import type { TenantData } from "@openatende/plugin-sdk";
import type { LidDirectory } from "../ports";
import { baileys } from "../session/baileys";
import { LidRow, TABLES } from "./tables";

const CACHE_MAX = 5000;

export class TableLidDirectory implements LidDirectory {
  private readonly cache = new Map<string, string>();
  private readonly pending = new Map<string, Promise<boolean>>();

  constructor(
    private readonly data: TenantData,
    private readonly connectionId: number,
    /** The session's auth keys, for the mappings Baileys stored itself. */
    private readonly keys?: SignalKeyStore,
    private readonly now: () => number = Date.now,
  ) {}

  async phoneOf(lidJid: string): Promise<string | undefined> {
    const lid = baileys().jidNormalizedUser(lidJid);
    if (!lid) return undefined;
    const known = await this.stored(lid);
    if (known) return known;
    const user = baileys().jidDecode(lid)?.user;
    if (!this.keys || !user) return undefined;
    const found = await this.keys.get("lid-mapping", [`${user}_reverse`]);
    const pnUser = found[`${user}_reverse`];
    return typeof pnUser === "string" && pnUser ? `${pnUser}@s.whatsapp.net` : undefined;
  }

  remember(lidJid: string, phoneJid: string): Promise<boolean> {
    const b = baileys();
    const lid = b.jidNormalizedUser(lidJid);
    const pn = b.jidNormalizedUser(phoneJid);
    if (!lid || !pn || !b.isLidUser(lid) || !b.isPnUser(pn)) return Promise.resolve(false);
    // The same pair seen twice at once (a batch of messages from one person) is one write.
    const key = `${lid}>${pn}`;
    const running = this.pending.get(key);
    if (running) return running.then(() => false);
    const p = (async () => {
      if ((await this.stored(lid)) === pn) return false;
      await this.data.table<LidRow>(TABLES.lids).upsert({ connectionId: this.connectionId, lid, pn, updatedAt: this.now() });
      this.cacheSet(lid, pn);
      return true;
    })().finally(() => this.pending.delete(key));
    this.pending.set(key, p);
    return p;
  }

  private async stored(lid: string): Promise<string | undefined> {
    const hit = this.cache.get(lid);
    if (hit) return hit;
    const row = await this.data.table<LidRow>(TABLES.lids).get({ connectionId: this.connectionId, lid });
    if (row) this.cacheSet(lid, row.pn);
    return row?.pn;
  }

  private cacheSet(lid: string, pn: string): void {
    this.cache.delete(lid);
    this.cache.set(lid, pn);
    if (this.cache.size > CACHE_MAX) this.cache.delete(this.cache.keys().next().value as string);
  }
}
