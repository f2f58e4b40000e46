/**
 * The internal chat module (spec §2 /chat-interno and /configuracoes/grupos, §3 "Internal chat
 * group", §4 files, §5 "Internal chat" rules, §6 PLUS): one-to-one chats between the users of
 * a tenant and chats in groups an admin sets up (name, image, active, users), live over the
 * socket (the core API's realtime push to the conversation's members), with unread counts,
 * texts, images (a stored file or an image URL) and audio (too short: refused), and history
 * in pages. Its rows live in its own database (migrations/); users come from the core API.
 *
 * Routes: src/chat-routes.ts (any user) and src/group-routes.ts (admins); rules: src/rules.ts.
 */
import type { Context } from "moleculer";
import { definePlugin, openPluginData, type PlatformEventEnvelope } from "@openatende/plugin-sdk";
import { chatActions } from "./chat-routes";
import { groupActions } from "./group-routes";
import { ChatStore } from "./store";

export { EVENTS } from "./context";

interface Self {
  store: ChatStore;
}

export const internalChatPlugin = definePlugin({
  pkgJson: require("../package.json"),
  service: {
    settings: { rest: "/" },
    async started() {
      (this as unknown as Self).store = new ChatStore(await openPluginData(this));
    },
    actions: { ...chatActions, ...groupActions },
  },
  platformEvents: {
    /** A deleted user leaves the groups and chats they were in (their messages stay). */
    async "user.changed"(envelope: PlatformEventEnvelope<"user.changed">, ctx: Context) {
      if (envelope.data.change !== "deleted") return;
      await (ctx.service as unknown as Self).store.dropUser(envelope.tenantId, envelope.data.userId);
    },
  },
});

export default internalChatPlugin;
