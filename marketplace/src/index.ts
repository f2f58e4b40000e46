/** @openatende/marketplace: the plugin catalogue service (publishers, publishing, catalogue, archives). */
export * from "./marketplace.service";
export * from "./models";
