import nodemailer, { Transporter } from "nodemailer";
import type { ServiceSchema } from "moleculer";
import { AppError } from "../errors/app-error";
import type { Ctx } from "../types";
import { defineService } from "../bus/call";
import { getGlobal } from "../settings/contract";
import type { SmtpSettings } from "./contract";


/** Sends e-mail through the SMTP server of the global settings (nodemailer). */
export function createMailerService(): ServiceSchema {
  let transport: { key: string; t: Transporter } | undefined;

  function transportFor(s: SmtpSettings): Transporter {
    const key = JSON.stringify(s);
    if (transport?.key !== key) {
      transport?.t.close();
      transport = {
        key,
        t: nodemailer.createTransport({
          host: s.host,
          port: s.port,
          secure: !!s.secure,
          requireTLS: !!s.tls,
          auth: s.user ? { user: s.user, pass: s.password ?? "" } : undefined,
          connectionTimeout: 15000,
          greetingTimeout: 15000,
          socketTimeout: 30000,
          tls: { rejectUnauthorized: false },
        }),
      };
    }
    return transport.t;
  }

  return defineService({
    name: "mailer",
    events: {
      "settings.globalChanged"(ctx: Ctx<{ key: string }>) {
        if (ctx.params.key === "smtp" && transport) {
          transport.t.close();
          transport = undefined;
        }
      },
    },
    actions: {
      send: {
        visibility: "public",
        params: { to: "email", subject: "string", text: "string", html: { type: "string", optional: true } },
        async handler(ctx: Ctx<{ to: string; subject: string; text: string; html?: string }>) {
          const smtp = await getGlobal(ctx, "smtp");
          if (!smtp?.host) throw new AppError("ERR_MAIL_NOT_CONFIGURED");
          try {
            const info = await transportFor(smtp).sendMail({
              from: smtp.senderName ? { name: smtp.senderName, address: smtp.senderEmail } : smtp.senderEmail,
              to: ctx.params.to,
              subject: ctx.params.subject,
              text: ctx.params.text,
              html: ctx.params.html,
            });
            return { messageId: info.messageId };
          } catch (err) {
            this.logger.warn(`mail to ${ctx.params.to} failed: ${(err as Error).message}`);
            throw new AppError("ERR_MAIL_SEND_FAILED", { reason: (err as Error).message });
          }
        },
      },
    },
    stopped() {
      transport?.t.close();
    },
  });
}
