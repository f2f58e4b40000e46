/** Actions of the mailer service other services call. */
export interface MailerActions {
  "mailer.send": { params: { to: string; subject: string; text: string; html?: string }; result: { messageId: string } };
}
