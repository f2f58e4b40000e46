/** Shared jest preset: TypeScript through @swc/jest (type-checking is `npm run typecheck`). */
const ESM_PACKAGES = ["@whiskeysockets/baileys", "whatsapp-rust-bridge", "p-queue", "p-timeout", "lru-cache", "@cacheable/node-cache", "@cacheable/utils", "hookified", "keyv", "@keyv/serialize"];
module.exports = {
  testEnvironment: "node",
  transform: {
    "^.+\\.(t|j)sx?$|\\.mjs$": [
      "@swc/jest",
      { jsc: { target: "es2022", parser: { syntax: "typescript", tsx: true, decorators: false } }, module: { type: "commonjs" } },
    ],
  },
  moduleFileExtensions: ["ts", "tsx", "js", "mjs", "cjs", "json"],
  // ESM-only packages the tests load for real, compiled to CommonJS like our own code:
  // Baileys 7 and the ESM dependencies it imports statically.
  transformIgnorePatterns: [`/node_modules/(?!(${ESM_PACKAGES.join("|")})/)`],
  // whatsapp-rust-bridge exports only an "import" condition, which jest's require resolution skips.
  moduleNameMapper: { "^whatsapp-rust-bridge$": require("node:path").join(__dirname, "../../node_modules/whatsapp-rust-bridge/dist/index.js") },
  // <rootDir>/data/ is the platform's DATA_DIR (installed plugins); a source folder named data/ has tests.
  testPathIgnorePatterns: ["/node_modules/", "/dist/", "<rootDir>/data/"],
};
