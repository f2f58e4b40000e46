import type { Migration } from "./types";

/** connections and tenant_plugins (connections and plugins services). */
export const m0006: Migration = {
  name: "0006-connections-plugins",
  async up() {
    /* tables arrive with their services */
  },
  async down() {
    /* nothing yet */
  },
};
