import type { ContactTagRef, ContactView as ContactWire } from "@openatende/contracts/contact-fields";

export type ContactTag = ContactTagRef;

export interface ContactNote {
  id: number;
  contactId: number;
  title: string;
  description: string;
  userId: number;
  createdAt: string;
}

/** The API's contact, from the contact field table; GET /contacts/:id adds its notes. */
export type ContactView = ContactWire & { notes?: ContactNote[] };

export interface ContactPage {
  contacts: ContactView[];
  hasMore: boolean;
  pageNumber: number;
  pageSize: number;
}

export interface TagOption {
  id: number;
  name: string;
  color: string;
  active: boolean;
}

export interface UserOption {
  id: number;
  name: string;
  email: string;
  active: boolean;
  image?: string | null;
}

export { GENDERS, MARITAL_STATUSES } from "@openatende/contracts/contact-fields";
