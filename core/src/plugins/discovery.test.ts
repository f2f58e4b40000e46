import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { inspectPluginFolder, listPluginFolders } from "./discovery";

const platform = { id: "report-x", kind: "report", tier: "FREE", coreApi: "^1.0.0", displayName: { "pt-BR": "X" } };

describe("plugin discovery", () => {
  let root: string;
  const write = (rel: string, content: unknown) => {
    const file = path.join(root, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, typeof content === "string" ? content : JSON.stringify(content));
  };
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "oa-plugins-"));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("lists subfolders with a package.json, sorted, skipping hidden, underscored and node_modules folders", () => {
    for (const f of ["b-plugin", "a-plugin", ".hidden", "_draft", "node_modules"]) write(`plugins/${f}/package.json`, {});
    fs.mkdirSync(path.join(root, "plugins/no-package"));
    write("plugins/file.json", {});
    expect(listPluginFolders([path.join(root, "plugins"), path.join(root, "missing")]).map((f) => path.basename(f))).toEqual(["a-plugin", "b-plugin"]);
  });

  it("answers the manifest and the resolved entry (package main, or src/service.ts)", () => {
    write("p/package.json", { name: "x", version: "1.0.0", main: "lib/index", platform });
    write("p/lib/index.ts", "export {}");
    expect(inspectPluginFolder(path.join(root, "p"))).toMatchObject({ ok: true, entry: path.join(root, "p/lib/index.ts"), manifest: { id: "report-x", version: "1.0.0" } });
    write("q/package.json", { name: "x", version: "1.0.0", platform });
    write("q/src/service.ts", "export {}");
    expect(inspectPluginFolder(path.join(root, "q"))).toMatchObject({ ok: true, entry: path.join(root, "q/src/service.ts") });
  });

  it("refuses, with a reason, unreadable JSON, a missing entry, an entry outside the folder and an incompatible core API", () => {
    write("bad-json/package.json", "{ nope");
    expect(inspectPluginFolder(path.join(root, "bad-json"))).toMatchObject({ ok: false, id: "bad-json", reason: expect.stringMatching(/^package\.json cannot be read: /) });
    write("no-entry/package.json", { name: "x", version: "1.0.0", platform });
    expect(inspectPluginFolder(path.join(root, "no-entry"))).toEqual(expect.objectContaining({ ok: false, id: "report-x", reason: "entry src/service.ts not found" }));
    write("outside/package.json", { name: "x", version: "1.0.0", main: "../p/lib/index.ts", platform });
    expect(inspectPluginFolder(path.join(root, "outside"))).toMatchObject({ ok: false, reason: "entry ../p/lib/index.ts is outside the plugin folder" });
    write("future/package.json", { name: "x", version: "1.0.0", platform: { ...platform, coreApi: "^1.2.0" } });
    expect(inspectPluginFolder(path.join(root, "future"))).toMatchObject({ ok: false, reason: "incompatible core API: the plugin needs ^1.2.0, this core offers 1.0.0" });
    expect(inspectPluginFolder(path.join(root, "future"), "1.3.0")).toMatchObject({ ok: false, reason: "entry src/service.ts not found" });
  });
});
