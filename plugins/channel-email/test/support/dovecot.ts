/**
 * A real IMAP server for the tests: Debian's Dovecot (package dovecot-imapd), started on a
 * random high port with a configuration of its own in a temp folder — users from a
 * passwd-file, maildir mailboxes in the folder, no TLS, plaintext login allowed. As root it
 * runs the mailboxes as the `mail` user (Dovecot refuses uid 0; first_valid_uid is lowered
 * to reach uid 8); otherwise as the current user.
 */
import { spawn, ChildProcess } from "node:child_process";
import * as fs from "node:fs";
import * as net from "node:net";
import * as os from "node:os";
import * as path from "node:path";
import { ImapFlow } from "imapflow";

export const DOVECOT_BIN = "/usr/sbin/dovecot";

export interface DovecotUser {
  user: string;
  pass: string;
}

export interface Dovecot {
  host: string;
  port: number;
  dir: string;
  /** Adds a user (Dovecot re-reads its passwd-file when it changes). */
  addUser(u: DovecotUser): void;
  /** Puts a message in the user's INBOX with IMAP APPEND; answers its UID. */
  append(u: DovecotUser, raw: string | Buffer, flags?: string[]): Promise<number>;
  /** The user's maildir INBOX (cur/new/tmp and Dovecot's index files). */
  maildir(u: DovecotUser): string;
  /** Drops a message file into the user's maildir (new/), as the local delivery agent does; works while the server is down. */
  deliver(u: DovecotUser, raw: string | Buffer): void;
  /** Stops the server (the mail stays) and starts it again on the same port; `whileDown` runs in between. */
  restart(opts?: { downMs?: number; whileDown?: () => Promise<void> | void }): Promise<void>;
  stop(): Promise<void>;
  /** Stops the server and removes its folder. */
  destroy(): Promise<void>;
  log(): string;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function whoRunsMail(): { uid: number; gid: number; name: string } {
  if (process.getuid?.() === 0) {
    const line = fs.readFileSync("/etc/passwd", "utf8").split("\n").find((l) => l.startsWith("mail:"));
    const [, , uid, gid] = (line ?? "mail:x:8:8").split(":");
    return { uid: Number(uid), gid: Number(gid), name: "mail" };
  }
  return { uid: process.getuid!(), gid: process.getgid!(), name: os.userInfo().username };
}

async function waitGreeting(port: number, ms = 10_000): Promise<void> {
  const t0 = Date.now();
  for (;;) {
    const ok = await new Promise<boolean>((resolve) => {
      const s = net.connect(port, "127.0.0.1");
      const done = (v: boolean) => {
        s.destroy();
        resolve(v);
      };
      s.setTimeout(1000, () => done(false));
      s.on("error", () => done(false));
      s.on("data", (d) => done(d.toString().startsWith("* OK")));
    });
    if (ok) return;
    if (Date.now() - t0 > ms) throw new Error(`dovecot did not answer on port ${port} within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startDovecot(users: DovecotUser[] = []): Promise<Dovecot> {
  if (!fs.existsSync(DOVECOT_BIN)) throw new Error(`${DOVECOT_BIN} is missing: apt-get install -y dovecot-imapd`);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "oa-dovecot-"));
  fs.chmodSync(dir, 0o755);
  const runAs = whoRunsMail();
  const mailRoot = path.join(dir, "mail");
  fs.mkdirSync(mailRoot);
  fs.chownSync(mailRoot, runAs.uid, runAs.gid);
  const passwd = path.join(dir, "passwd");
  const port = await freePort();
  const known: DovecotUser[] = [];
  const writeUsers = () => fs.writeFileSync(passwd, known.map((u) => `${u.user}:{PLAIN}${u.pass}:${runAs.uid}:${runAs.gid}::${path.join(mailRoot, u.user)}::\n`).join(""));
  const nonRoot = runAs.name !== "mail" ? `default_internal_user = ${runAs.name}\ndefault_login_user = ${runAs.name}\ndefault_internal_group = ${runAs.name}\n` : "";
  fs.writeFileSync(
    path.join(dir, "dovecot.conf"),
    `${nonRoot}base_dir = ${dir}/run
state_dir = ${dir}/state
log_path = ${dir}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# Tests log in with wrong passwords on purpose: answer at once. (Dovecot's per-IP auth penalty
# still delays the logins that follow a second failure: tests with wrong passwords run last.)
auth_failure_delay = 0
mail_location = maildir:~/Maildir
first_valid_uid = ${Math.min(runAs.uid, 1)}
first_valid_gid = ${Math.min(runAs.gid, 1)}
mailbox_idle_check_interval = 1 secs
passdb {
  driver = passwd-file
  args = scheme=PLAIN ${passwd}
}
userdb {
  driver = passwd-file
  args = ${passwd}
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`,
  );
  for (const u of users) known.push(u);
  writeUsers();

  let proc: ChildProcess | null = null;
  const start = async () => {
    // A process group of its own: stopping it ends the IMAP sessions too, as a server going down does.
    const p = spawn(DOVECOT_BIN, ["-F", "-c", path.join(dir, "dovecot.conf")], { stdio: ["ignore", "ignore", "pipe"], detached: true });
    let stderr = "";
    p.stderr!.on("data", (d) => (stderr += d.toString()));
    proc = p;
    try {
      await waitGreeting(port);
    } catch (err) {
      p.kill("SIGKILL");
      throw new Error(`${(err as Error).message}\n${stderr}\n${readLog()}`);
    }
  };
  const stop = async () => {
    const p = proc;
    proc = null;
    if (!p || p.exitCode !== null) return;
    let timer: NodeJS.Timeout | undefined;
    const exited = new Promise((r) => p.once("exit", r));
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-p.pid!, signal);
      } catch {
        /* already gone */
      }
    };
    group("SIGTERM");
    await Promise.race([exited, new Promise((r) => (timer = setTimeout(r, 5000)))]);
    clearTimeout(timer);
    group("SIGKILL");
  };
  const readLog = () => {
    try {
      return fs.readFileSync(path.join(dir, "dovecot.log"), "utf8");
    } catch {
      return "";
    }
  };
  await start();

  return {
    host: "127.0.0.1",
    port,
    dir,
    addUser(u) {
      known.push(u);
      writeUsers();
    },
    async append(u, raw, flags = []) {
      const c = new ImapFlow({ host: "127.0.0.1", port, secure: false, auth: { user: u.user, pass: u.pass }, logger: false, disableAutoIdle: true });
      c.on("error", () => undefined);
      await c.connect();
      try {
        const res = await c.append("INBOX", raw, flags);
        if (!res || !res.uid) throw new Error("APPEND answered no UID");
        return res.uid;
      } finally {
        await c.logout().catch(() => c.close());
      }
    },
    maildir(u) {
      return path.join(mailRoot, u.user, "Maildir");
    },
    deliver(u, raw) {
      const box = path.join(mailRoot, u.user, "Maildir");
      for (const sub of ["", "new", "cur", "tmp"]) {
        const p = path.join(box, sub);
        if (!fs.existsSync(p)) {
          fs.mkdirSync(p, { recursive: true });
          fs.chownSync(p, runAs.uid, runAs.gid);
        }
      }
      const name = `${Date.now()}.M${process.hrtime.bigint()}P${process.pid}.test`;
      const tmp = path.join(box, "tmp", name);
      fs.writeFileSync(tmp, raw);
      fs.chownSync(tmp, runAs.uid, runAs.gid);
      fs.renameSync(tmp, path.join(box, "new", name));
    },
    async restart(opts = {}) {
      await stop();
      await opts.whileDown?.();
      if (opts.downMs) await new Promise((r) => setTimeout(r, opts.downMs));
      await start();
    },
    stop,
    async destroy() {
      await stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
    log: readLog,
  };
}

/** Forces a new UIDVALIDITY on a user's INBOX, as a server migration or a rebuilt index would. */
export function resetUidValidity(d: Dovecot, u: DovecotUser): void {
  const dir = d.maildir(u);
  for (const f of fs.readdirSync(dir)) {
    if (f === "dovecot-uidlist" || f.startsWith("dovecot.index")) fs.rmSync(path.join(dir, f), { force: true });
  }
  // Maildir file names carry the UID once Dovecot saw them (",U=n"); strip it so nothing is reused.
  for (const sub of ["cur", "new"]) {
    const p = path.join(dir, sub);
    if (!fs.existsSync(p)) continue;
    for (const f of fs.readdirSync(p)) {
      const clean = f.replace(/,U=\d+/, "");
      if (clean !== f) fs.renameSync(path.join(p, f), path.join(p, clean));
    }
  }
}
