/** Service packages are found by the name the application's package.json gives them. */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { loadServicePackages } from "./service-packages";

function app(servicePackages: unknown, packages: Record<string, string>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "oa-svcpkg-"));
  fs.writeFileSync(path.join(root, "package.json"), JSON.stringify({ name: "app", workspaces: [], openatende: { servicePackages } }));
  for (const [name, source] of Object.entries(packages)) {
    const dir = path.join(root, "node_modules", name);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name, main: "index.js" }));
    fs.writeFileSync(path.join(dir, "index.js"), source);
  }
  return root;
}

describe("loadServicePackages", () => {
  const roots: string[] = [];
  afterAll(() => roots.forEach((r) => fs.rmSync(r, { recursive: true, force: true })));
  const make = (...a: Parameters<typeof app>) => {
    const r = app(...a);
    roots.push(r);
    return r;
  };

  it("loads the packages the application names, in its order", () => {
    const src = (group: string) => `exports.servicePackage = { group: "${group}", services: () => [{ name: "${group}" }], migrations: [{ name: "9000-${group}", up: async () => {}, down: async () => {} }] };`;
    const root = make(["pkg-b", "pkg-a"], { "pkg-a": src("a"), "pkg-b": src("b") });
    const found = loadServicePackages(root);
    expect(found.map((p) => p.group)).toEqual(["b", "a"]);
    expect(found[0].services({} as never)).toEqual([{ name: "b" }]);
    expect(found[1].migrations.map((m) => m.name)).toEqual(["9000-a"]);
  });

  it("is none when the application names none", () => {
    expect(loadServicePackages(make(undefined, {}))).toEqual([]);
  });

  it("refuses a package that exports no servicePackage, and a name that is not installed", () => {
    expect(() => loadServicePackages(make(["pkg-x"], { "pkg-x": "exports.other = 1;" }))).toThrow(/pkg-x exports no servicePackage/);
    expect(() => loadServicePackages(make(["pkg-missing"], {}))).toThrow(/pkg-missing/);
    expect(() => loadServicePackages(make("pkg-a", {}))).toThrow(/must be a list/);
  });

  it("finds the marketplace in this repository", () => {
    const root = path.resolve(__dirname, "../..");
    expect(loadServicePackages(root).map((p) => p.group)).toEqual(["marketplace"]);
  });
});
