/** Actions of the auth service other services call (sessions end through them). */
export interface AuthActions {
  "auth.sessionState": { params: { sessionId: string }; result: { active: boolean; code?: string } };
  "auth.revokeSession": { params: { sessionId: string; reason: string }; result: { revoked: number } };
  "auth.revokeUserSessions": { params: { userId: number; reason: string; exceptSessionId?: string }; result: { revoked: number } };
  "auth.revokeTenantSessions": { params: { tenantId: number; reason: string }; result: { revoked: number } };
}

export interface AuthEvents {
  /** Broadcast: sessions that ended (the gateways' sockets of them are closed). */
  "auth.sessionEnded": { sessionIds: string[] };
}
