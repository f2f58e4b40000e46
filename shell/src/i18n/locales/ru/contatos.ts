/** Texts of the contatos area (ru). */
export default {} as const;
