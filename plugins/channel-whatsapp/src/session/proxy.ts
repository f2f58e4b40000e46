/** The agent that sends a session's WebSocket and media requests through the connection's proxy. */
import type { Agent } from "node:https";

export function proxyAgent(url: string): Agent {
  const protocol = new URL(url).protocol;
  if (protocol.startsWith("socks")) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { SocksProxyAgent } = require("socks-proxy-agent") as typeof import("socks-proxy-agent");
    return new SocksProxyAgent(url) as unknown as Agent;
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { HttpsProxyAgent } = require("https-proxy-agent") as typeof import("https-proxy-agent");
  return new HttpsProxyAgent(url) as unknown as Agent;
}
