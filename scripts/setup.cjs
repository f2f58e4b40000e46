/**
 * What the tests need of the machine, made true before they run (`npm test` calls this first;
 * `npm test -- --setup-only` runs it alone):
 *
 *   - Debian packages: MariaDB, Redis, NATS, Chromium (browser tests) and Dovecot (the e-mail
 *     channel's IMAP tests). Missing ones are installed with apt-get when we run as root;
 *     otherwise the command to run is printed and the tests go on (those that need a missing
 *     program fail with their own message).
 *   - Services: MariaDB on 3306, Redis on 6379, NATS on 4222 (127.0.0.1). One that does not
 *     answer is started, the way a Debian machine without systemd can start it.
 *
 * The decision (`plan`) is a pure function of what the probes found, tested on its own
 * (setup.test.ts); `setup` runs the probes and carries the plan out.
 */
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const net = require("node:net");
const path = require("node:path");

/** The Debian packages the tests use, each with the programs (or files) that show it is installed. */
const PACKAGES = [
  { name: "mariadb-server", programs: ["/usr/sbin/mariadbd"] },
  { name: "redis-server", programs: ["redis-server"] },
  { name: "nats-server", programs: ["nats-server", "/usr/sbin/nats-server"] },
  { name: "chromium", programs: ["/usr/bin/chromium"] },
  { name: "dovecot-imapd", programs: ["/usr/sbin/dovecot"] },
  // The PDF exports' font (report-kit): pdfkit's own fonts print no Cyrillic.
  { name: "fonts-dejavu-core", programs: ["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"] },
];

/** The services integration tests talk to; `root` when only root can start them. */
const SERVICES = [
  {
    name: "MariaDB",
    port: 3306,
    pkg: "mariadb-server",
    root: true,
    start: [
      ["mkdir", ["-p", "/run/mysqld"]],
      ["chown", ["mysql:mysql", "/run/mysqld"]],
      ["start-stop-daemon", ["--start", "--oknodo", "--background", "--exec", "/usr/sbin/mariadbd"]],
    ],
  },
  {
    name: "Redis",
    port: 6379,
    pkg: "redis-server",
    root: false,
    start: [["redis-server", ["--daemonize", "yes", "--bind", "127.0.0.1", "--port", "6379", "--save", "", "--appendonly", "no"]]],
  },
  {
    name: "NATS",
    port: 4222,
    pkg: "nats-server",
    root: true,
    start: [["start-stop-daemon", ["--start", "--oknodo", "--background", "--exec", "/usr/sbin/nats-server", "--", "-a", "127.0.0.1", "-p", "4222", "-js"]]],
  },
];

/**
 * What to do, from what the probes found:
 *   state = { missing: package names, down: service names, isRoot, hasApt }
 * → { install: packages apt-get installs, manual: packages the user must install,
 *     start: services to start, cannotStart: [{ name, why }] }.
 */
function plan(state) {
  const canInstall = state.isRoot && state.hasApt;
  const install = canInstall ? [...state.missing] : [];
  const manual = canInstall ? [] : [...state.missing];
  const start = [];
  const cannotStart = [];
  for (const s of SERVICES) {
    if (!state.down.includes(s.name)) continue;
    if (manual.includes(s.pkg)) cannotStart.push({ name: s.name, why: `${s.pkg} is not installed` });
    else if (s.root && !state.isRoot) cannotStart.push({ name: s.name, why: "only root can start it here" });
    else start.push(s.name);
  }
  return { install, manual, start, cannotStart };
}

/** The machine's real probes and commands; tests pass their own. */
const machine = {
  isRoot: () => typeof process.getuid === "function" && process.getuid() === 0,
  /** A file at an absolute path (a program, or a package's data file such as a font), or an executable command found on PATH (plus the sbin folders). */
  hasProgram(p) {
    const candidates = p.startsWith("/")
      ? [p]
      : [...(process.env.PATH || "").split(path.delimiter), "/usr/sbin", "/sbin", "/usr/local/sbin"].filter(Boolean).map((d) => path.join(d, p));
    return candidates.some((c) => {
      try {
        if (!p.startsWith("/")) fs.accessSync(c, fs.constants.X_OK);
        return fs.statSync(c).isFile();
      } catch {
        return false;
      }
    });
  },
  portOpen(port, timeoutMs = 500) {
    return new Promise((resolve) => {
      const socket = net.connect({ host: "127.0.0.1", port });
      const done = (open) => {
        socket.destroy();
        resolve(open);
      };
      socket.setTimeout(timeoutMs, () => done(false));
      socket.once("connect", () => done(true));
      socket.once("error", () => done(false));
    });
  },
  /** Runs a command with its output shown; true when it exited 0. */
  run(cmd, args, env) {
    const r = spawnSync(cmd, args, { stdio: "inherit", env: env ? { ...process.env, ...env } : process.env });
    return r.status === 0;
  },
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
};

/** Probes the machine: which packages are missing, which services are down. */
async function probe(m) {
  const missing = PACKAGES.filter((p) => !p.programs.some((prog) => m.hasProgram(prog))).map((p) => p.name);
  const down = [];
  for (const s of SERVICES) if (!(await m.portOpen(s.port))) down.push(s.name);
  return { missing, down, isRoot: m.isRoot(), hasApt: m.hasProgram("apt-get") };
}

async function waitPort(m, port, ms) {
  for (let waited = 0; waited < ms; waited += 200) {
    if (await m.portOpen(port)) return true;
    await m.sleep(200);
  }
  return false;
}

/**
 * Probes, then installs and starts what is missing. Resolves to { ready, problems }: ready when
 * every package is there and every service answers; problems are lines for the user.
 */
async function setup({ m = machine, log = (line) => console.log(`[setup] ${line}`), waitMs = 20000 } = {}) {
  const state = await probe(m);
  const p = plan(state);
  const problems = [];
  if (p.install.length) {
    log(`installing ${p.install.join(", ")} (apt-get)`);
    const env = { DEBIAN_FRONTEND: "noninteractive" };
    const ok = m.run("apt-get", ["update", "-qq"], env) && m.run("apt-get", ["install", "-y", "-qq", ...p.install], env);
    if (!ok) problems.push(`apt-get could not install ${p.install.join(", ")}`);
  }
  if (p.manual.length) problems.push(`missing Debian packages: ${p.manual.join(" ")} (as root: apt-get install ${p.manual.join(" ")})`);
  for (const name of p.start) {
    const s = SERVICES.find((x) => x.name === name);
    log(`starting ${name}`);
    // mkdir/chown may fail harmlessly (already there); the port tells whether it started.
    for (const [cmd, args] of s.start) m.run(cmd, args);
    if (!(await waitPort(m, s.port, waitMs))) problems.push(`${name} did not open port ${s.port}`);
  }
  for (const c of p.cannotStart) problems.push(`${c.name} is down on port ${SERVICES.find((s) => s.name === c.name).port}: ${c.why}`);
  for (const line of problems) log(line);
  if (!problems.length && (p.install.length || p.start.length)) log("the machine is ready");
  return { ready: problems.length === 0, problems, plan: p };
}

module.exports = { PACKAGES, SERVICES, plan, probe, setup, machine };

if (require.main === module) {
  setup().then((r) => process.exit(r.ready ? 0 : 1));
}
