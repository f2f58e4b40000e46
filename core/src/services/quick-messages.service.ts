import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";

export function createQuickMessagesService(_deps: CoreDeps): ServiceSchema {
  return { name: "quickMessages", settings: { rest: "/" }, actions: {} };
}
