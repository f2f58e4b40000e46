/**
 * The tenant's IMAP and SMTP servers under the platform's outbound URL policy (the SDK's): a
 * host that is, or resolves to, a loopback, private or link-local address is refused unless the
 * platform's allow-list names it. Checked at each connection, and the connection goes to the
 * very address checked (TLS still presents and verifies the host's name: `servername`), so a
 * DNS answer that changes after the check is never used.
 */
import { checkOutboundHost, OutboundUrlError, type OutboundPolicy } from "@openatende/plugin-sdk";

/** Host options for imapflow and nodemailer: the checked address, with the name for TLS. */
export type ServerTarget = { host: string; servername?: string };

/**
 * Where to connect for `host`. A name that does not resolve is left to the client, whose own
 * error says so (ERR_EMAIL_HOST_NOT_FOUND); a refused one throws OutboundUrlError.
 */
export async function serverTarget(host: string, policy: OutboundPolicy): Promise<ServerTarget> {
  const checked = await checkOutboundHost(host, policy);
  if (!checked.ok) {
    if (checked.reason === "unresolvable") return { host };
    throw new OutboundUrlError(checked, "The mail server");
  }
  return checked.address === host ? { host } : { host: checked.address, servername: host };
}
