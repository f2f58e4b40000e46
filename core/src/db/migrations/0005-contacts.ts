import type { Migration } from "./types";

/** contacts, contact_identities, contact_tags, contact_wallets, contact_notes, tags, quick_messages (contacts, tags and quick-messages services). */
export const m0005: Migration = {
  name: "0005-contacts",
  async up() {
    /* tables arrive with their services */
  },
  async down() {
    /* nothing yet */
  },
};
