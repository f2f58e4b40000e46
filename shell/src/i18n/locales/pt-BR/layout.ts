/** Texts of the layout area (pt-BR). */
export default {} as const;
