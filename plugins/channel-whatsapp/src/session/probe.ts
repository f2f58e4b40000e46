/** The contract's `test` for a connection with a proxy: the proxy answers a TCP connection (WhatsApp itself is only reached by linking). */
import * as net from "node:net";
import type { TestResult } from "@openatende/plugin-sdk";

export function probeProxy(proxyUrl: string, timeoutMs = 5000): Promise<TestResult> {
  const u = new URL(proxyUrl);
  const port = Number(u.port) || (u.protocol === "https:" ? 443 : u.protocol === "http:" ? 80 : 1080);
  const shown = `${u.protocol}//${u.hostname}:${port}`;
  return new Promise((resolve) => {
    const socket = net.connect({ host: u.hostname, port });
    const done = (r: TestResult) => {
      socket.destroy();
      resolve(r);
    };
    socket.setTimeout(timeoutMs, () => done({ ok: false, detail: `the proxy ${shown} did not answer within ${timeoutMs / 1000} s` }));
    socket.once("connect", () => done({ ok: true, detail: `the proxy ${shown} answers` }));
    socket.once("error", (err) => done({ ok: false, detail: `the proxy ${shown} cannot be reached: ${err.message}` }));
  });
}
