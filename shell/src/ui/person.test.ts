import { avatarColor, initials } from "./person";

describe("ui/person", () => {
  it("gives a record one stable colour and its neighbour another", () => {
    expect(avatarColor(7)).toBe(avatarColor(7));
    expect(avatarColor(7)).not.toBe(avatarColor(8));
    expect(avatarColor("Maria Souza")).toBe(avatarColor("Maria Souza"));
    expect(avatarColor(-3)).toMatch(/^#[0-9a-f]{6}$/);
  });

  it("takes initials by code point, first and last word", () => {
    expect(initials("maria da silva")).toBe("MS");
    expect(initials("  Ana ")).toBe("A");
    expect(initials("")).toBe("?");
    expect(initials(null)).toBe("?");
    expect(initials("😀 Smile")).toBe("😀S");
    expect(initials("𝒜lice 𝒷ob")).toBe("𝒜𝒷");
  });
});
