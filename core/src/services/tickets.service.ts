import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";

export function createTicketsService(_deps: CoreDeps): ServiceSchema {
  return { name: "tickets", settings: { rest: "/" }, actions: {} };
}
