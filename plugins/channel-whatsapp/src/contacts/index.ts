/** Contacts of a WhatsApp session: profile pictures, "WhatsApp-validated" numbers, contact sync. */
export { ProfilePictures, type ProfilePicturesOptions } from "./avatars";
export { checkNumber, validatedContact, type CheckedNumber } from "./validate";
export { contactUpdates, historyContactUpdates, type ContactSync, type ContactSyncOptions } from "./sync";
