import { definePlugin } from "../define-plugin";
import { checkEvents, checkPluginDefinition, checkRoutes, checkTexts, checkUi, PluginConformanceError, routesOf } from "./generic";

const pkg = (extra: Record<string, unknown> = {}) => ({
  name: "@acme/module-board",
  version: "1.2.0",
  platform: { id: "module-board", kind: "module", tier: "PLUS", coreApi: "^1.0.0", displayName: { "pt-BR": "Quadro" }, ui: { remoteEntry: "remoteEntry.js", exposes: ["register"], routes: ["quadro"] }, ...extra },
});

const good = definePlugin({
  pkgJson: pkg(),
  service: {
    settings: { rest: "/" },
    actions: {
      board: { rest: "GET /board", access: "user", tier: "PLUS", handler: () => [] },
      card: { rest: "GET /board/cards/:id", access: "user", params: { id: { type: "number", convert: true } }, handler: () => null },
      move: { rest: "POST /board/moves", access: "user", params: { id: "number" }, handler: () => null },
    },
  },
  platformEvents: { "ticket.closed": async () => undefined },
});

const throws = (f: () => void, re: RegExp) => {
  expect(f).toThrow(PluginConformanceError);
  expect(f).toThrow(re);
};

describe("generic plugin conformance", () => {
  it("passes a plugin that follows every rule", () => {
    checkPluginDefinition(good);
    checkRoutes(good);
    checkEvents(good);
    checkUi(good);
    expect(routesOf(good).map((r) => `${r.method} ${r.path}`)).toEqual(["GET /board", "GET /board/cards/:id", "POST /board/moves"]);
  });

  it("refuses what is not a definePlugin() object", () => {
    throws(() => checkPluginDefinition({ name: "x" }), /definePlugin/);
  });

  it("refuses a route without access, an unvalidated body or path parameter, a tier below the manifest's, and a core path", () => {
    const bad = definePlugin({
      pkgJson: pkg(),
      service: {
        actions: {
          a: { rest: "GET /board", handler: () => 1 },
          b: { rest: "POST /board", access: "user", handler: () => 1 },
          c: { rest: "GET /board/:id", access: "user", handler: () => 1 },
          d: { rest: "GET /board/x", access: "user", tier: "BASIC", handler: () => 1 },
          e: { rest: "GET /tickets/mine", access: "user", handler: () => 1 },
        },
      },
    });
    const f = () => checkRoutes(bad);
    throws(f, /GET \/board \(action a\) must say who may call it/);
    throws(f, /POST \/board \(action b\) must validate/);
    throws(f, /GET \/board\/:id \(action c\) must validate/);
    throws(f, /asks tier BASIC, below the manifest's PLUS/);
    throws(f, /is under \/tickets, a path of the core/);
  });

  it("refuses a hand-made platformEvent action with no validation for declared events", () => {
    const p = definePlugin({ pkgJson: pkg(), service: { actions: { platformEvent: { handler: () => 1 } } } });
    const forged = { ...p, schema: { ...p.schema, metadata: { plugin: { events: ["ticket.closed"] } } } };
    throws(() => checkEvents(forged), /no validated platformEvent action/);
    const unknown = { ...good, schema: { ...good.schema, metadata: { plugin: { events: ["ticket.exploded"] } } } };
    throws(() => checkEvents(unknown), /ticket\.exploded, which the core does not deliver/);
  });

  it("refuses a UI remote without register", () => {
    const p = definePlugin({ pkgJson: pkg({ ui: { remoteEntry: "remoteEntry.js", exposes: ["Page"] } }), service: {} });
    throws(() => checkUi(p), /does not expose register/);
  });

  it("checks the texts: same keys in four languages, none empty", () => {
    checkTexts({ "pt-BR": { a: "um", b: { c: "dois" } }, en: { a: "one", b: { c: "two" } }, es: { a: "uno", b: { c: "dos" } }, ru: { a: "один", b: { c: "два" } } });
    throws(() => checkTexts({ "pt-BR": { a: "um", b: "x" }, en: { a: "one" }, es: { a: "", b: "y" }, ru: { a: "один", b: "z", extra: "q" } }), /en lacks b/);
    throws(() => checkTexts({ "pt-BR": { a: "um" }, en: { a: "one" }, es: { a: " " }, ru: { a: "один" } }), /es\.a is empty/);
    throws(() => checkTexts({ "pt-BR": { a: "um" }, en: { a: "one" }, es: { a: "uno" } }), /texts lack ru/);
  });
});
