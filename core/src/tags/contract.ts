/** What other services may know of a tag: its view, as tags.byIds answers it. */
export type TagView = { id: number; name: string; color: string; active: boolean; createdAt?: Date; updatedAt?: Date };
