/** Shared jest preset: TypeScript through @swc/jest (type-checking is `npm run typecheck`). */
module.exports = {
  testEnvironment: "node",
  transform: {
    "^.+\\.(t|j)sx?$": [
      "@swc/jest",
      { jsc: { target: "es2022", parser: { syntax: "typescript", tsx: true, decorators: false } }, module: { type: "commonjs" } },
    ],
  },
  moduleFileExtensions: ["ts", "tsx", "js", "cjs", "json"],
  testPathIgnorePatterns: ["/node_modules/", "/dist/", "/data/"],
};
