/**
 * The contract's `test` for a connection with a proxy: the proxy answers a TCP connection
 * (WhatsApp itself is only reached by linking). The proxy is the tenant's: it is reached only
 * under the platform's outbound URL policy, at the address the policy checked.
 */
import * as net from "node:net";
import { checkOutboundHost, OutboundUrlError, type OutboundPolicy, type TestResult } from "@openatende/plugin-sdk";

export async function probeProxy(proxyUrl: string, policy: OutboundPolicy, timeoutMs = 5000): Promise<TestResult> {
  const u = new URL(proxyUrl);
  const port = Number(u.port) || (u.protocol === "https:" ? 443 : u.protocol === "http:" ? 80 : 1080);
  const shown = `${u.protocol}//${u.hostname}:${port}`;
  const checked = await checkOutboundHost(u.hostname, policy);
  // A name that does not resolve is left to the connection, whose error says so.
  if (!checked.ok && checked.reason !== "unresolvable") return { ok: false, detail: new OutboundUrlError(checked, `The proxy ${shown}`).message };
  const host = checked.ok ? checked.address : u.hostname;
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (r: TestResult) => {
      socket.destroy();
      resolve(r);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, detail: `the proxy ${shown} did not answer within ${timeoutMs / 1000} s` }));
    socket.once("connect", () => done({ ok: true, detail: `the proxy ${shown} answers` }));
    socket.once("error", (err) => done({ ok: false, detail: `the proxy ${shown} cannot be reached: ${err.message}` }));
  });
}
