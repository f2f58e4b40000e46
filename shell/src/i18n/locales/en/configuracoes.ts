/** Texts of the configuracoes area (en). */
export default {} as const;
