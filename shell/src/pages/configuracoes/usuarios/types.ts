/** Users' profiles (super: the platform level). */
export type Profile = "user" | "supervisor" | "admin" | "super";

/** A user as GET /users answers it. */
export interface UserView {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  status: string;
  active: boolean;
  image: string | null;
  queues: number[];
  phoneNumber?: string | null;
  isMaster?: boolean;
  lastLoginAt?: string | null;
}

export interface UserList {
  users: UserView[];
  count: number;
  hasMore: boolean;
}

/** Spec §5: at least 8 characters, an upper-case letter, a lower-case letter and a digit; letters and digits only. */
export const STRONG_PASSWORD = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)[A-Za-z\d]{8,}$/;
