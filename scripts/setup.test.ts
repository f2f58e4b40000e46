/**
 * npm test's set-up (setup.cjs): what it decides from the probes, and what it then runs, on a
 * fake machine (no apt-get, no service is touched).
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { plan, setup, PACKAGES, SERVICES } = require("./setup.cjs") as SetupModule;

interface State {
  missing: string[];
  down: string[];
  isRoot: boolean;
  hasApt: boolean;
}
interface Plan {
  install: string[];
  manual: string[];
  start: string[];
  cannotStart: { name: string; why: string }[];
}
interface Machine {
  isRoot(): boolean;
  hasProgram(p: string): boolean;
  portOpen(port: number): Promise<boolean>;
  run(cmd: string, args: string[], env?: Record<string, string>): boolean;
  sleep(ms: number): Promise<void>;
}
interface SetupModule {
  plan(s: State): Plan;
  setup(o: { m: Machine; log: (l: string) => void; waitMs?: number }): Promise<{ ready: boolean; problems: string[]; plan: Plan }>;
  PACKAGES: { name: string; programs: string[] }[];
  SERVICES: { name: string; port: number; pkg: string }[];
}

const ALL_UP: State = { missing: [], down: [], isRoot: true, hasApt: true };

describe("the set-up's plan", () => {
  it("does nothing on a machine that has everything running", () => {
    expect(plan(ALL_UP)).toEqual({ install: [], manual: [], start: [], cannotStart: [] });
  });

  it("installs what is missing as root with apt-get, and starts the services that are down", () => {
    const p = plan({ missing: ["chromium", "dovecot-imapd", "nats-server"], down: ["NATS", "Redis"], isRoot: true, hasApt: true });
    expect(p.install).toEqual(["chromium", "dovecot-imapd", "nats-server"]);
    expect(p.manual).toEqual([]);
    expect(p.start).toEqual(["Redis", "NATS"]);
  });

  it("without root only names the packages, starts what a user may start, and says why not the rest", () => {
    const p = plan({ missing: ["chromium", "redis-server"], down: ["MariaDB", "Redis", "NATS"], isRoot: false, hasApt: true });
    expect(p.install).toEqual([]);
    expect(p.manual).toEqual(["chromium", "redis-server"]);
    expect(p.start).toEqual([]);
    expect(p.cannotStart).toEqual([
      { name: "MariaDB", why: "only root can start it here" },
      { name: "Redis", why: "redis-server is not installed" },
      { name: "NATS", why: "only root can start it here" },
    ]);
    expect(plan({ ...ALL_UP, isRoot: false, down: ["Redis"] }).start).toEqual(["Redis"]);
  });

  it("root without apt-get (not Debian) installs nothing", () => {
    expect(plan({ ...ALL_UP, hasApt: false, missing: ["chromium"] })).toMatchObject({ install: [], manual: ["chromium"] });
  });

  it("knows every package and service the tests use", () => {
    expect(PACKAGES.map((p) => p.name).sort()).toEqual(["chromium", "dovecot-imapd", "fonts-dejavu-core", "mariadb-server", "nats-server", "redis-server"]);
    expect(SERVICES.map((s) => [s.name, s.port])).toEqual([
      ["MariaDB", 3306],
      ["Redis", 6379],
      ["NATS", 4222],
    ]);
  });
});

/** A machine whose programs, open ports and commands the test decides. */
function fakeMachine(opts: { root: boolean; programs: string[]; open: number[]; startOpens?: Record<string, number> }) {
  const open = new Set(opts.open);
  const programs = new Set(opts.programs);
  const ran: string[] = [];
  const m: Machine = {
    isRoot: () => opts.root,
    hasProgram: (p) => programs.has(p),
    portOpen: async (port) => open.has(port),
    run(cmd, args) {
      ran.push([cmd, ...args].join(" "));
      if (cmd === "apt-get" && args[0] === "install") for (const pkg of args.slice(3)) PACKAGES.find((p) => p.name === pkg)!.programs.forEach((x) => programs.add(x));
      const port = opts.startOpens?.[cmd === "start-stop-daemon" ? args[4] : cmd];
      if (port) open.add(port);
      return true;
    },
    sleep: async () => undefined,
  };
  return { m, ran };
}

describe("the set-up on a fake machine", () => {
  const everything = PACKAGES.map((p) => p.programs[0]).concat("apt-get");

  it("a fresh Debian machine as root: one apt-get for the missing packages, then each service started", async () => {
    const { m, ran } = fakeMachine({
      root: true,
      programs: ["apt-get", "/usr/sbin/mariadbd", "redis-server", "/usr/sbin/nats-server"],
      open: [],
      startOpens: { "/usr/sbin/mariadbd": 3306, "redis-server": 6379, "/usr/sbin/nats-server": 4222 },
    });
    const lines: string[] = [];
    const r = await setup({ m, log: (l) => lines.push(l), waitMs: 1000 });
    expect(r.ready).toBe(true);
    expect(ran[0]).toBe("apt-get update -qq");
    expect(ran[1]).toBe("apt-get install -y -qq chromium dovecot-imapd fonts-dejavu-core");
    expect(ran.filter((c) => c.startsWith("start-stop-daemon") || c.startsWith("redis-server"))).toEqual([
      "start-stop-daemon --start --oknodo --background --exec /usr/sbin/mariadbd",
      "redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save  --appendonly no",
      "start-stop-daemon --start --oknodo --background --exec /usr/sbin/nats-server -- -a 127.0.0.1 -p 4222 -js",
    ]);
    expect(lines).toEqual(["installing chromium, dovecot-imapd, fonts-dejavu-core (apt-get)", "starting MariaDB", "starting Redis", "starting NATS", "the machine is ready"]);
  });

  it("a ready machine: runs nothing and says nothing", async () => {
    const { m, ran } = fakeMachine({ root: true, programs: everything, open: [3306, 6379, 4222] });
    const lines: string[] = [];
    expect((await setup({ m, log: (l) => lines.push(l) })).ready).toBe(true);
    expect(ran).toEqual([]);
    expect(lines).toEqual([]);
  });

  it("a service that does not come up, and a user who may not install, are reported, not thrown", async () => {
    const { m, ran } = fakeMachine({ root: false, programs: everything.filter((p) => p !== "/usr/bin/chromium"), open: [3306, 4222] });
    const lines: string[] = [];
    const r = await setup({ m, log: (l) => lines.push(l), waitMs: 600 });
    expect(r.ready).toBe(false);
    expect(ran).toEqual(["redis-server --daemonize yes --bind 127.0.0.1 --port 6379 --save  --appendonly no"]);
    expect(r.problems).toEqual(["missing Debian packages: chromium (as root: apt-get install chromium)", "Redis did not open port 6379"]);
  });
});
