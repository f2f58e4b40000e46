/** Groups of a WhatsApp session: metadata cache, new groups, join requests. */
export { GroupDirectory, type GroupDirectoryOptions, type GroupMember, type ParticipantsEvent } from "./directory";
export { createGroup, checkNewGroup, imageKindOf, GROUP_NAME_MAX, GROUP_PARTICIPANTS_MAX, GROUP_PICTURE_MAX_BYTES, type NewGroup, type CreatedGroup } from "./create";
export { listJoinRequests, answerJoinRequests, type JoinRequest, type JoinRequestResult } from "./requests";
