/** The main menu's colours: the theme's own, or the tenant's menuColors for the theme (spec §3 General settings). */

/** The menu's selected entry: a light tint of the brand colour, its text in the brand colour. */
export const MENU_LIGHT = { itemSelectedBg: "rgba(10, 125, 79, 0.09)", itemSelectedColor: "#0a7d4f", itemHoverBg: "rgba(16, 24, 20, 0.04)", itemActiveBg: "rgba(10, 125, 79, 0.14)" };
export const MENU_DARK = { itemSelectedBg: "rgba(46, 184, 122, 0.16)", itemSelectedColor: "#5fd39e", itemHoverBg: "rgba(255, 255, 255, 0.06)", itemActiveBg: "rgba(46, 184, 122, 0.22)" };

/**
 * The tenant's menu colour for the theme (setting `menuColors`: { light, dark }, "#rrggbb" or
 * null for the theme's own) and the ink that reads on it: dark on a light colour, white on a
 * dark one (relative luminance, WCAG).
 */
export function menuColorOf(stored: unknown, dark: boolean): { bg: string; ink: string } | null {
  const c = stored as { light?: unknown; dark?: unknown } | null | undefined;
  const bg = dark ? c?.dark : c?.light;
  if (typeof bg !== "string" || !/^#[0-9a-fA-F]{6}$/.test(bg)) return null;
  const lin = (i: number) => {
    const v = parseInt(bg.slice(i, i + 2), 16) / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  };
  const l = 0.2126 * lin(1) + 0.7152 * lin(3) + 0.0722 * lin(5);
  // White reads better when its contrast, 1.05 / (l + 0.05), beats the dark ink's (#1d2321:
  // luminance 0.0152, so (l + 0.05) / 0.0652).
  return { bg, ink: 1.05 / (l + 0.05) > (l + 0.05) / 0.0652 ? "#ffffff" : "#1d2321" };
}

/** The menu's items on a tenant colour: the ink, with tints of it for hover and selection. */
export function tintedMenu(ink: string) {
  const a = (x: number) => (ink === "#ffffff" ? `rgba(255, 255, 255, ${x})` : `rgba(29, 35, 33, ${x})`);
  return { itemColor: ink, itemHoverColor: ink, itemSelectedColor: ink, itemSelectedBg: a(0.18), itemHoverBg: a(0.09), itemActiveBg: a(0.24) };
}
