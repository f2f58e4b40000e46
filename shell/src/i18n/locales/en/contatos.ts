/** Texts of the contatos area (en). */
export default {} as const;
