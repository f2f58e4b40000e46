/**
 * Keyset pages of the core API (platform.contacts.byTags): each page starts after the last id
 * of the one before, so reading a large set costs the same per page however deep (no count, no
 * offset). How to extend: another keyset read answers KeysetPage of its own row type.
 */

/** A page: `nextAfterId` goes in the next call's `afterId`; null: this was the last page. */
export interface KeysetPage<T> {
  rows: T[];
  nextAfterId: number | null;
}

/** A contact as platform.contacts.byTags pages it: what a campaign links, nothing more. */
export interface PlatformTaggedContact {
  id: number;
  name: string;
  number: string | null;
}
