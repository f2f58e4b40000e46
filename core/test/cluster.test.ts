/**
 * Cluster mode: two node processes over the machine's real nats-server. The gateway node
 * runs only the API; the core node runs the services and the database. A login through the
 * gateway has to cross the transporter to reach auth, users and tenants.
 */
import { spawn, ChildProcess } from "node:child_process";
import * as path from "node:path";
import * as os from "node:os";
import * as fs from "node:fs";
import { pathToFileURL } from "node:url";
import { childEnv } from "@openatende/config";
import { io as ioClient } from "socket.io-client";
import { dropDatabase, uid, ApiClient } from "./helpers";

const root = path.resolve(__dirname, "../..");
const tsx = pathToFileURL(require.resolve("tsx", { paths: [root] })).href;

interface Node {
  proc: ChildProcess;
  output: string[];
  ready: Promise<string>;
}

function startNode(env: Record<string, string>, readyPattern: RegExp): Node {
  const proc = spawn(process.execPath, ["--import", tsx, path.join(root, "core/src/bin/start.ts")], {
    cwd: root,
    env: childEnv(env),
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  const ready = new Promise<string>((resolve, reject) => {
    const onData = (b: Buffer) => {
      const s = b.toString();
      output.push(s);
      const m = output.join("").match(readyPattern);
      if (m) resolve(m[1] ?? m[0]);
    };
    proc.stdout!.on("data", onData);
    proc.stderr!.on("data", onData);
    proc.on("exit", (code) => reject(new Error(`node exited with ${code}:\n${output.join("")}`)));
    setTimeout(() => reject(new Error(`node not ready in 60 s:\n${output.join("")}`)), 60_000);
  });
  return { proc, output, ready };
}

function stopNode(n: Node | undefined): Promise<void> {
  if (!n || n.proc.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    n.proc.once("exit", () => resolve());
    n.proc.kill("SIGTERM");
    setTimeout(() => n.proc.kill("SIGKILL"), 10_000);
  });
}

describe("cluster mode over NATS", () => {
  const tag = uid();
  const db = `oa_cluster_${tag}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-cluster-"));
  const common = {
    TRANSPORTER: "nats://127.0.0.1:4222",
    NAMESPACE: `test-${tag}`,
    DATABASE_URL: `mysql://root@127.0.0.1:3306/${db}`,
    REDIS_URL: "redis://127.0.0.1:6379",
    JWT_SECRET: "cluster-secret-cluster-secret-cluster-secret",
    DATA_DIR: dataDir,
    SEED_ADMIN_PASSWORD: "Cluster123",
    BCRYPT_ROUNDS: "4",
    LOG_LEVEL: "info",
  };
  let coreNode: Node | undefined;
  let apiNode: Node | undefined;
  let apiNode2: Node | undefined;

  afterAll(async () => {
    await Promise.all([stopNode(apiNode), stopNode(apiNode2), stopNode(coreNode)]);
    await dropDatabase(db);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("a login through the gateway node is served by the core node", async () => {
    coreNode = startNode({ ...common, NODE_ID: `core-${tag}`, SERVICES: "core,plugins", SEED: "true" }, /node core-\S+ running services/);
    await coreNode.ready;
    apiNode = startNode({ ...common, NODE_ID: `api-${tag}`, SERVICES: "api", PORT: "0", HOST: "127.0.0.1" }, /Open (\S+)\/ \(API at/);
    const url = await apiNode.ready;
    const api = new ApiClient(url);

    // The gateway learns the core node's services through NATS discovery.
    let login = await api.post("/auth/login", { email: "admin@demo.com", password: "Cluster123" });
    for (let i = 0; i < 100 && login.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      login = await api.post("/auth/login", { email: "admin@demo.com", password: "Cluster123" });
    }
    expect(login.status).toBe(200);
    expect(login.body.profile).toBe("admin");

    const auth = { token: login.body.token, sessionId: login.body.sessionId, userId: login.body.userId, tenantId: login.body.tenantId };
    const health = await api.get("/health");
    expect(health.status).toBe(200);
    expect(health.body.nodeID).toBe(`core-${tag}`); // answered across the transporter
    expect(health.body.mode).toBe("cluster");

    const users = await api.get("/users", auth);
    expect(users.status).toBe(200);
    expect(users.body.users.map((u: { email: string }) => u.email)).toContain("agent@demo.com");

    // Access rules and errors survive the hop: an agent is refused an admin route.
    const agent = await api.post("/auth/login", { email: "agent@demo.com", password: "Cluster123" });
    const refused = await api.post("/queues", { name: "X" }, { token: agent.body.token, sessionId: agent.body.sessionId, userId: 0, tenantId: 0 });
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("ERR_NO_PERMISSION");

    // A session ended on the core node is refused by the gateway node (revocation is broadcast).
    const again = await api.post("/auth/login", { email: "admin@demo.com", password: "Cluster123" });
    expect(again.status).toBe(200);
    const stale = await api.get("/users", auth);
    expect(stale.status).toBe(401);
    expect(stale.body.error).toBe("ERR_SESSION_EXPIRED_LOGGED_ELSEWHERE");
  }, 120_000);

  it("two gateway nodes share socket rooms through the Redis adapter", async () => {
    apiNode2 = startNode({ ...common, NODE_ID: `api2-${tag}`, SERVICES: "api", PORT: "0", HOST: "127.0.0.1" }, /Open (\S+)\/ \(API at/);
    const url2 = await apiNode2.ready;
    const url1 = await apiNode!.ready;
    const api1 = new ApiClient(url1);
    const api2 = new ApiClient(url2);
    let login = await api2.post("/auth/login", { email: "admin@demo.com", password: "Cluster123" });
    for (let i = 0; i < 100 && login.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 200));
      login = await api2.post("/auth/login", { email: "admin@demo.com", password: "Cluster123" });
    }
    expect(login.status).toBe(200);
    const admin = { token: login.body.token, sessionId: login.body.sessionId, userId: login.body.userId, tenantId: login.body.tenantId };
    // The agent's socket lives on gateway 2 ...
    const events: Array<{ event: string; payload: any }> = [];
    const socket = ioClient(url2, { path: "/socket.io", transports: ["websocket"], auth: { token: admin.token, sessionId: admin.sessionId }, reconnection: false });
    socket.onAny((event, payload) => events.push({ event, payload }));
    await new Promise((resolve, reject) => {
      socket.on("ready", resolve);
      socket.on("connect_error", reject);
    });
    try {
      // ... while the visitor talks to gateway 1.
      const conn = await api2.post("/connections", { name: `Site ${tag}`, type: "channel-webchat" }, admin);
      expect(conn.status).toBe(201);
      let session = await api1.post(`/webchat/${conn.body.token}/session`, {});
      for (let i = 0; i < 50 && session.status !== 200; i++) {
        await new Promise((r) => setTimeout(r, 200));
        session = await api1.post(`/webchat/${conn.body.token}/session`, {});
      }
      expect(session.status).toBe(200);
      // Each push is taken by one of the two gateways (a balanced event): without the adapter
      // about half of them would never reach a socket held by the other node.
      for (let i = 0; i < 8; i++) {
        const sent = await api1.post(`/webchat/${conn.body.token}/messages`, { visitorId: session.body.visitorId, body: `olá do nó 1 (${i})`, clientMessageId: `m${i}` });
        expect(sent.status).toBe(201);
      }
      const t0 = Date.now();
      const got = () => events.filter((e) => e.event === `${admin.tenantId}:appMessage` && e.payload?.action === "create").length;
      while (got() < 8 && Date.now() - t0 < 10_000) await new Promise((r) => setTimeout(r, 50));
      expect(got()).toBe(8);
      expect(events.find((e) => e.payload?.type === "chat:create")?.payload.payload.body).toBe("olá do nó 1 (0)");
    } finally {
      socket.disconnect();
    }
  }, 120_000);
});
