import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";

export function createConnectionsService(_deps: CoreDeps): ServiceSchema {
  return { name: "connections", settings: { rest: "/" }, actions: {} };
}
