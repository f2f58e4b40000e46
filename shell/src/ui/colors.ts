/** Colours offered for tags (and anywhere a colour is picked). */
export const PRESET_COLORS = [
  "#0a7d4f",
  "#16a34a",
  "#0891b2",
  "#2563eb",
  "#5c6bc0",
  "#7c3aed",
  "#c026d3",
  "#db2777",
  "#dc2626",
  "#ea580c",
  "#d97706",
  "#ca8a04",
  "#4b5563",
  "#1d2321",
];
