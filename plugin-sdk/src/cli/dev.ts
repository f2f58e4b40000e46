/**
 * `plugin-sdk dev [dir]`: the plugin's UI alone, in an rsbuild dev server (hot reload), against
 * a stub shell runtime (plugin-sdk/templates/dev/): the page imports the plugin's
 * src/ui/register.tsx directly, calls it, and shows what it registered.
 */
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import { validateManifest } from "../manifest";
import { CliError, parseArgs, str, UsageError } from "./args";
import { repoResolution, rsbuild } from "./ui-build";
import { readPluginFolder, SDK_ROOT, TEMPLATES_DIR } from "./workspace";

export const DEV_HELP = `Usage: plugin-sdk dev [dir] [--port 3100] [--host 127.0.0.1]

Serves the UI of the plugin in <dir> (default: the current folder) alone, with hot reload, against
a stub shell runtime: src/ui/register.tsx is called with it, and the page shows what it registered.
  - each connect form in a form of its own, with its defaults; Submit runs its validate() and shows
    the errors or the values the shell would save; "editing a saved connection" passes a connection;
  - routes (opened in place) and menu items;
  - a language switcher (pt-BR, en, es, ru) for runtime.t and the plugin's translations;
  - runtime.api calls, logged and answered from an in-memory table; notices as antd messages.

  --port <n>     port to listen on (default 3100; taken → failure)
  --host <host>  address to listen on (default 127.0.0.1)
Prints the URL; stops on Ctrl+C (SIGINT) or SIGTERM. Exit code: 0 stopped, 1 failure, 2 bad usage.`;

const DEV_DIR = path.join(TEMPLATES_DIR, "dev");

export async function devCommand(argv: string[]): Promise<number> {
  const args = parseArgs(argv, { port: { type: "string" }, host: { type: "string" } }, 1);
  if (args.flags.help) {
    console.log(DEV_HELP);
    return 0;
  }
  const portArg = str(args.flags.port) ?? "3100";
  const port = Number(portArg);
  if (!/^\d+$/.test(portArg) || port < 1 || port > 65535) throw new UsageError(`--port must be a port number (1-65535), got ${JSON.stringify(portArg)}`);
  const host = str(args.flags.host) ?? "127.0.0.1";

  const { dir, pkg } = readPluginFolder(args.positionals[0]);
  const checked = validateManifest(pkg);
  if (!checked.ok) throw new CliError(`invalid manifest (run plugin-sdk validate): ${checked.errors[0]}`);
  const manifest = checked.manifest;
  const register = path.join(dir, "src/ui/register.tsx");
  if (!fs.existsSync(register)) throw new CliError(`${path.relative(process.cwd(), register) || register} not found: the plugin has no UI to serve`);

  const { createRsbuild, mergeRsbuildConfig } = await rsbuild();
  const { pluginReact } = await import("@rsbuild/plugin-react");
  const config = mergeRsbuildConfig(repoResolution(), {
    root: dir,
    mode: "development",
    logLevel: "warn",
    source: {
      entry: { index: path.join(DEV_DIR, "main.tsx") },
      define: {
        __PLUGIN_DEV__: JSON.stringify({ id: manifest.id, version: manifest.version, kind: manifest.kind, displayName: manifest.displayName }),
      },
    },
    resolve: {
      alias: {
        "@plugin-sdk-dev/register": register,
        "@openatende/plugin-sdk/ui": path.join(SDK_ROOT, "src/ui-runtime.ts"),
      },
    },
    html: { title: `${manifest.displayName["pt-BR"]} · plugin-sdk dev` },
    server: { host, port, strictPort: true, printUrls: false, open: false },
    dev: { progressBar: false },
    // The dev server serves from memory; nothing of it belongs in the plugin folder.
    output: { distPath: { root: path.join(os.tmpdir(), `plugin-sdk-dev-${manifest.id}`) } },
    plugins: [pluginReact()],
  });

  const instance = await createRsbuild({ cwd: dir, config });
  let started;
  try {
    started = await instance.startDevServer();
  } catch (err) {
    throw new CliError(`the dev server did not start: ${(err as Error).message}`);
  }
  const shown = host === "0.0.0.0" ? "127.0.0.1" : host;
  console.log(`plugin-sdk dev: ${manifest.id}@${manifest.version} UI on http://${shown}:${started.port}/ (Ctrl+C to stop)`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals) => {
      if (stopping) return;
      stopping = true;
      // rsbuild's own SIGTERM handler ends the process once its server is closed, with
      // `process.exitCode ??= 143`: a stop asked for is a clean exit.
      process.exitCode = 0;
      console.log(`plugin-sdk dev: ${signal}, stopping`);
      started.server
        .close()
        .catch(() => undefined)
        .then(() => {
          process.off("SIGINT", stop);
          process.off("SIGTERM", stop);
          resolve(0);
        });
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
