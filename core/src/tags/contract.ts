/** What other services may know of a tag: its view, as tags.byIds answers it. */
export type TagView = { id: number; name: string; color: string; active: boolean; createdAt?: Date; updatedAt?: Date };

/** Actions of the tags service other services call. */
export interface TagsActions {
  "tags.byIds": { params: { tenantId: number; ids: number[] }; result: TagView[] };
  /** The tenant's tags, by name. */
  "tags.listInternal": { params: { tenantId: number }; result: TagView[] };
  /** Ids by lower-cased name, the missing tags created. */
  "tags.ensureByNames": { params: { tenantId: number; names: string[] }; result: Record<string, number> };
}

export interface TagsEvents {
  "tags.changed": { tenantId: number; tagId: number };
}
