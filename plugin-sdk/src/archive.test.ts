import * as zlib from "node:zlib";
import {
  ArchiveError,
  ArchiveErrorCode,
  ArchiveFile,
  archiveFileName,
  checksumFileContent,
  inspectArchive,
  packArchive,
  readArchive,
  sha256Hex,
  writeTar,
} from "./archive";

const limits = { maxBytes: 1024 * 1024 };

function pkgJson(over: Record<string, unknown> = {}, platform: Record<string, unknown> = {}) {
  return {
    name: "@acme/channel-echo",
    version: "1.2.0",
    description: "Echo channel",
    main: "dist/server/index.js",
    ...over,
    platform: {
      id: "channel-echo",
      kind: "channel",
      tier: "FREE",
      coreApi: "^1.0.0",
      displayName: { "pt-BR": "Eco", en: "Echo" },
      channel: { capabilities: ["text"] },
      ...platform,
    },
  };
}

const file = (path: string, content: string | Buffer): ArchiveFile => ({ path, data: Buffer.isBuffer(content) ? content : Buffer.from(content) });

function goodFiles(pkg: unknown = pkgJson()): ArchiveFile[] {
  return [
    file("package.json", JSON.stringify(pkg, null, 2)),
    file("README.md", "# Echo\n"),
    file("CHANGELOG.md", "## 1.2.0\n- first\n"),
    file("dist/server/index.js", "module.exports = {};\n"),
  ];
}

function archiveErrorOf(fn: () => unknown): ArchiveError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ArchiveError) return err;
    throw err;
  }
  throw new Error("expected an ArchiveError");
}

function expectCode(fn: () => unknown, code: ArchiveErrorCode): ArchiveError {
  const err = archiveErrorOf(fn);
  expect(err.code).toBe(code);
  return err;
}

const gz = (tar: Buffer) => zlib.gzipSync(tar);

describe("packArchive / readArchive", () => {
  it("round-trips files, sorted by path, with their modes", () => {
    const files = [file("b.txt", "bee"), { ...file("a/run.sh", "#!/bin/sh\n"), mode: 0o755 }, file("a/empty", ""), file("bin.dat", Buffer.from([0, 1, 2, 255]))];
    const out = readArchive(packArchive(files), limits);
    expect(out.map((f) => f.path)).toEqual(["a/empty", "a/run.sh", "b.txt", "bin.dat"]);
    expect(out.find((f) => f.path === "b.txt")!.data.toString()).toBe("bee");
    expect(out.find((f) => f.path === "bin.dat")!.data).toEqual(Buffer.from([0, 1, 2, 255]));
    expect(out.find((f) => f.path === "a/run.sh")!.mode).toBe(0o755);
    expect(out.find((f) => f.path === "b.txt")!.mode).toBe(0o644);
    expect(out.find((f) => f.path === "a/empty")!.data.length).toBe(0);
  });

  it("is deterministic: same files in any order give the same bytes", () => {
    const a = packArchive(goodFiles());
    const b = packArchive([...goodFiles()].reverse());
    expect(a.equals(b)).toBe(true);
    expect(sha256Hex(a)).toBe(sha256Hex(b));
  });

  it("supports paths up to 255 bytes with the ustar prefix field and refuses longer ones", () => {
    const long = `${"d".repeat(154)}/${"f".repeat(100)}`; // 255 bytes
    expect(long.length).toBe(255);
    const out = readArchive(packArchive([file(long, "x")]), limits);
    expect(out).toEqual([{ path: long, data: Buffer.from("x"), mode: 0o644 }]);
    expectCode(() => packArchive([file(`${"d".repeat(155)}/${"f".repeat(100)}`, "x")]), "ERR_ARCHIVE_INVALID");
    // nor a path whose last part is over 100 bytes, nor a 120-byte name without a '/' to split at
    expectCode(() => packArchive([file(`a/${"f".repeat(101)}`, "x")]), "ERR_ARCHIVE_INVALID");
    // a 120-byte name without a '/' to split at cannot be stored either
    expectCode(() => packArchive([file("n".repeat(120), "x")]), "ERR_ARCHIVE_INVALID");
  });

  it("packArchive refuses unsafe and duplicate paths", () => {
    expectCode(() => packArchive([file("../x", "")]), "ERR_ARCHIVE_PATH_UNSAFE");
    expectCode(() => packArchive([file("/etc/x", "")]), "ERR_ARCHIVE_PATH_UNSAFE");
    expectCode(() => packArchive([file("a\\b", "")]), "ERR_ARCHIVE_PATH_UNSAFE");
    expectCode(() => packArchive([file("a", ""), file("./a", "")]), "ERR_ARCHIVE_INVALID");
  });

  it("normalises ./ prefixes and skips directory entries", () => {
    const tar = writeTar([{ name: "./", type: "dir" }, { name: "./dist/", type: "dir" }, { name: "./dist/a.js", data: Buffer.from("a") }]);
    expect(readArchive(gz(tar), limits).map((f) => f.path)).toEqual(["dist/a.js"]);
  });

  it("archiveFileName and checksumFileContent", () => {
    expect(archiveFileName("channel-echo", "1.2.0")).toBe("channel-echo-1.2.0.tgz");
    const buf = Buffer.from("abc");
    expect(checksumFileContent(buf, "x.tgz")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad  x.tgz\n");
  });
});

describe("readArchive refusals", () => {
  const one = (name: string, extra: Partial<Parameters<typeof writeTar>[0][number]> = {}) => gz(writeTar([{ name, data: Buffer.from("x"), ...extra }]));

  it.each([
    ["../x", "'..' in path"],
    ["a/../../x", "'..' in path"],
    ["/etc/passwd", "absolute path"],
    ["a\\..\\b", "backslash in path"],
    ["C:/x", "drive letter"],
  ])("refuses the path %s (PATH_UNSAFE)", (name, reason) => {
    const err = expectCode(() => readArchive(one(name), limits), "ERR_ARCHIVE_PATH_UNSAFE");
    expect(err.detail).toMatchObject({ path: name, reason });
  });

  it("refuses symlinks and hardlinks (PATH_UNSAFE)", () => {
    expect(expectCode(() => readArchive(one("link", { type: "symlink", linkName: "/etc/passwd" }), limits), "ERR_ARCHIVE_PATH_UNSAFE").detail.reason).toBe("symbolic link");
    expect(expectCode(() => readArchive(one("link", { type: "hardlink", linkName: "package.json" }), limits), "ERR_ARCHIVE_PATH_UNSAFE").detail.reason).toBe("hard link");
  });

  it("refuses a device entry (PATH_UNSAFE)", () => {
    const tar = writeTar([{ name: "dev", data: Buffer.alloc(0) }]);
    tar.write("3", 156, "ascii"); // character device
    fixHeaderChecksum(tar, 0);
    expectCode(() => readArchive(gz(tar), limits), "ERR_ARCHIVE_PATH_UNSAFE");
  });

  it("refuses an archive over maxBytes (compressed)", () => {
    const a = packArchive(goodFiles());
    const err = expectCode(() => readArchive(a, { maxBytes: a.length - 1 }), "ERR_ARCHIVE_TOO_LARGE");
    expect(err.detail).toMatchObject({ size: a.length, maxBytes: a.length - 1 });
    expect(readArchive(a, { maxBytes: a.length })).toHaveLength(4);
  });

  it("refuses a gzip bomb (unpacked over the limit) without inflating it all", () => {
    const bomb = packArchive([file("zeros.bin", Buffer.alloc(8 * 1024 * 1024))]);
    expect(bomb.length).toBeLessThan(64 * 1024);
    // default unpacked limit: 10 × maxBytes = 640 kB
    expectCode(() => readArchive(bomb, { maxBytes: 64 * 1024 }), "ERR_ARCHIVE_TOO_LARGE");
    expectCode(() => readArchive(bomb, { maxBytes: 1024 * 1024, maxUnpackedBytes: 1024 * 1024 }), "ERR_ARCHIVE_TOO_LARGE");
    expect(readArchive(bomb, { maxBytes: 1024 * 1024, maxUnpackedBytes: 8 * 1024 * 1024 })[0].data.length).toBe(8 * 1024 * 1024);
  });

  it("refuses the files' total over maxUnpackedBytes even when the tar overhead fits", () => {
    const a = packArchive([file("a", Buffer.alloc(600)), file("b", Buffer.alloc(600))]);
    expectCode(() => readArchive(a, { maxBytes: 1e6, maxUnpackedBytes: 1000 }), "ERR_ARCHIVE_TOO_LARGE");
    expect(readArchive(a, { maxBytes: 1e6, maxUnpackedBytes: 1200 })).toHaveLength(2);
  });

  it("refuses too many entries", () => {
    const files = Array.from({ length: 11 }, (_, i) => file(`f${i}`, ""));
    const err = expectCode(() => readArchive(packArchive(files), { maxBytes: 1e6, maxEntries: 10 }), "ERR_ARCHIVE_TOO_LARGE");
    expect(err.detail).toMatchObject({ maxEntries: 10 });
    expect(readArchive(packArchive(files.slice(0, 10)), { maxBytes: 1e6, maxEntries: 10 })).toHaveLength(10);
  });

  it("refuses duplicate paths (INVALID)", () => {
    const tar = writeTar([{ name: "a.js", data: Buffer.from("1") }, { name: "./a.js", data: Buffer.from("2") }]);
    expect(expectCode(() => readArchive(gz(tar), limits), "ERR_ARCHIVE_INVALID").detail).toMatchObject({ path: "a.js", reason: "duplicate path" });
  });

  it("refuses data that is not gzip, and gzip that is not a tar", () => {
    expectCode(() => readArchive(Buffer.from("PK\u0003\u0004 not a gzip at all, a zip maybe"), limits), "ERR_ARCHIVE_INVALID");
    expectCode(() => readArchive(Buffer.alloc(0), limits), "ERR_ARCHIVE_INVALID");
    expectCode(() => readArchive(gz(Buffer.from("just some text, not a tar".repeat(40))), limits), "ERR_ARCHIVE_INVALID");
    const corrupt = Buffer.from(packArchive(goodFiles()));
    corrupt[corrupt.length - 12] ^= 0xff; // deflate data / crc broken
    expectCode(() => readArchive(corrupt, limits), "ERR_ARCHIVE_INVALID");
  });

  it("refuses a truncated tar (inside an entry's data, inside a header) and a truncated gzip", () => {
    const tar = writeTar([{ name: "a.bin", data: Buffer.alloc(3000, 1) }]);
    expect(expectCode(() => readArchive(gz(tar.subarray(0, 512 + 1024)), limits), "ERR_ARCHIVE_INVALID").detail.reason).toMatch(/truncated/);
    expectCode(() => readArchive(gz(tar.subarray(0, 300)), limits), "ERR_ARCHIVE_INVALID");
    const a = packArchive(goodFiles());
    expectCode(() => readArchive(a.subarray(0, Math.floor(a.length / 2)), limits), "ERR_ARCHIVE_INVALID");
  });

  it("refuses a bad header checksum", () => {
    const tar = writeTar([{ name: "a.txt", data: Buffer.from("hello") }]);
    tar.write("b", 0, "ascii"); // change the name, keep the old checksum
    expect(expectCode(() => readArchive(gz(tar), limits), "ERR_ARCHIVE_INVALID").detail.reason).toBe("bad tar header checksum");
  });
});

function fixHeaderChecksum(tar: Buffer, off: number) {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += i >= 148 && i < 156 ? 32 : tar[off + i];
  tar.write(sum.toString(8).padStart(6, "0") + "\0 ", off + 148, "ascii");
}

describe("inspectArchive", () => {
  it("returns the manifest, package.json, readme, changelog, checksum and size of a good archive", () => {
    const a = packArchive(goodFiles());
    const r = inspectArchive(a, { limits, checksum: sha256Hex(a) });
    expect(r.manifest).toMatchObject({ id: "channel-echo", version: "1.2.0", kind: "channel", tier: "FREE", packageName: "@acme/channel-echo" });
    expect(r.pkg.description).toBe("Echo channel");
    expect(r.readme).toBe("# Echo\n");
    expect(r.changelog).toBe("## 1.2.0\n- first\n");
    expect(r.checksum).toBe(sha256Hex(a));
    expect(r.size).toBe(a.length);
    expect(r.files.map((f) => f.path)).toEqual(["CHANGELOG.md", "README.md", "dist/server/index.js", "package.json"]);
  });

  it("accepts the checksum as the content of a .sha256 file, and no checksum at all", () => {
    const a = packArchive(goodFiles());
    expect(inspectArchive(a, { limits, checksum: checksumFileContent(a, "x.tgz") }).checksum).toBe(sha256Hex(a));
    const r = inspectArchive(packArchive(goodFiles().filter((f) => !f.path.endsWith(".md"))), { limits });
    expect(r.readme).toBeNull();
    expect(r.changelog).toBeNull();
  });

  it("refuses a checksum mismatch before reading anything", () => {
    const a = packArchive(goodFiles());
    const err = expectCode(() => inspectArchive(a, { limits, checksum: "0".repeat(64) }), "ERR_ARCHIVE_CHECKSUM_MISMATCH");
    expect(err.detail).toEqual({ expected: "0".repeat(64), actual: sha256Hex(a) });
    expectCode(() => inspectArchive(Buffer.from("garbage"), { limits, checksum: "0".repeat(64) }), "ERR_ARCHIVE_CHECKSUM_MISMATCH");
  });

  it("refuses an oversize archive before hashing it", () => {
    const a = packArchive(goodFiles());
    expectCode(() => inspectArchive(a, { limits: { maxBytes: 100 }, checksum: "0".repeat(64) }), "ERR_ARCHIVE_TOO_LARGE");
  });

  it("passes the archive's own refusals through", () => {
    expectCode(() => inspectArchive(gz(writeTar([{ name: "../package.json", data: Buffer.from("{}") }])), { limits }), "ERR_ARCHIVE_PATH_UNSAFE");
  });

  const errorsOf = (files: ArchiveFile[], opts: { coreApiVersion?: string } = {}) =>
    expectCode(() => inspectArchive(packArchive(files), { limits, ...opts }), "ERR_ARCHIVE_MANIFEST_INVALID").detail.errors as string[];

  it("refuses a missing package.json", () => {
    expect(errorsOf(goodFiles().filter((f) => f.path !== "package.json"))).toEqual(["package.json missing at the archive root"]);
    // not at the root does not count
    expect(errorsOf([file("pkg/package.json", JSON.stringify(pkgJson())), file("dist/server/index.js", "")])).toEqual(["package.json missing at the archive root"]);
  });

  it("refuses a package.json that is not JSON", () => {
    expect(errorsOf([file("package.json", "{nope"), file("dist/server/index.js", "")])[0]).toMatch(/not valid JSON/);
  });

  it("refuses an invalid manifest with validateManifest's reasons", () => {
    const errors = errorsOf(goodFiles(pkgJson({}, { tier: "GOLD", id: "Bad Id" })));
    expect(errors).toEqual(expect.arrayContaining([expect.stringMatching(/platform\.tier/), expect.stringMatching(/platform\.id/)]));
  });

  it("refuses a main other than dist/server/index.js, or a missing main file", () => {
    expect(errorsOf(goodFiles(pkgJson({ main: "src/service.ts" })))).toEqual(['main must be "dist/server/index.js" (got "src/service.ts")']);
    expect(errorsOf(goodFiles(pkgJson({ main: undefined })))[0]).toMatch(/^main must be/);
    expect(errorsOf(goodFiles().filter((f) => f.path !== "dist/server/index.js"))).toEqual(["dist/server/index.js (main) is missing from the archive"]);
  });

  it("refuses a manifest with ui when dist/ui/<remoteEntry> is missing", () => {
    const withUi = pkgJson({}, { ui: { exposes: ["register"] } });
    expect(errorsOf(goodFiles(withUi))).toEqual(["dist/ui/remoteEntry.js (the UI remote entry) is missing from the archive"]);
    expect(inspectArchive(packArchive([...goodFiles(withUi), file("dist/ui/remoteEntry.js", "var x;")]), { limits }).manifest.ui).toEqual({ exposes: ["register"] });
    const custom = pkgJson({}, { ui: { remoteEntry: "entry/remote.js", exposes: [] } });
    expect(errorsOf([...goodFiles(custom), file("dist/ui/remoteEntry.js", "")])).toEqual(["dist/ui/entry/remote.js (the UI remote entry) is missing from the archive"]);
    expect(inspectArchive(packArchive([...goodFiles(custom), file("dist/ui/entry/remote.js", "")]), { limits }).manifest.id).toBe("channel-echo");
  });

  it("refuses a coreApi range this core does not satisfy", () => {
    expect(errorsOf(goodFiles(pkgJson({}, { coreApi: "^2.0.0" })))).toEqual(['platform.coreApi "^2.0.0" is not compatible with core API 1.0.0']);
    expect(inspectArchive(packArchive(goodFiles(pkgJson({}, { coreApi: "^2.0.0" }))), { limits, coreApiVersion: "2.1.0" }).manifest.coreApi).toBe("^2.0.0");
    expect(errorsOf(goodFiles(), { coreApiVersion: "2.0.0" })[0]).toMatch(/not compatible with core API 2\.0\.0/);
  });

  it("reports every problem at once", () => {
    const errors = errorsOf(goodFiles(pkgJson({ main: "index.js" }, { coreApi: "^9.0.0", ui: { exposes: [] } })));
    expect(errors).toHaveLength(3);
  });
});
