/**
 * contacts.botCard: what a bot's delivery shows of a contact (chatbots/delivery.ts, the core
 * API's ChatbotInbound): id, name, number, e-mail, picture and tags — one statement on the
 * tenant's contact (its tag ids with it), then the tags' names only when it has any. The
 * full view (contacts.getInternal) also reads the wallet and every field, which no bot is shown.
 */
import type { ContactTagRef } from "@openatende/contracts/contact-fields";
import { hotQuery } from "../db/sql";
import { call, type ParamsOf, type ResultOf } from "../bus/call";
import type { Ctx } from "../types";
import type { ContactsKit } from "./views";

export function botCard(kit: ContactsKit) {
  return async function card(ctx: Ctx<ParamsOf<"contacts.botCard">>): Promise<ResultOf<"contacts.botCard">> {
    const { tenantId, id } = ctx.params;
    const { rows } = await hotQuery<{ id: number; name: string; number: string | null; email: string | null; profilePicUrl: string | null; tagIds: string | null }>(
      kit.deps.sequelize,
      "select",
      "SELECT c.id, c.name, c.number, c.email, c.profilePicUrl, (SELECT GROUP_CONCAT(t.tagId) FROM contact_tags t WHERE t.contactId = c.id AND t.tenantId = c.tenantId) AS tagIds FROM contacts c WHERE c.id = ? AND c.tenantId = ? LIMIT 1",
      [id, tenantId],
    );
    const r = rows[0];
    if (!r) return null;
    const tagIds = [...new Set(String(r.tagIds ?? "").split(",").filter(Boolean).map(Number))];
    const tags: ContactTagRef[] = tagIds.length ? (await call(ctx, "tags.byIds", { tenantId, ids: tagIds })).map((t) => ({ id: t.id, name: t.name, color: t.color })) : [];
    tags.sort((a, b) => a.name.localeCompare(b.name));
    return { id: Number(r.id), name: r.name, number: r.number ?? null, email: r.email ?? null, profilePicUrl: r.profilePicUrl ?? null, tags };
  };
}
