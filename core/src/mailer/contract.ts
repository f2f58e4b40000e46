/** Actions of the mailer service other services call. */
export interface MailerActions {
  "mailer.send": { params: { to: string; subject: string; text: string; html?: string }; result: { messageId: string } };
}

/** The platform's SMTP settings (global setting "smtp"). */
export interface SmtpSettings {
  host: string;
  port: number;
  secure?: boolean;
  tls?: boolean;
  user?: string;
  password?: string;
  senderName?: string;
  senderEmail: string;
}
