/** The API's contact (GET /contacts, GET /contacts/:id). */
export interface ContactTag {
  id: number;
  name: string;
  color: string;
}

export interface ContactNote {
  id: number;
  contactId: number;
  title: string;
  description: string;
  userId: number;
  createdAt: string;
}

export interface ContactView {
  id: number;
  name: string;
  firstName: string | null;
  lastName: string | null;
  businessName: string | null;
  document: string | null;
  birthday: string | null;
  gender: "male" | "female" | "non-binary" | null;
  maritalStatus: "single" | "married" | "divorced" | "widowed" | "other" | null;
  source: string | null;
  number: string | null;
  email: string | null;
  instagram: string | null;
  telegramId: string | null;
  website: string | null;
  category: string | null;
  state: string | null;
  additionalInfo: Array<{ description: string; info: string }>;
  whatsappValidated: boolean;
  profilePicUrl: string | null;
  tags: ContactTag[];
  wallet: number[];
  contactInfoHidden?: boolean;
  createdAt: string;
  updatedAt: string;
  notes?: ContactNote[];
}

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

export const GENDERS = ["male", "female", "non-binary"] as const;
export const MARITAL_STATUSES = ["single", "married", "divorced", "widowed", "other"] as const;
