/**
 * What the commands share: their errors (exit 1 for a failure, 2 for a bad command line),
 * a small argument parser that refuses what a command does not know, and output helpers.
 */

/** A failure of the command itself (a folder exists, a build failed, the registry refused): exit 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

/** The command line is wrong (unknown flag, missing argument, bad value): exit 2. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export interface FlagSpec {
  /** "string" takes a value (`--dir x` or `--dir=x`); "boolean" takes none. */
  type: "string" | "boolean";
}

export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | boolean | undefined>;
  /** What came after a bare `--` (handed over as is, e.g. to jest). */
  rest: string[];
}

/** Parses `argv` against the flags a command knows; `--help`/`-h` is always known. */
export function parseArgs(argv: string[], spec: Record<string, FlagSpec>, maxPositionals: number): ParsedArgs {
  const out: ParsedArgs = { positionals: [], flags: {}, rest: [] };
  const all: Record<string, FlagSpec> = { help: { type: "boolean" }, ...spec };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--") {
      out.rest = argv.slice(i + 1);
      break;
    }
    if (a === "-h") {
      out.flags.help = true;
      continue;
    }
    if (a.startsWith("--")) {
      const eq = a.indexOf("=");
      const name = eq >= 0 ? a.slice(2, eq) : a.slice(2);
      const def = all[name];
      if (!def) throw new UsageError(`unknown option --${name}${Object.keys(spec).length ? ` (options: ${Object.keys(spec).map((k) => `--${k}`).join(", ")})` : ""}`);
      if (def.type === "boolean") {
        if (eq >= 0) throw new UsageError(`--${name} takes no value`);
        out.flags[name] = true;
        continue;
      }
      let value: string | undefined;
      if (eq >= 0) value = a.slice(eq + 1);
      else if (i + 1 < argv.length && !argv[i + 1].startsWith("--")) value = argv[++i];
      if (value === undefined || value === "") throw new UsageError(`--${name} needs a value`);
      out.flags[name] = value;
      continue;
    }
    if (a.startsWith("-") && a.length > 1) throw new UsageError(`unknown option ${a}`);
    out.positionals.push(a);
  }
  if (!out.flags.help && out.positionals.length > maxPositionals) {
    throw new UsageError(`unexpected argument ${JSON.stringify(out.positionals[maxPositionals])}`);
  }
  return out;
}

export const str = (v: string | boolean | undefined): string | undefined => (typeof v === "string" ? v : undefined);

export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} kB`;
  return `${(n / 1024 / 1024).toFixed(2)} MB`;
}

export function errorMessage(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
