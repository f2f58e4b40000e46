/**
 * Not a test of its own (the name does not match jest's testMatch): chatbot.test.ts runs it in
 * a child jest process and expects exactly the checks this chatbot breaks to fail.
 */
import { runChatbotConformance } from "./index";
import { createMenuChatbot } from "./chatbot-fixture";

runChatbotConformance({ plugin: createMenuChatbot({ faults: { actTwice: true, firstTenantOnly: true } }), ref: "menu", timeoutMs: 1000, settleMs: 200 });
