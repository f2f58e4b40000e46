import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";

export function createPluginsService(_deps: CoreDeps): ServiceSchema {
  return { name: "plugins", settings: { rest: "/" }, actions: {} };
}
