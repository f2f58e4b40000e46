/** Texts of the contatos area (pt-BR). */
export default {} as const;
