/**
 * A plugin with data of its own: notes per tenant in its table `notes`, made by its migration
 * and reached only through openPluginData. Each answer names the node that gave it, so a test
 * can tell that two nodes share one database.
 */
import { definePlugin, openPluginData, pluginContext } from "@openatende/plugin-sdk";
import pkg from "../package.json";

type Note = { id: string; text: string; writtenBy: string } & Record<string, unknown>;

const tenantId = { type: "number", integer: true, positive: true, convert: true } as const;

export const notesPlugin = definePlugin({
  pkgJson: pkg,
  service: {
    actions: {
      put: {
        params: { tenantId, id: { type: "string", min: 1, max: 64 }, text: { type: "string" } },
        async handler(ctx) {
          const data = await openPluginData(this);
          await data.forTenant(ctx.params.tenantId).table<Note>("notes").upsert({ id: ctx.params.id, text: ctx.params.text, writtenBy: this.broker.nodeID });
          return { node: this.broker.nodeID };
        },
      },
      list: {
        params: { tenantId },
        async handler(ctx) {
          const data = await openPluginData(this);
          return { node: this.broker.nodeID, notes: await data.forTenant(ctx.params.tenantId).table<Note>("notes").find({}, { orderBy: [["id", "asc"]] }) };
        },
      },
      /** Where the host put the plugin's data (no credentials). */
      where: {
        handler() {
          const db = pluginContext(this).database;
          if (!db) return null;
          return { dialect: db.dialect, at: db.dialect === "sqlite" ? db.url.slice("sqlite:".length) : new URL(db.url).pathname.slice(1) };
        },
      },
    },
  },
});

export default notesPlugin;
