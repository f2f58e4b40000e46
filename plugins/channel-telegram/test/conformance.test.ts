import { runChannelConformance } from "@openatende/plugin-sdk";
import plugin from "../src/service";
import { FakeBotApi } from "./fake-bot-api";

/** The Telegram plugin honours the channel contract (SDK conformance kit, fake core, local Bot API server). */
let api: FakeBotApi;
let bot: { token: string };
const CHAT = { id: 424242, first_name: "Conformidade" };
const messageIds = new Map<string, number>();

runChannelConformance({
  plugin,
  async setup() {
    api = await FakeBotApi.start();
    bot = api.addBot();
  },
  async teardown() {
    await api.close();
  },
  // The fake Bot API listens on loopback: the platform's allow-list lets the plugin reach it.
  context: { outboundAllow: ["127.0.0.1"] },
  settings: () => ({ token: bot.token, mode: "polling", apiRoot: api.url }),
  to: { externalId: String(CHAT.id) },
  driver: {
    // Telegram hands the customer's message to the poller; a replay is the same message
    // (chat and message id) in a new update, as Telegram does after a lost confirmation.
    async triggerInbound(_broker, _ref, key) {
      if (!messageIds.has(key)) messageIds.set(key, messageIds.size + 1);
      api.pushUpdate(bot.token, { message: FakeBotApi.message(CHAT, { text: `olá ${key}` }, messageIds.get(key)!) });
    },
  },
});
