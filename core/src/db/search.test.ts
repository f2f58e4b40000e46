import { searchText } from "./search";

describe("searchText", () => {
  it("drops NULs and keeps the rest of the term", () => {
    expect(searchText("Adm\0in")).toBe("Admin");
    expect(searchText("\0\0")).toBe("");
  });
  it("turns lone surrogates into U+FFFD and keeps pairs", () => {
    expect(searchText("a\uD800b")).toBe("a\uFFFDb");
    expect(searchText("\uDC00x\uD83D")).toBe("\uFFFDx\uFFFD");
    expect(searchText("😀 𝒳")).toBe("😀 𝒳");
  });
  it("leaves quotes, wildcards and backslashes alone (the drivers escape them)", () => {
    expect(searchText("' OR 1=1 -- %_\\")).toBe("' OR 1=1 -- %_\\");
  });
});
