/**
 * `plugin-sdk <command>`: the plugin author's command line (bin/plugin-sdk.cjs runs it).
 * Every command has --help; failures print one line on stderr. Exit codes: 0 done,
 * 1 the command failed, 2 the command line is wrong.
 *
 * How to extend: a command is a module exporting `<name>Command(argv): Promise<number>` and
 * its help text, listed in COMMANDS.
 */
import { CliError, errorMessage, UsageError } from "./args";

interface Command {
  summary: string;
  run(argv: string[]): Promise<number>;
}

// Each command's module is loaded only when it runs (rsbuild, esbuild and jest are heavy).
// eslint-disable-next-line @typescript-eslint/no-require-imports
const load = <T>(file: string): T => require(file) as T;

const COMMANDS: Record<string, Command> = {
  create: { summary: "create <id> --kind channel   scaffold a working plugin folder", run: (a) => load<typeof import("./create")>("./create").createCommand(a) },
  validate: { summary: "validate [dir]                check manifest, core API range, entry and UI exposes", run: (a) => load<typeof import("./validate")>("./validate").validateCommand(a) },
  test: { summary: "test [dir]                    run the plugin's tests (conformance kit) with the platform's jest", run: (a) => load<typeof import("./test-command")>("./test-command").testCommand(a) },
  dev: { summary: "dev [dir] [--port 3100]       serve the plugin's UI alone against a stub shell runtime", run: (a) => load<typeof import("./dev")>("./dev").devCommand(a) },
  pack: { summary: "pack [dir] [--out <folder>]   build server bundle + UI remote into <id>-<version>.tgz (+ .sha256)", run: (a) => load<typeof import("./pack")>("./pack").packCommand(a) },
  publish: {
    summary: "publish [archive|dir] --registry <url> --token <token>   upload an archive to a marketplace",
    run: (a) => load<typeof import("./publish")>("./publish").publishCommand(a, process.env),
  },
};

export const MAIN_HELP = `Usage: plugin-sdk <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.summary}`)
  .join("\n")}

Run "plugin-sdk <command> --help" for a command's options.
Exit codes: 0 done, 1 the command failed, 2 bad usage.`;

function version(): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require("../../package.json") as { version: string }).version;
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === "--help" || name === "-h" || name === "help") {
    if (name === "help" && rest[0] && COMMANDS[rest[0]]) return main([rest[0], "--help"]);
    console.log(MAIN_HELP);
    return name ? 0 : 2;
  }
  if (name === "--version" || name === "-v") {
    console.log(version());
    return 0;
  }
  const command = COMMANDS[name];
  if (!command) {
    console.error(`plugin-sdk: unknown command ${JSON.stringify(name)} (commands: ${Object.keys(COMMANDS).join(", ")}; see plugin-sdk --help)`);
    return 2;
  }
  try {
    return await command.run(rest);
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`plugin-sdk ${name}: ${err.message} (see plugin-sdk ${name} --help)`);
      return 2;
    }
    if (err instanceof CliError) {
      console.error(`plugin-sdk ${name}: ${err.message}`);
      return 1;
    }
    console.error(`plugin-sdk ${name}: ${errorMessage(err)}`);
    return 1;
  }
}
