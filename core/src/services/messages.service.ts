import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";

export function createMessagesService(_deps: CoreDeps): ServiceSchema {
  return { name: "messages", settings: { rest: "/" }, actions: {} };
}
