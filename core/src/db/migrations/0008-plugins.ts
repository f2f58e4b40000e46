import type { Migration } from "./types";

/** tenant_plugins: per-tenant enablement of plugins (plugins service). */
export const m0008: Migration = {
  name: "0008-plugins",
  async up() {
    /* tables arrive with their services */
  },
  async down() {
    /* nothing yet */
  },
};
