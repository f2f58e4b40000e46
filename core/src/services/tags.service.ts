import type { ServiceSchema } from "moleculer";
import type { CoreDeps } from "../deps";

export function createTagsService(_deps: CoreDeps): ServiceSchema {
  return { name: "tags", settings: { rest: "/" }, actions: {} };
}
