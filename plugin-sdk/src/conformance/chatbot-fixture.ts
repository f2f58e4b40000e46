/**
 * The smallest chatbot that honours the chatbot contract, for the kit's own tests: on a
 * ticket's start it greets with a menu ("1 — Vendas, 2 — Suporte") and keeps a 10-minute wait
 * job; "1" or "2" hands the ticket to that queue of the tenant (the job cancelled), anything
 * else gets the menu again; a repeated inbound id is skipped. `faults` break one rule on purpose.
 */
import type { Context } from "moleculer";
import { CHATBOT_MESSAGE_ACTION, type ChatbotInbound } from "../chatbot-contract";
import { coreApi } from "../core-api/client";
import { definePlugin, type DefinedPlugin } from "../define-plugin";
import { jobActions, pluginJobs } from "../jobs";

export interface MenuChatbotFaults {
  /** Acts again on a repeated inbound id. */
  actTwice?: boolean;
  /** Answers every tenant as the first tenant it heard from (state kept per ticket id only). */
  firstTenantOnly?: boolean;
  /** Does nothing with a customer's message. */
  silentOnMessage?: boolean;
  /** Its chatbotMessage action takes any params (a hand-made action instead of definePlugin's). */
  lenientInbound?: boolean;
  /** Hands off a queue id of its own making instead of one of the tenant's queues. */
  foreignQueue?: boolean;
  /** Its manifest says kind "module". */
  notAChatbot?: boolean;
}

export const MENU_TEXT = "Olá! 1 — Vendas, 2 — Suporte";

export function createMenuChatbot(opts: { id?: string; faults?: MenuChatbotFaults } = {}): DefinedPlugin {
  const faults = opts.faults ?? {};
  const seen = new Set<string>();
  let firstTenant: number | undefined;

  async function onMessage(inbound: ChatbotInbound, ctx: Context): Promise<void> {
    const key = `${inbound.tenantId}:${inbound.id}`;
    if (seen.has(key) && !faults.actTwice) return;
    seen.add(key);
    firstTenant ??= inbound.tenantId;
    const tenantId = faults.firstTenantOnly ? firstTenant : inbound.tenantId;
    const ticketId = inbound.ticket.id;
    const api = coreApi(ctx);
    const jobs = pluginJobs(ctx.service as never);
    if (inbound.reason === "started") {
      await api.messages.send({ tenantId, ticketId, body: MENU_TEXT });
      await jobs.schedule(ctx, { name: "wait", key: String(ticketId), tenantId, delayMs: 600_000 });
      return;
    }
    if (faults.silentOnMessage) return;
    const choice = inbound.message?.body?.trim();
    if (choice === "1" || choice === "2") {
      const queues = await api.queues.list({ tenantId });
      const queueId = faults.foreignQueue ? 999_999 : queues[Number(choice) - 1].id;
      await api.chatbots.handoff({ tenantId, ticketId, queueId, reason: "flow" });
      await jobs.cancel(ctx, { name: "wait", key: String(ticketId), tenantId });
      return;
    }
    await api.messages.send({ tenantId, ticketId, body: `Opção inválida. ${MENU_TEXT}` });
  }

  const id = opts.id ?? "chatbot-menu";
  const plugin = definePlugin({
    pkgJson: {
      name: `@openatende/${id}`,
      version: "1.0.0",
      platform: { id, kind: "chatbot", tier: "FREE", coreApi: "^1.0.0", displayName: { "pt-BR": "Menu (testes)", en: "Menu (tests)" } },
    },
    chatbot: { onMessage },
    service: {
      actions: {
        ...jobActions({
          // The customer did not answer in time: the ticket goes to the tenant's first queue.
          async wait(ctx, job) {
            const [queue] = await coreApi(ctx).queues.list({ tenantId: job.tenantId });
            await coreApi(ctx).chatbots.handoff({ tenantId: job.tenantId, ticketId: Number(job.key), queueId: queue.id, reason: "timeout" });
          },
        }),
      },
    },
  });
  if (!faults.lenientInbound && !faults.notAChatbot) return plugin;
  // What a plugin built without definePlugin's chatbot handler would look like.
  const actions = { ...(plugin.schema.actions as Record<string, unknown>) };
  if (faults.lenientInbound) actions[CHATBOT_MESSAGE_ACTION] = { handler: (ctx: Context<ChatbotInbound>) => onMessage(ctx.params, ctx).then(() => ({ handled: true })) };
  const manifest = faults.notAChatbot ? { ...plugin.manifest, kind: "module" as const } : plugin.manifest;
  const meta = plugin.schema.metadata as { plugin: Record<string, unknown> };
  return Object.freeze({ ...plugin, manifest, schema: { ...plugin.schema, actions, metadata: { ...meta, plugin: { ...meta.plugin, kind: manifest.kind } } } }) as DefinedPlugin;
}
