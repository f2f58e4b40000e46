/** Texts of the contatos area (es). */
export default {} as const;
