/** Texts of the home area (pt-BR). */
export default {} as const;
