/**
 * The SDK's rsbuild entry for plugin UI remotes stands alone: nothing of it reaches outside the
 * SDK but through packages, it loads in plain node (the rsbuild CLI), and what it builds is what
 * the shell expects (container name, shared singletons with the shell's ranges).
 */
import { execFileSync } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { containerName as contractName } from "@openatende/contracts/ui-remote";

interface RemoteEntry {
  containerName(id: string): string;
  sharedSingletons(): Record<string, { singleton: boolean; requiredVersion: string }>;
  SHARED_SINGLETONS: Record<string, string>;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const entry = require("./rsbuild-remote.cjs") as RemoteEntry;
const FILE = path.join(__dirname, "rsbuild-remote.cjs");

describe("the SDK's rsbuild-remote", () => {
  it("requires nothing outside the SDK by path (no ../../../config)", () => {
    const requires = [...fs.readFileSync(FILE, "utf8").matchAll(/require(?:\.resolve)?\(\s*[`"']([^`"']+)[`"']/g)].map((m) => m[1]);
    expect(requires.length).toBeGreaterThan(3);
    expect(requires.filter((r) => r.startsWith("."))).toEqual([]);
  });

  it("is the package's ./rsbuild-remote export", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(__dirname, "../../package.json"), "utf8"));
    expect(pkg.exports["./rsbuild-remote"]).toBe("./src/cli/rsbuild-remote.cjs");
  });

  it("makes a plugin folder's remote: register exposed, built to dist/ui, served under the plugin's path", () => {
    // In plain node, as the rsbuild CLI loads it (its rsbuild plugins are ES modules jest cannot require).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-rsbuild-remote-"));
    const read = () =>
      JSON.parse(
        execFileSync(process.execPath, ["-e", `const c = require(${JSON.stringify(FILE)}).remoteConfig(${JSON.stringify(dir)}); process.stdout.write(JSON.stringify({ root: c.root, output: c.output, plugins: c.plugins.map((p) => p.name) }))`], {
          encoding: "utf8",
          stdio: ["ignore", "pipe", "pipe"],
        }),
      );
    try {
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "channel-acme", platform: { id: "channel-acme" } }));
      const c = read();
      expect(c.root).toBe(dir);
      expect(c.output.distPath.root).toBe(path.join(dir, "dist/ui"));
      expect(c.output.assetPrefix).toBe("/api/plugins/channel-acme/remote/");
      expect(c.plugins).toEqual(["rsbuild:react", "rsbuild:module-federation-enhanced"]);
      fs.writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "no-platform" }));
      expect(read).toThrow(/no platform\.id/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it("names the container as the shell loads it (one rule, in contracts)", () => {
    for (const id of ["channel-telegram", "acme.voice-2"]) expect(entry.containerName(id)).toBe(contractName(id));
  });

  it("loads in plain node, where contracts' TypeScript is compiled on the fly", () => {
    const out = execFileSync(process.execPath, ["-e", `process.stdout.write(require(${JSON.stringify(FILE)}).containerName("channel-x"))`], { encoding: "utf8" });
    expect(out).toBe("plugin_channel_x");
  });

  it("shares the shell's singletons with the shell's own version ranges", () => {
    const shell = path.join(__dirname, "../../../shell/package.json");
    if (!fs.existsSync(shell)) return; // the SDK outside this repository
    const deps = JSON.parse(fs.readFileSync(shell, "utf8")).dependencies as Record<string, string>;
    for (const [name, range] of Object.entries(entry.SHARED_SINGLETONS)) expect([name, deps[name]]).toEqual([name, range]);
    expect(Object.values(entry.sharedSingletons()).every((s) => s.singleton)).toBe(true);
  });
});
