/**
 * Users toggle themselves online or offline (spec §4; PUT /users/{id}/status): only their
 * own status, another tenant's user is 404, the tenant's sockets hear it (supervisors see
 * the team change), another tenant's never do; a login makes a user online and a logout
 * offline. Real MariaDB, Redis and socket.io.
 */
import { io as ioClient, Socket } from "socket.io-client";
import { startCore, createTenant, TestCore, TenantFixture, Auth } from "./helpers";

type Ev = { event: string; payload: any };

function socketOf(t: TestCore, who: Auth): Promise<{ socket: Socket; events: Ev[] }> {
  const events: Ev[] = [];
  const socket = ioClient(t.url, { path: "/socket.io", transports: ["websocket"], auth: { token: who.token, sessionId: who.sessionId }, reconnection: false, forceNew: true });
  socket.onAny((event, payload) => events.push({ event, payload }));
  return new Promise((resolve, reject) => {
    socket.on("ready", () => resolve({ socket, events }));
    socket.on("connect_error", reject);
  });
}

const waitFor = async (cond: () => boolean, ms = 5000) => {
  const t0 = Date.now();
  while (!cond()) {
    if (Date.now() - t0 > ms) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 25));
  }
};

describe("users online / offline (MariaDB)", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t);
    other = await createTenant(t);
  });
  afterAll(async () => {
    for (const s of sockets) s.close();
    await t?.stop();
  });

  const statusOf = async (id: number, who: Auth) => (await t.api.get(`/users/${id}`, who)).body.status as string;

  it("a logged-in user is online; they go offline and back, and the tenant's supervisors hear it live (another tenant does not)", async () => {
    expect(await statusOf(f.agent.userId, f.admin)).toBe("online");
    const sup = await socketOf(t, f.supervisor);
    const foreign = await socketOf(t, other.admin);
    sockets.push(sup.socket, foreign.socket);

    const off = await t.api.put(`/users/${f.agent.userId}/status`, { status: "offline" }, f.agent);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ id: f.agent.userId, status: "offline" });
    expect(await statusOf(f.agent.userId, f.admin)).toBe("offline");
    // The team list shows it too.
    const team = (await t.api.get("/users", f.supervisor)).body.users as Array<{ id: number; status: string }>;
    expect(team.find((u) => u.id === f.agent.userId)?.status).toBe("offline");
    const heard = (status: string) => sup.events.some((e) => e.event === `${f.tenantId}:userStatus` && e.payload.id === f.agent.userId && e.payload.status === status);
    await waitFor(() => heard("offline"));

    expect((await t.api.put(`/users/${f.agent.userId}/status`, { status: "online" }, f.agent)).status).toBe(200);
    await waitFor(() => heard("online"));
    expect(await statusOf(f.agent.userId, f.admin)).toBe("online");

    // The other tenant hears its own users only: once its agent's change has arrived, ours never did.
    expect((await t.api.put(`/users/${other.agent.userId}/status`, { status: "offline" }, other.agent)).status).toBe(200);
    await waitFor(() => foreign.events.some((e) => e.event === `${other.tenantId}:userStatus` && e.payload.id === other.agent.userId));
    expect(foreign.events.filter((e) => /userStatus/.test(e.event) && e.payload.id === f.agent.userId)).toEqual([]);
  });

  it("nobody switches someone else, not even an admin (403); another tenant's user is 404; a bad status is refused", async () => {
    const byAdmin = await t.api.put(`/users/${f.agent.userId}/status`, { status: "offline" }, f.admin);
    expect({ status: byAdmin.status, error: byAdmin.body.error }).toEqual({ status: 403, error: "ERR_NO_PERMISSION" });
    const byPeer = await t.api.put(`/users/${f.supervisor.userId}/status`, { status: "offline" }, f.agent);
    expect({ status: byPeer.status, error: byPeer.body.error }).toEqual({ status: 403, error: "ERR_NO_PERMISSION" });
    const cross = await t.api.put(`/users/${other.admin.userId}/status`, { status: "offline" }, f.admin);
    expect({ status: cross.status, error: cross.body.error }).toEqual({ status: 404, error: "ERR_USER_NOT_FOUND" });
    expect(await statusOf(other.admin.userId, other.admin)).toBe("online");
    expect(await statusOf(f.supervisor.userId, f.admin)).toBe("online");
    const bad = await t.api.put(`/users/${f.agent.userId}/status`, { status: "away" }, f.agent);
    expect({ status: bad.status, error: bad.body.error }).toEqual({ status: 400, error: "ERR_VALIDATION" });
    expect((await t.api.put(`/users/${f.agent.userId}/status`, {}, f.agent)).status).toBe(400);
  });

  it("a logout makes the user offline, and the next login online again", async () => {
    const agent = await t.api.login(f.emails.agent);
    const sup = await socketOf(t, f.supervisor);
    sockets.push(sup.socket);
    expect((await t.api.post("/auth/logout", {}, agent)).status).toBe(200);
    expect(await statusOf(f.agent.userId, f.admin)).toBe("offline");
    await waitFor(() => sup.events.some((e) => e.event === `${f.tenantId}:userStatus` && e.payload.id === f.agent.userId && e.payload.status === "offline"));
    await t.api.login(f.emails.agent);
    expect(await statusOf(f.agent.userId, f.admin)).toBe("online");
  });

  it("GET /users/chat-interno lists the tenant's active users with their status for any user, never another tenant's", async () => {
    // The test before logged the agent out and in again: its first session ended.
    const agent = await t.api.login(f.emails.agent);
    const r = await t.api.get("/users/chat-interno", agent);
    expect(r.status).toBe(200);
    const ids = (r.body.users as Array<{ id: number }>).map((u) => u.id).sort((x, y) => x - y);
    expect(ids).toEqual([f.admin.userId, f.supervisor.userId, f.agent.userId].sort((x, y) => x - y));
    expect(r.body.users.find((u: { id: number }) => u.id === f.supervisor.userId)).toEqual({ id: f.supervisor.userId, name: expect.any(String), profile: "supervisor", status: expect.stringMatching(/^(online|offline)$/), image: null });
    expect(JSON.stringify(r.body)).not.toMatch(/email|phoneNumber/);
    expect((await t.api.get("/users/chat-interno")).status).toBe(401);
  });
});
