import { menuColorOf, tintedMenu } from "./menu-colors";

describe("the menu's tenant colour", () => {
  it("takes the theme's colour, none when unset or malformed", () => {
    const stored = { light: "#123e5c", dark: "#e9dfc8" };
    expect(menuColorOf(stored, false)?.bg).toBe("#123e5c");
    expect(menuColorOf(stored, true)?.bg).toBe("#e9dfc8");
    expect(menuColorOf({ light: null, dark: null }, false)).toBeNull();
    expect(menuColorOf(undefined, true)).toBeNull();
    expect(menuColorOf({ light: "blue" }, false)).toBeNull();
  });

  it("writes in the ink that reads on it: white on dark colours, dark on light ones", () => {
    expect(["#000000", "#123e5c", "#0a7d4f", "#5b2a86", "#b91c1c"].map((c) => menuColorOf({ light: c }, false)?.ink)).toEqual(Array(5).fill("#ffffff"));
    expect(["#ffffff", "#e9dfc8", "#f59e0b", "#a7f3d0", "#facc15"].map((c) => menuColorOf({ light: c }, false)?.ink)).toEqual(Array(5).fill("#1d2321"));
  });

  it("tints hover and selection from the ink", () => {
    expect(tintedMenu("#ffffff")).toMatchObject({ itemColor: "#ffffff", itemSelectedColor: "#ffffff", itemSelectedBg: "rgba(255, 255, 255, 0.18)" });
    expect(tintedMenu("#1d2321")).toMatchObject({ itemColor: "#1d2321", itemSelectedBg: "rgba(29, 35, 33, 0.18)" });
  });
});
