import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";

export function createContactsService(_deps: CoreDeps): ServiceSchema {
  return { name: "contacts", settings: { rest: "/" }, actions: {} };
}
