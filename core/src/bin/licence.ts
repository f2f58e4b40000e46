/**
 * Licence tool.
 *
 *   npx tsx core/src/bin/licence.ts keygen [--out DIR] [--force]
 *   npx tsx core/src/bin/licence.ts sign --key private.pem --tier PLUS --domain example.com \
 *       --document 11222333000181 --days 365 [--tenant 1] [--lid ID] [--max-users N] \
 *       [--max-connections N] [--issuer NAME]
 *   npx tsx core/src/bin/licence.ts verify --pub public.pem (--token T | --token-file F) \
 *       [--domain D] [--document X]
 *
 * Exit codes: 0 success (verify: licence valid); 1 verify: licence not valid, or an unexpected
 * failure; 2 bad arguments (unknown command/option, missing or bad value, unreadable or invalid
 * key file, existing keys without --force).
 *
 * Reads no environment variables: everything comes from the command line.
 */
import { randomUUID } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { TIERS, isTier } from "../licence/tiers";
import {
  loadPrivateKey,
  loadPublicKey,
  signLicence,
  verifyLicence,
  generateLicenceKeys,
  type LicencePayload,
} from "../licence/token";

export const USAGE = `Usage:
  licence keygen [--out DIR] [--force]
      Writes DIR/public.pem and DIR/private.pem (mode 0600). DIR defaults to data/licence.
  licence sign --key PRIVATE.pem --tier ${TIERS.join("|")} --domain HOST --document CPF_OR_CNPJ
               --days N [--tenant ID] [--lid ID] [--max-users N] [--max-connections N] [--issuer NAME]
      Prints a signed licence token.
  licence verify --pub PUBLIC.pem (--token TOKEN | --token-file FILE) [--domain HOST] [--document CPF_OR_CNPJ]
      Prints the check result as JSON; exit code 0 when the licence is valid, 1 otherwise.`;

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  cwd: string;
  now: () => Date;
}

class UsageError extends Error {}

type Flags = Map<string, string | true>;

interface CommandSpec {
  /** Options taking a value. */
  values: readonly string[];
  /** Options taking no value. */
  switches?: readonly string[];
  required?: readonly string[];
}

const COMMANDS: Record<string, CommandSpec> = {
  keygen: { values: ["out"], switches: ["force"] },
  sign: {
    values: ["key", "tier", "domain", "document", "days", "tenant", "lid", "max-users", "max-connections", "issuer"],
    required: ["key", "tier", "domain", "document", "days"],
  },
  verify: { values: ["pub", "token", "token-file", "domain", "document"], required: ["pub"] },
};

function parseFlags(command: string, args: readonly string[]): Flags {
  const spec = COMMANDS[command]!;
  const flags: Flags = new Map();
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (!arg.startsWith("--") || arg === "--") throw new UsageError(`unexpected argument "${arg}"`);
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (flags.has(name)) throw new UsageError(`--${name} given more than once`);
    if (spec.switches?.includes(name)) {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      flags.set(name, true);
      continue;
    }
    if (!spec.values.includes(name)) throw new UsageError(`unknown option --${name} for "${command}"`);
    let value: string | undefined;
    if (eq >= 0) value = arg.slice(eq + 1);
    else {
      value = args[i + 1];
      if (value === undefined || value.startsWith("--")) throw new UsageError(`--${name} needs a value`);
      i++;
    }
    if (value.trim() === "") throw new UsageError(`--${name} must not be empty`);
    flags.set(name, value);
  }
  for (const name of spec.required ?? []) {
    if (!flags.has(name)) throw new UsageError(`--${name} is required for "${command}"`);
  }
  return flags;
}

function str(flags: Flags, name: string): string | undefined {
  const v = flags.get(name);
  return typeof v === "string" ? v : undefined;
}

function intFlag(flags: Flags, name: string, min: number): number | undefined {
  const v = str(flags, name);
  if (v === undefined) return undefined;
  if (!/^\d+$/.test(v.trim())) throw new UsageError(`--${name} must be a whole number, got "${v}"`);
  const n = Number(v.trim());
  if (!Number.isSafeInteger(n) || n < min) throw new UsageError(`--${name} must be at least ${min}, got "${v}"`);
  return n;
}

function readText(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new UsageError(`cannot read ${what} ${path}${code ? ` (${code})` : ""}`);
  }
}

function keygen(flags: Flags, io: CliIo): number {
  const dir = resolve(io.cwd, str(flags, "out") ?? "data/licence");
  const publicPath = resolve(dir, "public.pem");
  const privatePath = resolve(dir, "private.pem");
  if (!flags.has("force")) {
    const existing = [publicPath, privatePath].filter((p) => existsSync(p));
    if (existing.length > 0) {
      throw new UsageError(`refusing to overwrite ${existing.join(", ")} (use --force)`);
    }
  }
  const keys = generateLicenceKeys();
  mkdirSync(dir, { recursive: true });
  writeFileSync(privatePath, keys.privateKeyPem, { mode: 0o600 });
  chmodSync(privatePath, 0o600); // mode above only applies when the file is created
  writeFileSync(publicPath, keys.publicKeyPem, { mode: 0o644 });
  io.out(`public key:  ${publicPath}`);
  io.out(`private key: ${privatePath}`);
  return 0;
}

function sign(flags: Flags, io: CliIo): number {
  const keyPath = resolve(io.cwd, str(flags, "key")!);
  let key;
  try {
    key = loadPrivateKey(readText(keyPath, "private key"));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${keyPath}: ${(err as Error).message}`);
  }
  const tier = str(flags, "tier")!.trim().toUpperCase();
  if (!isTier(tier)) throw new UsageError(`--tier must be one of ${TIERS.join(", ")}, got "${str(flags, "tier")}"`);
  const days = intFlag(flags, "days", 1)!;
  if (days > 36500) throw new UsageError(`--days must be at most 36500, got ${days}`);
  const tenantId = intFlag(flags, "tenant", 1);
  const maxUsers = intFlag(flags, "max-users", 0);
  const maxConnections = intFlag(flags, "max-connections", 0);
  const now = io.now();
  const payload: LicencePayload = {
    lid: str(flags, "lid") ?? randomUUID(),
    tier,
    expiresAt: new Date(now.getTime() + days * 86_400_000).toISOString(),
    domain: str(flags, "domain")!,
    document: str(flags, "document")!,
    ...(tenantId !== undefined ? { tenantId } : {}),
    issuedAt: now.toISOString(),
    ...(maxUsers !== undefined ? { maxUsers } : {}),
    ...(maxConnections !== undefined ? { maxConnections } : {}),
    issuer: str(flags, "issuer") ?? "openatende-licence-cli",
  };
  let token: string;
  try {
    token = signLicence(payload, key);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  io.out(token);
  return 0;
}

function verify(flags: Flags, io: CliIo): number {
  const pubPath = resolve(io.cwd, str(flags, "pub")!);
  let publicKey;
  try {
    publicKey = loadPublicKey(readText(pubPath, "public key"));
  } catch (err) {
    if (err instanceof UsageError) throw err;
    throw new UsageError(`${pubPath}: ${(err as Error).message}`);
  }
  const inline = str(flags, "token");
  const file = str(flags, "token-file");
  if ((inline === undefined) === (file === undefined)) {
    throw new UsageError("give exactly one of --token or --token-file");
  }
  const token = inline ?? readText(resolve(io.cwd, file!), "token file").trim();
  const check = verifyLicence(token, {
    publicKey,
    now: io.now(),
    domain: str(flags, "domain"),
    document: str(flags, "document"),
  });
  io.out(JSON.stringify(check, null, 2));
  return check.ok ? 0 : 1;
}

/** Runs the CLI with the arguments after the script name; returns the exit code. */
export function main(argv: readonly string[], io: CliIo): number {
  const [command, ...rest] = argv;
  if (command === undefined || command === "help" || command === "--help" || command === "-h") {
    (command === undefined ? io.err : io.out)(USAGE);
    return command === undefined ? 2 : 0;
  }
  try {
    if (!Object.prototype.hasOwnProperty.call(COMMANDS, command)) {
      throw new UsageError(`unknown command "${command}"`);
    }
    if (rest.includes("--help") || rest.includes("-h")) {
      io.out(USAGE);
      return 0;
    }
    const flags = parseFlags(command, rest);
    if (command === "keygen") return keygen(flags, io);
    if (command === "sign") return sign(flags, io);
    return verify(flags, io);
  } catch (err) {
    if (err instanceof UsageError) {
      io.err(`licence: ${err.message}`);
      io.err(USAGE);
      return 2;
    }
    io.err(`licence: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

if (require.main === module) {
  process.exitCode = main(process.argv.slice(2), {
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
    cwd: process.cwd(),
    now: () => new Date(),
  });
}
