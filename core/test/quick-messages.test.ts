import { startCore, createTenant, TestCore, TenantFixture, Res, PASSWORD, uid } from "./helpers";

/** Status and `error` code of the API's error body `{ error, message, title, data }`. */
function expectError(r: Res, status: number, code: string) {
  expect({ status: r.status, error: r.body?.error }).toEqual({ status, error: code });
  expect(typeof r.body.message).toBe("string");
  expect(typeof r.body.title).toBe("string");
  expect(r.body.data).toEqual(expect.any(Object));
}

type QmView = { id: number; key: string; message: string; scope: string; queueIds: number[]; userId: number; editable: boolean };
const keys = (r: Res) => (r.body as QmView[]).map((q) => q.key).sort();

describe("quick messages on mariadb", () => {
  let t: TestCore;
  let f: TenantFixture;
  let other: TenantFixture;
  beforeAll(async () => {
    t = await startCore();
    f = await createTenant(t, { tier: "PLUS" });
    other = await createTenant(t, { tier: "PLUS" });
  });
  afterAll(async () => {
    await t?.stop();
  });

  describe("scopes and permissions", () => {
    let g: TenantFixture;
    let ids: Record<string, number>;
    beforeAll(async () => {
      // The agent and the supervisor are in queue 0 only; the admin is in both.
      g = await createTenant(t, { tier: "PLUS" });
      const mk = async (body: Record<string, unknown>, who = g.admin) => {
        const r = await t.api.post("/quick-messages", body, who);
        if (r.status !== 201) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
        return r.body.id as number;
      };
      ids = {
        global: await mk({ key: "/bomdia", message: "Bom dia! Como posso ajudar?", scope: "global" }),
        queue0: await mk({ key: "suporte", message: "Abra um chamado em …", scope: "queue", queueIds: [g.queueIds[0]] }),
        queue1: await mk({ key: "vendas", message: "Nossa tabela de preços …", scope: "queue", queueIds: [g.queueIds[1]] }),
        adminPersonal: await mk({ key: "assinatura", message: "— Admin" }),
        agentPersonal: await mk({ key: "/Minha", message: "— Agente" }, g.agent),
        legacyGlobal: await mk({ key: "obrigado", message: "Obrigado!", global: true }),
      };
    });

    it("stores the key without the slash, lower-case; answers scope, queues and owner", async () => {
      const r = await t.api.get(`/quick-messages/${ids.agentPersonal}`, g.agent);
      expect(r.body).toMatchObject({ key: "minha", shortcut: "/minha", message: "— Agente", scope: "personal", queueIds: [], userId: g.agent.userId });
      const q = await t.api.get(`/quick-messages/${ids.queue0}`, g.admin);
      expect(q.body).toMatchObject({ key: "suporte", scope: "queue", queueIds: [g.queueIds[0]], global: false });
      expect((await t.api.get(`/quick-messages/${ids.legacyGlobal}`, g.agent)).body).toMatchObject({ scope: "global", global: true });
    });

    it("each caller lists what they may use: global, their queues' and their own personal ones", async () => {
      expect(keys(await t.api.get("/quick-messages", g.agent))).toEqual(["bomdia", "minha", "obrigado", "suporte"]);
      expect(keys(await t.api.get("/quick-messages", g.supervisor))).toEqual(["bomdia", "obrigado", "suporte"]);
      expect(keys(await t.api.get("/quick-messages", g.admin))).toEqual(["assinatura", "bomdia", "obrigado", "suporte", "vendas"]);
      expect(keys(await t.api.get("/quick-messages?scope=global", g.agent))).toEqual(["bomdia", "obrigado"]);
      expect(keys(await t.api.get("/quick-messages?searchParam=/bo", g.agent))).toEqual(["bomdia"]);
    });

    it("admins may list every global and queue message to manage them (not other users' personal ones)", async () => {
      const mgr = await t.api.get("/quick-messages?all=true", g.admin);
      expect(keys(mgr)).toEqual(["assinatura", "bomdia", "obrigado", "suporte", "vendas"]);
      // For a non-admin the flag changes nothing.
      expect(keys(await t.api.get("/quick-messages?all=true", g.agent))).toEqual(["bomdia", "minha", "obrigado", "suporte"]);
    });

    it("each message says whether the caller may change it: a user their personal ones, an admin also the global and queue ones", async () => {
      const editable = (r: Res) => Object.fromEntries((r.body as QmView[]).map((q) => [q.key, q.editable]));
      expect(editable(await t.api.get("/quick-messages", g.agent))).toEqual({ bomdia: false, minha: true, obrigado: false, suporte: false });
      expect(editable(await t.api.get("/quick-messages?all=true", g.admin))).toEqual({ assinatura: true, bomdia: true, obrigado: true, suporte: true, vendas: true });
      expect((await t.api.get(`/quick-messages/${ids.global}`, g.supervisor)).body.editable).toBe(false);
      const created = await t.api.post("/quick-messages", { key: `ed${uid()}`, message: "x" }, g.supervisor);
      expect(created.body).toMatchObject({ scope: "personal", editable: true });
      expect((await t.api.put(`/quick-messages/${created.body.id}`, { message: "y" }, g.supervisor)).body.editable).toBe(true);
    });

    it("only admins create global and queue-scoped messages (403 ERR_NO_PERMISSION)", async () => {
      for (const who of [g.agent, g.supervisor]) {
        expectError(await t.api.post("/quick-messages", { key: `g${uid()}`, message: "x", scope: "global" }, who), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.post("/quick-messages", { key: `g${uid()}`, message: "x", global: true }, who), 403, "ERR_NO_PERMISSION");
        expectError(
          await t.api.post("/quick-messages", { key: `q${uid()}`, message: "x", scope: "queue", queueIds: [g.queueIds[0]] }, who),
          403,
          "ERR_NO_PERMISSION",
        );
      }
      expect((await t.api.post("/quick-messages", { key: `p${uid()}`, message: "mine" }, g.supervisor)).status).toBe(201);
    });

    it("a user edits and deletes only their own personal messages", async () => {
      const mine = await t.api.post("/quick-messages", { key: `edit${uid()}`, message: "v1" }, g.agent);
      const u = await t.api.put(`/quick-messages/${mine.body.id}`, { message: "v2", key: "/editado" }, g.agent);
      expect(u.status).toBe(200);
      expect(u.body).toMatchObject({ key: "editado", message: "v2", scope: "personal" });
      // Making it global is an admin's decision.
      expectError(await t.api.put(`/quick-messages/${mine.body.id}`, { scope: "global" }, g.agent), 403, "ERR_NO_PERMISSION");
      // Queues given to a personal message make it queue-scoped: an admin's decision too, and it stays personal.
      expectError(await t.api.put(`/quick-messages/${mine.body.id}`, { queueIds: [g.queueIds[0]] }, g.agent), 403, "ERR_NO_PERMISSION");
      expect((await t.api.get(`/quick-messages/${mine.body.id}`, g.agent)).body).toMatchObject({ scope: "personal", queueIds: [] });
      // Global and queue messages: 403 for non-admins.
      for (const id of [ids.global, ids.queue0]) {
        expectError(await t.api.put(`/quick-messages/${id}`, { message: "hacked" }, g.agent), 403, "ERR_NO_PERMISSION");
        expectError(await t.api.del(`/quick-messages/${id}`, g.supervisor), 403, "ERR_NO_PERMISSION");
      }
      // Someone else's personal message, or a queue message of a queue the agent is not in, does not exist for them.
      for (const id of [ids.adminPersonal, ids.queue1]) {
        expectError(await t.api.get(`/quick-messages/${id}`, g.agent), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
        expectError(await t.api.put(`/quick-messages/${id}`, { message: "x" }, g.agent), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
        expectError(await t.api.del(`/quick-messages/${id}`, g.agent), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      }
      expectError(await t.api.get(`/quick-messages/${ids.agentPersonal}`, g.admin), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      expect((await t.api.del(`/quick-messages/${mine.body.id}`, g.agent)).status).toBe(200);
      expectError(await t.api.get(`/quick-messages/${mine.body.id}`, g.agent), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      expect((await t.api.get(`/quick-messages/${ids.global}`, g.agent)).body.message).toBe("Bom dia! Como posso ajudar?");
    });

    it("an admin changes a message's scope and queues", async () => {
      const c = await t.api.post("/quick-messages", { key: `scope${uid()}`, message: "m", scope: "global" }, g.admin);
      const q = await t.api.put(`/quick-messages/${c.body.id}`, { scope: "queue", queueIds: [g.queueIds[1]] }, g.admin);
      expect(q.body).toMatchObject({ scope: "queue", queueIds: [g.queueIds[1]] });
      expectError(await t.api.get(`/quick-messages/${c.body.id}`, g.agent), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      const both = await t.api.put(`/quick-messages/${c.body.id}`, { queueIds: [g.queueIds[0], g.queueIds[1]] }, g.admin);
      expect(both.body.queueIds).toEqual([...g.queueIds].sort((a, b) => a - b));
      expect((await t.api.get(`/quick-messages/${c.body.id}`, g.agent)).status).toBe(200);
      const back = await t.api.put(`/quick-messages/${c.body.id}`, { scope: "global" }, g.admin);
      expect(back.body).toMatchObject({ scope: "global", queueIds: [] });
      // Queues alone make it queue-scoped, as on create.
      const again = await t.api.put(`/quick-messages/${c.body.id}`, { queueIds: [g.queueIds[0]] }, g.admin);
      expect(again.body).toMatchObject({ scope: "queue", queueIds: [g.queueIds[0]] });
    });

    it("queue scope needs queues of the tenant", async () => {
      const none = await t.api.post("/quick-messages", { key: `q${uid()}`, message: "x", scope: "queue" }, g.admin);
      expectError(none, 400, "ERR_VALIDATION");
      expect(none.body.data.field).toBe("queueIds");
      const foreign = await t.api.post("/quick-messages", { key: `q${uid()}`, message: "x", scope: "queue", queueIds: [other.queueIds[0]] }, g.admin);
      expectError(foreign, 404, "ERR_QUEUE_NOT_FOUND");
      expect(foreign.body.data.ids).toEqual([other.queueIds[0]]);
    });

    it("a deleted queue leaves no links behind", async () => {
      const q = await t.api.post("/queues", { name: `Temp ${uid()}` }, g.admin);
      const m = await t.api.post("/quick-messages", { key: `tmp${uid()}`, message: "x", scope: "queue", queueIds: [q.body.id, g.queueIds[0]] }, g.admin);
      expect((await t.api.del(`/queues/${q.body.id}`, g.admin)).status).toBe(200);
      let view: QmView | undefined;
      for (let i = 0; i < 20; i++) {
        view = (await t.api.get(`/quick-messages/${m.body.id}`, g.admin)).body;
        if (view!.queueIds.length === 1) break;
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(view!.queueIds).toEqual([g.queueIds[0]]);
    });
  });

  describe("keys", () => {
    it("a duplicate key in the same scope answers 409 ERR_QUICK_MESSAGE_EXISTS; other scopes and users may reuse it", async () => {
      const key = `dup${uid()}`;
      expect((await t.api.post("/quick-messages", { key, message: "g", scope: "global" }, f.admin)).status).toBe(201);
      for (const k of [key, `/${key.toUpperCase()}`, ` /${key} `]) {
        const r = await t.api.post("/quick-messages", { key: k, message: "again", scope: "global" }, f.admin);
        expectError(r, 409, "ERR_QUICK_MESSAGE_EXISTS");
        expect(r.body.data.field).toBe("key");
      }
      // Personal ones of two users, and a queue one, may share the key with the global one.
      expect((await t.api.post("/quick-messages", { key, message: "agent's" }, f.agent)).status).toBe(201);
      expect((await t.api.post("/quick-messages", { key, message: "supervisor's" }, f.supervisor)).status).toBe(201);
      expect((await t.api.post("/quick-messages", { key, message: "queue's", scope: "queue", queueIds: [f.queueIds[0]] }, f.admin)).status).toBe(201);
      expectError(await t.api.post("/quick-messages", { key, message: "twice" }, f.agent), 409, "ERR_QUICK_MESSAGE_EXISTS");
      // Renaming onto a taken key too.
      const x = await t.api.post("/quick-messages", { key: `x${uid()}`, message: "x" }, f.agent);
      expectError(await t.api.put(`/quick-messages/${x.body.id}`, { key }, f.agent), 409, "ERR_QUICK_MESSAGE_EXISTS");
      // Another tenant may use it.
      expect((await t.api.post("/quick-messages", { key, message: "elsewhere", scope: "global" }, other.admin)).status).toBe(201);
    });

    it("refuses empty or spaced keys and empty messages with ERR_VALIDATION", async () => {
      for (const [body, field] of [
        [{ key: "/", message: "x" }, "key"],
        [{ key: "two words", message: "x" }, "key"],
        [{ key: "", message: "x" }, "key"],
        [{ key: "ok", message: "" }, "message"],
        [{ message: "x" }, "key"],
      ] as const) {
        const r = await t.api.post("/quick-messages", body, f.agent);
        expectError(r, 400, "ERR_VALIDATION");
        expect({ body, field: r.body.data.field }).toEqual({ body, field });
      }
    });
  });

  describe("resolve", () => {
    let r: TenantFixture;
    beforeAll(async () => {
      r = await createTenant(t, { tier: "PLUS" });
      for (const [key, scope] of [
        ["ola", "global"],
        ["olamundo", "global"],
        ["obrigado", "global"],
        ["obrigadoevolte", "global"],
        ["pix", "global"],
        ["preco", "queue"],
      ] as const) {
        const body = { key, message: `msg ${key} ${scope}`, scope, ...(scope === "queue" ? { queueIds: [r.queueIds[0]] } : {}) };
        expect((await t.api.post("/quick-messages", body, r.admin)).status).toBe(201);
      }
      expect((await t.api.post("/quick-messages", { key: "pix", message: "msg pix personal" }, r.agent)).status).toBe(201);
    });
    const resolve = (key: string, who = () => r.agent) => t.api.get(`/quick-messages/resolve?key=${encodeURIComponent(key)}`, who());

    it("the exact key wins over longer keys", async () => {
      const x = await resolve("/ola");
      expect(x.status).toBe(200);
      expect(x.body).toMatchObject({ key: "ola", message: "msg ola global" });
      expect((await resolve("/OBRIGADO")).body.key).toBe("obrigado");
    });

    it("a unique prefix resolves to its message", async () => {
      expect((await resolve("/olam")).body.key).toBe("olamundo");
      expect((await resolve("/obrigadoe")).body.key).toBe("obrigadoevolte");
      expect((await resolve("pr")).body).toMatchObject({ key: "preco", scope: "queue" });
    });

    it("several matches answer 409 ERR_QUICK_MESSAGE_AMBIGUOUS with the candidate keys", async () => {
      const x = await resolve("/o");
      expectError(x, 409, "ERR_QUICK_MESSAGE_AMBIGUOUS");
      expect(x.body.data.candidates).toEqual(["/obrigado", "/obrigadoevolte", "/ola", "/olamundo"]);
      expect(x.body.data.count).toBe(4);
      expect((await resolve("/p")).body.data.candidates).toEqual(["/pix", "/preco"]);
    });

    it("no match answers 404 ERR_QUICK_MESSAGE_NOT_FOUND", async () => {
      expectError(await resolve("/nada"), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      expectError(await resolve("/"), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      // Queue messages of another queue are not the caller's.
      const outsider = await t.api.post(
        "/users",
        { name: "Outsider", email: `out-${uid()}@t.test`, password: PASSWORD, queues: [r.queueIds[1]] },
        r.admin,
      );
      expect(outsider.status).toBe(201);
      const auth = await t.api.login(outsider.body.email);
      expectError(await resolve("/preco", () => auth), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
    });

    it("the caller's personal message wins over a global one with the same key", async () => {
      expect((await resolve("/pix")).body).toMatchObject({ scope: "personal", message: "msg pix personal" });
      expect((await resolve("/pix", () => r.supervisor)).body).toMatchObject({ scope: "global", message: "msg pix global" });
    });

    it("another tenant resolves nothing of this one", async () => {
      expectError(await resolve("/olamundo", () => other.agent), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
    });
  });

  it("tenant B never sees tenant A's quick messages", async () => {
    const m = await t.api.post("/quick-messages", { key: `secret${uid()}`, message: "A only", scope: "global" }, f.admin);
    const id = m.body.id;
    expectError(await t.api.get(`/quick-messages/${id}`, other.admin), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
    expectError(await t.api.put(`/quick-messages/${id}`, { message: "stolen" }, other.admin), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
    expectError(await t.api.del(`/quick-messages/${id}`, other.admin), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
    expect((await t.api.get("/quick-messages?all=true", other.admin)).body.map((q: QmView) => q.id)).not.toContain(id);
    expect((await t.api.get(`/quick-messages/${id}`, f.agent)).body.message).toBe("A only");
    // A user's personal message neither.
    const mine = await t.api.post("/quick-messages", { key: `mine${uid()}`, message: "agent A's" }, f.agent);
    for (const who of [other.agent, other.admin]) {
      expectError(await t.api.get(`/quick-messages/${mine.body.id}`, who), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      expectError(await t.api.put(`/quick-messages/${mine.body.id}`, { message: "stolen" }, who), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
      expectError(await t.api.del(`/quick-messages/${mine.body.id}`, who), 404, "ERR_QUICK_MESSAGE_NOT_FOUND");
    }
    expect((await t.api.get(`/quick-messages/${mine.body.id}`, f.agent)).body.message).toBe("agent A's");
  });
});
