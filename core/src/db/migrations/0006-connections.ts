import type { Migration } from "./types";

/** connections (connections service). */
export const m0006: Migration = {
  name: "0006-connections",
  async up() {
    /* tables arrive with their services */
  },
  async down() {
    /* nothing yet */
  },
};
