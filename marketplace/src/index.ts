/**
 * @openatende/marketplace: the plugin catalogue service (publishers, publishing, catalogue,
 * archives), a service package of the core: the application names it in its package.json
 * ("openatende.servicePackages") and the core runs it as the SERVICES group "marketplace",
 * with its migration after the core's. It builds on @openatende/core's public entry only.
 */
import type { ServicePackage } from "@openatende/core";
import { createMarketplaceService } from "./marketplace.service";
import { m0012Marketplace } from "./migrations/0012-marketplace";

export * from "./marketplace.service";
export * from "./models";

export const servicePackage: ServicePackage = {
  group: "marketplace",
  services: (deps) => [createMarketplaceService(deps)],
  migrations: [m0012Marketplace],
};
